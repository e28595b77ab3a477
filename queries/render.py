"""Text and JSON renderings of answers."""

from __future__ import annotations

import json
from typing import Any

from queries.answer import Answer

_VERDICT = {"yes": "Yes.", "no": "No.", "depends": "It depends."}


def to_json(ans: Answer) -> str:
    return json.dumps(ans.as_json(), indent=2, ensure_ascii=False)


def _table(rows: list[dict[str, Any]]) -> list[str]:
    if not rows:
        return []
    cols = list(rows[0].keys())
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    out = ["  " + "  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True))]
    out.append("  " + "  ".join("-" * w for w in widths))
    for row in cells:
        out.append("  " + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))
    return out


def _cell(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "-"
    return str(v)


def headline(ans: Answer) -> str:
    if ans.verdict is not None:
        return _VERDICT.get(ans.verdict, ans.verdict)
    if isinstance(ans.answer, list):
        if ans.answer and isinstance(ans.answer[0], list):
            if ans.kind == "list" and len(ans.answer) > 5:
                return f"{len(ans.answer)} chains"
            return "; ".join(" then ".join(x) or "(no chain)" for x in ans.answer)
        return ", ".join(str(x) for x in ans.answer) if ans.answer else "nothing"
    if ans.answer is None:
        return "No answer."
    return str(ans.answer)


def to_text(ans: Answer) -> str:
    lines = [f"Q: {ans.question}", f"A: {headline(ans)}"]
    if ans.detail.get("box"):
        lines[-1] += f"  (box {ans.detail['box']} of the Fast Effect Timing chart, at {ans.detail.get('point')})"
    if ans.summary:
        lines.append(ans.summary)
    if ans.because:
        lines.append("")
        lines.append("Because:" if ans.verdict != "no" else "Because (these rules together forbid it):")
        for r in ans.because:
            tag = f" [{r['kind']}]" if r.get("kind") else ""
            lines.append(f"  - {r['rule']}{tag}: {r['text']}  ({r['source']})")
    if ans.detail.get("choice"):
        c = ans.detail["choice"]
        lines.append("")
        lines.append(f"The choice that decides it: at step {c['t']} ({c['point']}), {c['player']} may "
                     f"either do \"{c['one_side']}\" or \"{c['other_side']}\".")
    if ans.witness:
        lines.append("")
        lines.append("Timeline" + (" (one side)" if ans.other_witness else "") + ":")
        lines += _table(ans.witness)
    if ans.other_witness:
        lines.append("")
        lines.append("Timeline (the other side):")
        lines += _table(ans.other_witness)
    if ans.latest_chance:
        lc = ans.latest_chance
        lines.append("")
        lines.append(f"Latest chance: {lc.get('point')}" + (f", box {lc['box']}" if lc.get("box") else ""))
    for n in ans.notes:
        if n != ans.summary:
            lines.append(f"Note: {n}")
    return "\n".join(lines)
