"""The rulebook checker (``chainjudge check``): does the rulebook contradict
itself, get stuck, or no longer give the answers a ruling corpus expects?

Six parts, each reported (text table or JSON), exit 1 if anything is violated:

1. **Invariants** (``encodings/checks/*.lp``, each a small program defining
   ``violation(Id,T)``), searched over every position built from a card pool
   (``encodings/checks/positions.lp``: the solver chooses the position) up to
   a horizon H.  A violation comes with its counterexample timeline.
2. **Beyond the bound**: an invariant is *proved* for every reachable state
   by a base case (every start position) and one induction step from any
   state of the fluent domain that satisfies the invariants and lemmas proved
   together (Schiffel and Thielscher; the largest inductive set is kept,
   Houdini style).  Others are only *searched* to H.
3. **Gaps and conflicts** (Catala): steps where two rules decide differently
   who may act next (or what the game does, or where play is), and steps
   where no rule decides it.
4. **Corpus regression with blame** and 5. **rule coverage**
   (:mod:`queries.check.corpus`).
6. **Equivalence of two formulations** of one rule (a variant switch),
   bounded (:mod:`queries.check.variants`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from logic.errors import InputError
from logic.games import turn
from logic.registry import Rule
from queries.check.corpus import regression
from queries.check.corpus import to_text as corpus_text
from queries.check.induction import prove
from queries.check.rulebook import (
    DEFAULT_HORIZON,
    SPACES,
    Check,
    CheckResult,
    Counterexample,
    Report,
    Search,
    _event_label,
    _seek,
    counterexample,
    load_rulebook,
    make_pool,
    pool_file,
    position_scenario,
    read_pool,
)
from queries.check.variants import compare
from queries.check.variants import to_text as eq_text
from solver.terms import Function, Number, Symbol

# ---------------------------------------------------------------- the rulebook


# ---------------------------------------------------------------- the pool and the positions


# ---------------------------------------------------------------- results


# ---------------------------------------------------------------- the bounded search


# ---------------------------------------------------------------- the checker


@dataclass
class Options:
    game: str = "ygo"
    horizon: int = DEFAULT_HORIZON
    cases: list[Path] = field(default_factory=list)
    pool: Path | None = None
    encodings: Path | None = None
    rules: list[Path] = field(default_factory=list)  # user rule files (--rules)
    only: tuple[str, ...] = ()  # check ids to run (default: all)
    induction: bool = True
    equivalence: bool = True
    coverage: bool = True
    time_limit: float | None = None


class Checker:
    def __init__(self, opts: Options) -> None:
        if opts.horizon < 1 or opts.horizon > 40:
            raise InputError("the horizon must be between 1 and 40", "--horizon")
        self.opts = opts
        self.book = load_rulebook(opts.game, opts.encodings, opts.rules)
        names = read_pool(opts.pool) if opts.pool else read_pool(pool_file(opts.game))
        self.pool = make_pool(opts.game, names, str(opts.pool or pool_file(opts.game)))
        where = "shipped" if self.book.shipped else str(self.book.root)
        if self.book.user_files:
            where += " + " + ", ".join(str(p) for p in opts.rules)
        self.report = Report(opts.game, opts.horizon, where,
                             self.pool.names)

        known = {c.id for c in self.book.checks}
        for x in opts.only:
            if x not in known:
                raise InputError(f"no check {x!r} for {opts.game}; the checks are: {', '.join(sorted(known))}", "--only")

    def wanted(self, c: Check) -> bool:
        return not self.opts.only or c.id in self.opts.only

    def run(self) -> Report:
        started = time.perf_counter()
        rep = self.report
        checks = [c for c in self.book.checks if c.kind == "invariant" and self.wanted(c)]
        lemmas = [c for c in self.book.checks if c.kind == "lemma"]
        search = Search(self.book, self.pool, self.opts.time_limit)
        results = {c.atom: CheckResult(c, "searched", 0, lifted=list(c.lift)) for c in checks}
        lemma_results = {c.atom: CheckResult(c, "searched", 0) for c in lemmas}
        dead = [c for c in checks if c.form == "lookahead"]
        # base cases: every start position (state 0)
        for c in checks + lemmas:
            if c.form != "state":
                continue
            r = results.get(c.atom) or lemma_results[c.atom]
            t0 = time.perf_counter()
            model = search.solve(search.rule_assumptions(c.lift, c.enable) + [_seek(c.atom, 0)])
            r.ms += (time.perf_counter() - t0) * 1000
            r.solves += 1
            r.base_ok = model is None
            if model is not None:
                r.status = "violated"
                r.counterexample = counterexample(self.book, self.pool, model, c.atom)
        # the search: every step up to H (and one ahead, for the look-ahead)
        for k in range(0, self.opts.horizon + 1):
            search.advance()  # step k+1, not yet taking part in the trace (active(k+1) is not assumed)
            if k < self.opts.horizon:
                search.t += 1
        h = self.opts.horizon
        for c in checks:
            r = results[c.atom]
            if c.form == "lookahead":
                continue
            r.horizon = h
            if r.status == "violated":
                continue
            t0 = time.perf_counter()
            model = search.solve(search.rule_assumptions(c.lift, c.enable) + [_seek(c.atom, h)])
            r.solves += 1
            if model is not None:
                model = self._shortest(search, c, model)
                r.status = "violated"
                r.counterexample = counterexample(self.book, self.pool, model, c.atom)
                if c.section != "invariants" or c.form == "step":
                    self._blame_decisions(r, model)
            r.ms += (time.perf_counter() - t0) * 1000
        # the equivalence of two formulations, on the same grounding
        if self.opts.equivalence:
            t0 = time.perf_counter()
            rep.equivalence = compare(self, search)
            rep.stats["equivalence_ms"] = round((time.perf_counter() - t0) * 1000, 1)
        # dead ends, at every point: the look-ahead layers are grounded last, so
        # that the other checks (and the equivalence) solve over the smaller program
        if dead:
            for k in range(0, h + 1):
                search.t = k
                search.ground_lookahead()
                for c in dead:
                    r = results[c.atom]
                    if r.status == "violated":
                        continue
                    t0 = time.perf_counter()
                    model = search.solve(search.rule_assumptions() +
                                         [(Function("seek_ahead", [Number(k + 1)]), True)])
                    r.ms += (time.perf_counter() - t0) * 1000
                    r.solves += 1
                    r.horizon = k
                    if model is not None:
                        r.status = "violated"
                        r.counterexample = self._dead_end(model, k)
            search.t = h
        rep.results = [results[c.atom] for c in checks]
        rep.lemmas = [lemma_results[c.atom] for c in lemmas]
        rep.stats["ground_ms"] = round(search.ground_ms, 1)
        rep.stats["search_solve_ms"] = round(search.session.stats.solve_ms, 1)
        rep.stats["atoms"] = search.session.stats.atoms
        rep.stats["rules"] = search.session.stats.rules
        rep.stats["positions"] = self._count_positions()
        rep.stats["lookahead_copied"] = search.la.predicates
        rep.stats["search_ms"] = round((time.perf_counter() - started) * 1000 - rep.stats.get("equivalence_ms", 0), 1)
        if self.opts.induction:
            prove(self, search, results, lemma_results)
        if self.opts.cases:
            regression(self)
        rep.stats["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return rep

    # ------------------------------------------------------------ details
    def _shortest(self, search: Search, c: Check, model: list[Symbol]) -> list[Symbol]:
        """The counterexample with the earliest violation (binary search over the horizons)."""
        lo, hi, best = 0 if c.form == "state" else 1, search.t, model
        while lo < hi:
            mid = (lo + hi) // 2
            m = search.solve(search.rule_assumptions(c.lift, c.enable) + [_seek(c.atom, mid)])
            if m is not None:
                hi, best = mid, m
            else:
                lo = mid + 1
        return best

    def _dead_end(self, model: list[Symbol], k: int) -> Counterexample:
        atom = "check_turn_no_dead_end"
        cx = counterexample(self.book, self.pool, model, atom)
        blocked: dict[str, list[str]] = {}
        sc = position_scenario(self.pool, model)
        for a in model:
            if a.name == "_la_illegal" and a.arguments[2].number == k + 1:
                ev = a.arguments[0]
                if ev.name not in ("pass", "resolve", "advance", "activate", "expire", "draw", "declare_attackers"):
                    continue
                rid = self.book.rules[a.arguments[1].name].id if a.arguments[1].name in self.book.rules \
                    else a.arguments[1].name
                blocked.setdefault(_event_label(sc, ev), []).append(rid)
        cx.detail["forbidden"] = {e: sorted(set(r)) for e, r in sorted(blocked.items())}
        cx.detail["rules"] = sorted({r for rs in blocked.values() for r in rs})
        return cx

    def _blame_decisions(self, r: CheckResult, model: list[Symbol]) -> None:
        """For a conflict / gap: the rules that decided at the violating step."""
        cx = r.counterexample
        if cx is None:
            return
        decided = []
        names = set()
        for a in model:
            if a.name == "decides" and a.arguments[3].number == cx.at:
                where = a.arguments[2].string
                owner, stmt = self.book.owner_of(where)
                v = a.arguments[1]
                decided.append({"key": a.arguments[0].name, "value": v.string if v.type.name == "String" else str(v),
                                "where": where, "rule": owner, "statement": stmt})
                names.add(owner or where)
        if decided:
            cx.detail["decided_by"] = sorted(decided, key=lambda d: (d["key"], d["value"], d["where"]))
        cx.detail["rules"] = sorted(names)

    def _count_positions(self) -> int:
        """How many distinct start positions the pool builds (counted, not enumerated, when small)."""
        sp = SPACES[self.opts.game]
        per_card = 1
        for c in self.pool.cards:
            ctype = c.card.card_type if c.card.card_type in sp.on_field else "*"
            on = sum(len(p) for p in sp.on_field.get(ctype, {}).values())
            per_card *= (len(sp.off_field) + on) * 2
        points = len(turn(self.opts.game).points)
        return per_card * points


# ---------------------------------------------------------------- rendering


def to_text(rep: Report, rules: dict[str, Rule], verbose: bool = False) -> str:
    lines: list[str] = []
    lines.append(f"chainjudge check: {rep.game}, horizon {rep.horizon}, rulebook {rep.rulebook}")
    lines.append(f"pool ({len(rep.pool)} cards): {', '.join(rep.pool)}")
    lines.append(f"positions: every placement of the pool's cards at every point of the turn "
                 f"(~{rep.stats.get('positions', 0):.2e} positions), both rule editions and variants")
    lines.append("")
    for title, section in (("Invariants", ("invariants",)), ("Gaps and conflicts", ("gaps", "conflicts"))):
        rs = [r for r in rep.results if r.check.section in section]
        if not rs:
            continue
        lines.append(title)
        lines.append(f"  {'check':<34} {'result':<22} {'ms':>8} {'solves':>6}  lifted")
        for r in rs:
            res = {"proved": "proved (induction)", "searched": f"holds to H={r.horizon}",
                   "violated": "VIOLATED", "skipped": "skipped"}[r.status]
            lifted = ", ".join(rules[a].id if a in rules else a for a in r.lifted) or "-"
            lines.append(f"  {r.check.id:<34} {res:<22} {r.ms:8.0f} {r.solves:6d}  {lifted}")
        lines.append("")
    if rep.lemmas and rep.stats.get("induction_ms") is not None:
        proved = [r.check.id for r in rep.lemmas if r.status == "proved"]
        other = [r.check.id for r in rep.lemmas if r.status != "proved"]
        lines.append(f"Lemmas proved: {', '.join(proved) or 'none'}" + (f"; not proved: {', '.join(other)}" if other else ""))
        lines.append("")
    for r in rep.results:
        if r.status == "searched" and r.induction.get("why"):
            lines.append(f"  {r.check.id}: not proved beyond H: {r.induction['why']}")
    if any(r.status == "searched" and r.induction.get("why") for r in rep.results):
        lines.append("")
    for r in rep.results:
        if r.counterexample is None:
            continue
        lines += _cx_text(r, rules)
    if rep.equivalence is not None:
        lines += eq_text(rep.equivalence)
    if rep.corpus is not None:
        lines += corpus_text(rep.corpus, rep.coverage)
    st = rep.stats
    lines.append(f"stats: grounding {st.get('ground_ms', 0):.0f} ms, {st.get('atoms', 0)} atoms, "
                 f"{st.get('rules', 0)} rules; total {st.get('total_ms', 0):.0f} ms")
    n = rep.violations
    lines.append(f"{n} violation(s)" if n else "no violations")
    return "\n".join(lines)


def _cx_text(r: CheckResult, rules: dict[str, Rule]) -> list[str]:
    cx = r.counterexample
    assert cx is not None
    out = [f"VIOLATED {r.check.id}: {r.check.text}"]
    pos = cx.position
    out.append(f"  position: {pos['point']}, turn player {pos['turn_player']}"
               + (f", {pos['attack']}" if pos.get("attack") else "")
               + (f", date {pos['date']}" if pos.get("date") else "")
               + (f", variants {pos['variants']}" if pos.get("variants") else ""))
    for p, cards in pos["cards"].items():
        out.append(f"    {p}: " + ("; ".join(cards) if cards else "nothing outside the deck"))
    for row in cx.timeline:
        box = f" {row['box']:<2}" if "box" in row else ""
        out.append(f"    {row['t']:>2} {row['point']:<30}{box} {row['priority']:<6} {row['event']}"
                   + (f"   chain: {', '.join(row['chain'])}" if row.get("chain") else ""))
    out.append(f"  violated at point {cx.at}: {cx.detail.get('state', {})}")
    if cx.detail.get("decided_by"):
        for d in cx.detail["decided_by"]:
            out.append(f"    {d['key']} := {d['value']}  by {d['rule'] or '(no named rule)'} at {d['where']}: {d['statement']}")
    if cx.detail.get("forbidden"):
        for ev, rs in cx.detail["forbidden"].items():
            out.append(f"    {ev}: forbidden by {', '.join(rs)}")
    if cx.detail.get("reference"):
        out.append(f"  the shipped rulebook forbids this timeline by: {', '.join(cx.detail['reference'])}")
    out.append("")
    return out
