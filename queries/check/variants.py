"""Equivalence of two formulations of one rule, bounded (``chainjudge check``).

Two readings of who acts first after the turn player declares the end of a
phase: the FET chart (box E: the opponent) against a reading where the turn
player has one last chance first.  Both are encoded, switched by
``variant(end_declaration, chart | tp_first)`` (encodings/README.md).

The comparison runs on the checker's search (every position built from the
pool, up to the horizon H).  For each ordered pair of formulations (A, B) it
looks for a timeline that A allows and B does not: a legal trace under A in
which a rule that reads the switch decides something (``decides/4`` of a
rule whose body mentions ``variant(K, A)``), whose position and events are
then replayed under B.  If B cannot play them, the shortest prefix B cannot
play is the distinguishing timeline, with the rules of B that forbid it (a
minimal set, by lifting each rule of the solver's core in turn).  If every
such trace replays under B, the formulations allow the same timelines up to
H as far as the rules that read the switch are concerned (bounded: "no
difference found").
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from logic.scenario import VARIANTS
from queries.check.rulebook import _states, counterexample
from queries.search import describe
from solver import sources
from solver.terms import Function, Number, Symbol

if TYPE_CHECKING:
    from queries.check.checker import Checker
    from queries.check.rulebook import Search

TRIES = 4  # traces under A replayed under B before "no difference found"


def compare(checker: Checker, search: Search) -> dict[str, Any] | None:
    book = checker.book
    started = time.perf_counter()
    out: dict[str, Any] = {"variants": [], "horizon": search.t}
    for key, values in VARIANTS.items():
        where = _switch_sites(book, key)
        if not where or not search.session.has_atom(Function("variant", [Function(key, []), Function(values[0], [])])):
            continue
        entry: dict[str, Any] = {"key": key, "values": list(values), "directions": []}
        for a in values:
            for b in values:
                if a == b:
                    continue
                entry["directions"].append(_direction(checker, search, key, a, b))
        diff = [d for d in entry["directions"] if d["status"] == "differ"]
        entry["status"] = "differ" if diff else "no difference found"
        out["variants"].append(entry)
    out["ms"] = round((time.perf_counter() - started) * 1000, 1)
    if not out["variants"]:
        return None
    out["status"] = "differ" if any(v["status"] == "differ" for v in out["variants"]) else "no difference found"
    return out


def _switch_sites(book: Any, key: str, value: str = r"\w+") -> list[str]:
    """The locations "file:line" of the step rules whose body reads variant(key, value)."""
    sites = []
    pat = re.compile(r"variant\(\s*" + re.escape(key) + r"\s*,\s*" + value + r"\s*\)")
    for f in book.files:
        rel = str(f.relative_to(book.root)) if f.is_relative_to(book.root) else str(f)
        for no, raw in enumerate(sources.text(f).splitlines(), 1):
            code = raw.split("%", 1)[0]
            if ":-" in code and pat.search(code.split(":-", 1)[1]):
                sites.append(f"{rel}:{no}")
    return sites


def _variant(key: str, v: str) -> Symbol:
    return Function("variant", [Function(key, []), Function(v, [])])


def _direction(checker: Checker, search: Search, key: str, a: str, b: str) -> dict[str, Any]:
    base = search.rule_assumptions()
    sites = {f'"{w}"' for w in _switch_sites(checker.book, key, a)}
    # a rule reading the switch decides something, as early as possible
    goals = sorted((x for x in search.session.atoms_of("decides", 4)
                    if str(x.arguments[2]) in sites and x.arguments[3].number <= search.t),
                   key=lambda x: (x.arguments[3].number, str(x)))
    res: dict[str, Any] = {"allowed_by": a, "not_by": b, "status": "no difference found", "tried": 0}
    for goal in goals[:TRIES]:
        model = search.solve(base + [(_variant(key, a), True), (goal, True)])
        if model is None:
            continue
        res["tried"] += 1
        start = _start_pins(search, model)
        events = sorted((x.arguments[1].number, x.arguments[0]) for x in model
                        if x.name == "occurs" and x.arguments[0].name != "idle")
        under_b = base + [(_variant(key, b), True)] + start
        k = _first_unplayable(search, under_b, events)
        if k is None:
            continue
        pins = [(Function("occurs", [e, Number(t)]), True) for t, e in events[:k]]
        rules = _forbidding(search, under_b, pins)
        cx = counterexample(checker.book, checker.pool, model, "__none__", at=events[k - 1][0])
        res.update(status="differ", timeline=cx.timeline, position=cx.position,
                   differs_at=events[k - 1][0],
                   forbidden_by=[checker.book.rules[r].id if r in checker.book.rules else r for r in rules])
        last = _states(model).get(events[k - 1][0] - 1, set())
        res["state_before"] = {str(f.arguments[0]): str(f.arguments[1]) for f in last
                               if f.name == "val" and str(f.arguments[0]) in ("at", "box", "priority")}
        return res
    return res


def _start_pins(search: Search, model: list[Symbol]) -> list[tuple[Symbol, bool]]:
    """The model's start position exactly: every fluent of point 0 in or out, the owners and the date."""
    shown = {x for x in model if x.name == "holds" and x.arguments[1].number == 0}
    pins = [(x, x in shown) for x in search.session.atoms_of("holds", 2) if x.arguments[1].number == 0]
    pins += [(x, True) for x in model if x.name in ("owner", "date")]
    return pins


def _first_unplayable(search: Search, under_b: list[tuple[Symbol, bool]], events: list[tuple[int, Symbol]]) -> int | None:
    """The length of the shortest prefix of ``events`` that B cannot play (None: B plays them all)."""
    def ok(k: int) -> bool:
        pins = [(Function("occurs", [e, Number(t)]), True) for t, e in events[:k]]
        return search.solve(under_b + pins) is not None

    if ok(len(events)):
        return None
    lo, hi = 1, len(events)
    while lo < hi:
        mid = (lo + hi) // 2
        if ok(mid):
            lo = mid + 1
        else:
            hi = mid
    return lo


def _forbidding(search: Search, under_b: list[tuple[Symbol, bool]], pins: list[tuple[Symbol, bool]]) -> list[str]:
    """The rules of B that forbid the pinned prefix: each rule whose lifting alone lets it through."""
    out = search.session.solve(search.active() + under_b + pins, models=1)
    if out.satisfiable:
        return []
    core = [c.arguments[0].name for c in out.core if c.name == "rule"]

    def passes(group: list[str]) -> bool:
        off = {Function("rule", [Function(a, [])]) for a in group}
        return search.solve([(s, v and s not in off) for s, v in under_b] + pins) is not None

    # Lifting rules only removes constraints, so if lifting a whole group does
    # not let the prefix through, lifting any one of its rules does not either:
    # group testing finds the rules whose lifting alone lets it through in
    # O(k log n) solves instead of one per rule of the (unminimised) core.
    necessary: list[str] = []

    def split(group: list[str]) -> None:
        if not group or not passes(group):
            return
        if len(group) == 1:
            necessary.append(group[0])
            return
        half = len(group) // 2
        split(group[:half])
        split(group[half:])

    split(core)
    return necessary or core


def to_text(eq: dict[str, Any] | None) -> list[str]:
    if not eq:
        return []
    out = [f"Equivalence of formulations (bounded, H={eq['horizon']})"]
    for v in eq["variants"]:
        out.append(f"  {v['key']}: {' vs '.join(v['values'])}: {v['status'].upper()}")
        for d in v["directions"]:
            if d["status"] != "differ":
                out.append(f"    {d['allowed_by']} -> {d['not_by']}: no difference found ({d['tried']} trace(s) "
                           "through the rules that read the switch replayed)")
                continue
            out.append(f"    a timeline {d['allowed_by']} allows and {d['not_by']} does not "
                       f"(position: {d['position']['point']}, turn player {d['position']['turn_player']}):")
            for row in d["timeline"]:
                box = f" {row['box']:<2}" if "box" in row else ""
                out.append(f"      {row['t']:>2} {row['point']:<24}{box} {row['priority']:<6} {row['event']}")
            out.append(f"      under {d['not_by']} the last event is forbidden by: "
                       f"{', '.join(d['forbidden_by']) or '(the rules together)'}")
    out.append("")
    return out


__all__ = ["compare", "to_text", "describe"]
