"""Text and JSON renderings of answers.

The text reads like a judge's ruling: first the ruling in a judge's words
(the verdict, one sentence per deciding rule with its public citation,
caveats), then "Details:": the verdict, the sentences naming the rules by id,
the timeline as a table, then the rules with their text and source.
"""

from __future__ import annotations

import json
from typing import Any

from queries.rulings.answer import Answer

_VERDICT = {"yes": "Yes.", "no": "No.", "depends": "It depends."}


def to_json(ans: Answer) -> str:
    return json.dumps(ans.as_json(), indent=2, ensure_ascii=False)


def _table(rows: list[dict[str, Any]], indent: str = "  ") -> list[str]:
    if not rows:
        return []
    cols = list(rows[0].keys())
    cells = [[_cell(r.get(c)) for c in cols] for r in rows]
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(cols)]
    out = [indent + "  ".join(c.ljust(w) for c, w in zip(cols, widths, strict=True)).rstrip()]
    out.append(indent + "  ".join("-" * w for w in widths))
    for row in cells:
        out.append(indent + "  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    return out


def _cell(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "-"
    return str(v)


def _window(w: Any) -> str:
    if isinstance(w, dict) and "point" in w:
        return w["point"] + (f" (box {w['box']})" if w.get("box") else "")
    return str(w)


def headline(ans: Answer) -> str:
    if ans.verdict is not None:
        return _VERDICT.get(ans.verdict, ans.verdict)
    a = ans.answer
    if isinstance(a, list):
        if not a:
            return "None." if ans.kind == "when_can" else "Nothing."
        if isinstance(a[0], dict):
            return ", ".join(_window(w) for w in a)
        if isinstance(a[0], list):
            if ans.kind == "list" and len(a) > 5:
                return f"{len(a)} chains"
            return "; ".join(" then ".join(str(x) for x in c) or "(no chain)" for c in a)
        return ", ".join(str(x) for x in a)
    if a is None:
        return "No answer."
    return str(a)


def judge_lines(ans: Answer) -> list[str]:
    """The first part of a text answer: the ruling in a judge's words
    (queries/rulings/judge.py), then its caveats."""
    ruling = ans.ruling or {}
    lines = list(ruling.get("lines") or [])
    for c in ruling.get("caveats") or []:
        lines.append(f"Caveat: {c}")
    return lines


def to_text(ans: Answer) -> str:
    judge = judge_lines(ans)
    lines = judge + ["", "Details:"] if judge else []
    lines += [f"Q: {ans.question}", f"A: {headline(ans)}"]
    if ans.detail.get("box"):
        lines[-1] += f"  (box {ans.detail['box']} of the Fast Effect Timing chart, at {ans.detail.get('point')})"
    if ans.summary:
        lines.append(ans.summary)
    if ans.detail.get("choice") and not ans.detail.get("choices"):
        c = ans.detail["choice"]
        lines.append(f"The two sides part at step {c['t']} ({c['point']}): {c['player']} may "
                     f"either do \"{c['one_side']}\" or \"{c['other_side']}\".")
    if ans.witness:
        lines.append("")
        lines.append("Timeline" + (" (one side)" if ans.other_witness else "") + ":")
        lines += _table(ans.witness)
    if ans.other_witness:
        lines.append("")
        lines.append("Timeline (the other side):")
        lines += _table(ans.other_witness)
    reasons = ans.detail.get("reasons") or []
    if ans.because:
        lines.append("")
        if ans.verdict == "no" and reasons:
            lines.append("The rules that decide it:")
        elif ans.verdict == "yes" and reasons:
            lines.append("The rules that force it:")
        else:
            lines.append("Rules:")
        bounds = [r for r in ans.because if r.get("kind") == "bound"]
        for r in ans.because:
            if r.get("kind") == "bound":
                continue
            tag = f" [{r['kind']}]" if r.get("kind") else ""
            lines.append(f"  - {r['rule']}{tag}: {r['text']}  ({r['source']})")
        if bounds:
            lines.append("Search bounds the answer rests on (not rules of the game):")
            for r in bounds:
                lines.append(f"  - {r['rule']}: {r['text']}  ({r['source']})")
    if len(reasons) > 1:
        lines.append("Independent reasons (each a minimal set):")
        for i, r in enumerate(reasons, 1):
            lines.append(f"  {i}. " + " + ".join(r["rules"]) + ("" if r.get("minimal", True) else "  (minimality not proved)"))
    cf = ans.detail.get("counterfactual")
    if cf and cf.get("timeline"):
        lines.append("")
        lines.append("If " + " and ".join(cf["lifted"]) + " did not apply, it could happen like this:")
        lines += _table(cf["timeline"])
    if ans.latest_chance:
        lines.append("")
        lines.append(f"Latest chance: {_window(ans.latest_chance)}")
    if ans.detail.get("next_chance"):
        lines.append(f"Next chance: {_window(ans.detail['next_chance'])}")
    for n in ans.notes:
        if n != ans.summary:
            lines.append(f"Note: {n}")
    return "\n".join(lines)
