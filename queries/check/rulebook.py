"""The rulebook as the checker sees it (``chainjudge check``, queries/check/checker.py):
the checks (``encodings/checks/*.lp``), the rulebook's files and rules, the card
pool positions are built from, the incremental search over those positions, and
counterexamples with their timelines."""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from logic.errors import InputError, NotModelled
from logic.facts import (
    DateFact,
    Owner,
    StructuralRule,
    SwitchableRule,
    Variant,
    initial_state,
    static_facts,
    symbols,
)
from logic.games import turn
from logic.registry import Rule, encodings_dir, guard_name, parse_file
from logic.scenario import VARIANTS, CardInstance, Scenario, from_data
from queries.search import describe
from queries.search.engine import Position, Step, Trace
from solver import Session, sources
from solver.errors import ProgramError
from solver.instrument import decisions, lookahead, plain
from solver.terms import Function, Number, String, Symbol

DEFAULT_HORIZON = 5
DECISION_KEYS = ("priority", "proc", "box", "at")
ONE_VALUE = "core_functional_one_value"
INDUCTION_ROUNDS = 6

# ---------------------------------------------------------------- the rulebook


@dataclass(frozen=True)
class Check:
    """An invariant or lemma of encodings/checks/, with the checker's metadata."""

    id: str
    text: str
    source: str
    kind: str  # invariant | lemma
    file: str
    line: int
    games: tuple[str, ...] = ("ygo", "mtg")
    lift: tuple[str, ...] = ()  # rule atoms lifted while checking it
    enable: tuple[str, ...] = ()  # check rules switched on only for it
    form: str = "state"  # state | step | lasso | lookahead
    induction: bool = True
    section: str = "invariants"  # invariants | gaps | conflicts

    @property
    def atom(self) -> str:
        return guard_name(self.id)


def _begun(facts: list[Symbol], game: str, tp: str, key: str) -> list[Symbol]:
    """A generated start state as its point has begun: a scenario's state has the
    game procedure ``begin`` due (docs/scenarios.md, "Where a position begins"), whose consequences
    with an empty pool are only who acts and, in Yu-Gi-Oh!, box A; the
    checker's positions are free choices over every state, so it starts them
    there and keeps its horizons for the rules it checks."""
    quiet = game == "mtg" and key in ("untap", "cleanup")
    begun = {"proc": Function("advance" if quiet else "none", []),
             "priority": Function("nobody", []) if quiet else String(tp)}
    if game == "ygo":
        begun["box"] = Function("a", [])
    out = []
    for f in facts:
        if f.name == "init_val" and str(f.arguments[0]) in begun and str(f.arguments[1]) in ("begin", "nobody", "none"):
            out.append(Function("init_val", [f.arguments[0], begun[str(f.arguments[0])]]))
        else:
            out.append(f)
    return out


def parse_checks(path: Path) -> list[Check]:
    """The %@rule blocks of kind invariant / lemma in one checks file, with
    the checker's keys (%@games, %@lift, %@enable, %@form, %@induction, %@section)."""
    out: list[Check] = []
    cur: dict[str, str] = {}
    start = 0

    def close() -> None:
        if cur and cur.get("kind") in ("invariant", "lemma"):
            out.append(Check(
                id=cur["rule"], text=cur.get("text", ""), source=cur.get("source", ""), kind=cur["kind"],
                file=path.name, line=start,
                games=tuple(cur.get("games", "ygo mtg").split()),
                lift=tuple(guard_name(x) for x in re.split(r"[,\s]+", cur.get("lift", "")) if x),
                enable=tuple(guard_name(x) for x in re.split(r"[,\s]+", cur.get("enable", "")) if x),
                form=cur.get("form", "state"),
                induction=cur.get("induction", "yes") == "yes",
                section=cur.get("section", "invariants"),
            ))

    for no, raw in enumerate(sources.text(path).splitlines(), 1):
        m = re.match(r"\s*%@(\w+)\s+(.*)$", raw)
        if not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == "rule":
            close()
            cur, start = {"rule": value}, no
        elif cur:
            cur[key] = (cur.get(key, "") + " " + value).strip() if key in ("text", "source") else value
    close()
    return out


@dataclass
class Rulebook:
    """The encodings being checked: the kernel and one game's module (the
    shipped ones, or a modified copy in a directory), and the checks."""

    game: str
    root: Path
    files: list[Path]
    check_files: list[Path]
    rules: dict[str, Rule]  # by guard atom: the game's rules and the checks' own
    checks: list[Check]

    @property
    def shipped(self) -> bool:
        return self.root.resolve() == encodings_dir().resolve() and not self.user_files

    @property
    def user_files(self) -> list[Path]:
        return [f for f in self.files if not f.is_relative_to(self.root)]

    def owner_of(self, where: str) -> tuple[str | None, str]:
        """For a location "file:line", the named rule whose block the
        statement sits under (None if it is not under one) and the statement."""
        file, _, line = where.rpartition(":")
        path = self.root / file  # (an absolute path, a user's rule file, stays itself)
        if not path.exists():
            path = encodings_dir() / file
        if not path.exists():
            return None, ""
        lines = sources.text(path).splitlines()
        n = int(line) - 1
        stmt = []
        for raw in lines[n:]:
            stmt.append(raw.strip())
            if raw.split("%", 1)[0].rstrip().endswith("."):
                break
        rule = None
        i = n - 1
        # the block a statement sits under: comment lines and constraints above it,
        # up to its %@rule line (another rule, or a blank line, ends the search)
        while i >= 0 and lines[i].strip():
            raw = lines[i]
            m = re.match(r"\s*%@rule\s+(\S+)", raw)
            if m:
                rule = m.group(1)
                break
            if not raw.lstrip().startswith(("%", ":-")) and not raw[:1].isspace():
                break
            i -= 1
        return rule, " ".join(stmt)


def load_rulebook(game: str, root: Path | None = None, rule_files: Sequence[str | Path] = ()) -> Rulebook:
    """The rulebook of ``game`` from ``root`` (default: the shipped encodings).

    Raises NotModelled when the game's module has no rule files here."""
    if game not in ("ygo", "mtg"):
        raise InputError(f"--game must be ygo or mtg, not {game!r}", "--game")
    base = (root or encodings_dir()).resolve()
    if not (base / "core").is_dir():
        raise InputError("not an encodings directory (it has no core/ folder)", str(base))
    game_files = sorted((base / game).glob("*.lp"))
    if not game_files:
        name = {"ygo": "Yu-Gi-Oh!", "mtg": "Magic: The Gathering"}[game]
        raise NotModelled(f"the {name} rules are not available in this installation "
                          f"({base / game} has no rule files), so they cannot be checked")
    files = sorted((base / "core").glob("*.lp")) + game_files
    checks_dir = base / "checks" if list((base / "checks").glob("*.lp")) else encodings_dir() / "checks"
    check_files = sorted(checks_dir.glob("*.lp"))
    if root is not None:
        _read_rulebook(base, Path(root), files + check_files)
    rules: dict[str, Rule] = {}
    for f in files + check_files:
        for r in parse_file(f):
            rules[r.atom] = r
    checks = [c for f in check_files for c in parse_checks(f) if game in c.games]
    if rule_files:
        # a rules writer's own rule files (--rules): checked as for `ask`, then part of the rulebook
        from logic import userrules

        # a proposed change of the rulebook: it may change the engine (that is what is checked)
        user = userrules.load([str(p) for p in rule_files], game, vocabulary=False)
        for prog in user.programs:
            sources.remember(prog.path, prog.text)  # loaded from the checked text, never read again
        rules.update(user.rules)
        files = files + [Path(p).resolve() for p in user.paths]
    return Rulebook(game, base, files, check_files, rules, checks)


def _read_rulebook(base: Path, given: Path, files: Sequence[Path]) -> None:
    """A modified rulebook (``--encodings DIR``) is program text from outside:
    each file is read once (a regular file, at most 1 MB, UTF-8) and checked as
    a rule file's text is (solver/userrules.py: no #include, #script or
    @-call, nothing a parser cannot follow); what was checked is what is loaded."""
    from logic.scenario import read_text
    from solver.userrules import parse_checked

    for f in files:
        if not f.resolve().is_relative_to(base):
            continue  # the shipped checks, used when the copy has none
        shown = given / f.resolve().relative_to(base)  # named as the user named the folder
        text = read_text(shown, "rule file")
        try:
            parse_checked(text, str(shown), "rulebook file")
        except ProgramError as exc:
            raise InputError(exc.message, exc.where) from None
        sources.remember(f, text)


# ---------------------------------------------------------------- the pool and the positions


def pool_file(game: str) -> Path:
    return encodings_dir() / "checks" / f"pool-{game}.txt"


def read_pool(path: Path) -> list[str]:
    from logic.scenario import read_text

    text = read_text(path, "card pool")  # a regular file, at most 1 MB, UTF-8
    names = [ln.split("#", 1)[0].strip() for ln in text.splitlines()]
    names = [n for n in names if n]
    if not names:
        raise InputError("a card pool lists card names, one a line", str(path))
    return names


@dataclass
class Space:
    """Where a position built from the pool may have its cards, per game."""

    players: tuple[str, str] = ("A", "B")
    off_field: tuple[str, ...] = ()
    on_field: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)  # card type -> zone -> positions
    field_flags: dict[str, tuple[str, ...]] = field(default_factory=dict)  # card type -> flags
    capacity: dict[str, int] = field(default_factory=dict)
    attack_points: tuple[str, ...] = ()
    lp: tuple[int, ...] = ()
    dates: tuple[int, ...] = ()


SPACES = {
    "ygo": Space(
        off_field=("hand", "deck", "graveyard", "banished"),
        on_field={"monster": {"monster": ("face_up_attack", "face_up_defense", "face_down_defense")},
                  "spell": {"spell_trap": ("face_up", "face_down")},
                  "trap": {"spell_trap": ("face_up", "face_down")}},
        field_flags={"monster": ("special_summoned",), "spell": ("set_this_turn",), "trap": ("set_this_turn",)},
        capacity={"monster": 5, "spell_trap": 5},
        attack_points=("bp_attack", "bp_window", "ds_start", "ds_before", "ds_calc", "ds_after", "ds_end"),
        lp=(),  # life points are not tracked: every LP cost can be paid (see the report notes)
        dates=(20130501, 20260101),
    ),
    "mtg": Space(
        off_field=("hand", "library", "graveyard", "exile"),
        on_field={"*": {"battlefield": ("untapped", "tapped")}},
        field_flags={"*": ("summoning_sick",)},
        lp=(20, 3),
        dates=(20260101,),
    ),
}


@dataclass
class Pool:
    game: str
    names: list[str]
    scenario: Scenario  # every card once, in the hand of the first player (ids = names)

    @property
    def cards(self) -> list[CardInstance]:
        return self.scenario.cards


def make_pool(game: str, names: Sequence[str], where: str = "pool") -> Pool:
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    data: dict[str, Any] = {
        "game": game, "players": ["A", "B"], ("turn_player" if game == "ygo" else "active_player"): "A",
        "phase": "main1", "cards": [{"card": n, "controller": "A", "zone": "hand", "id": n} for n in seen],
    }
    sc = from_data(data, where)
    # ids are the cards' official names (an alias in the pool file resolves to the name)
    cards = [CardInstance(c.card.name, c.card, c.controller, c.owner, c.zone, c.position, c.flags) for c in sc.cards]
    data["cards"] = [{"card": c.card.name, "controller": "A", "zone": "hand", "id": c.card.name} for c in cards]
    sc = from_data(data, where)
    return Pool(game, [c.id for c in sc.cards], sc)


def _f(name: str, *args: Any) -> Symbol:
    return Function(name, [a if isinstance(a, Symbol) else (Number(a) if isinstance(a, int) else Function(a, []))
                           for a in args])


def pool_facts(book: Rulebook, pool: Pool) -> list[Symbol]:
    """Static facts of the pool's cards, the rule switches, and the options
    of checks/positions.lp."""
    game = book.game
    space = SPACES[game]
    sc = pool.scenario
    keep = [f for f in static_facts(sc) if not isinstance(f, Owner | DateFact | Variant | StructuralRule | SwitchableRule)]
    out: list[Symbol] = symbols(keep)
    for atom in sorted(book.rules):
        out.append(_f("switchable_rule", atom))
    for c in book.checks:
        out.append(_f("invariant", c.atom))
    tt = turn(game)
    for inst in pool.cards:
        cid = String(inst.id)
        out.append(Function("pool_card", [cid]))
        for z in space.off_field:
            out.append(_f("place_option", cid, z, "none"))
        ctype = inst.card.card_type if inst.card.card_type in space.on_field else "*"
        for z, positions in space.on_field.get(ctype, {}).items():
            for p in positions:
                out.append(_f("place_option", cid, z, p))
        for flag in space.field_flags.get(ctype, ()):
            out.append(_f("flag_option", cid, Function(flag, [cid])))
    for z, n in space.capacity.items():
        out.append(_f("zone_capacity", z, n))
    tp = sc.turn_player
    if game == "ygo":
        out.append(_f("init_option", Function("normal_summoned", [String(tp)])))
        monsters = [c.id for c in pool.cards if c.card.card_type == "monster"]
        for a in monsters:
            out.append(_f("attack_option", String(a), "direct"))
            for x in monsters:
                if x != a:
                    out.append(_f("attack_option", String(a), String(x)))
        out.append(_f("attack_stands_zone", "monster", "face_up_attack"))
        out.append(_f("attack_target_zone", "monster"))
    for lp in space.lp:
        out.append(_f("lp_option", lp))
    for d in space.dates:
        out.append(_f("date_option", d))
    for key, values in VARIANTS.items():
        if any(f"variant({key}" in sources.text(p) for p in book.files):
            for v in values:
                out.append(_f("variant_option", key, v))
    # the start points: every point a scenario may be at, as it begins
    keys: set[str] = set()
    for p in tt.points:
        if p.key in space.attack_points and not space.attack_points:
            continue
        out.append(_f("start_option", p.key))
        if p.key in space.attack_points:
            out.append(_f("needs_attack", p.key))
        start = Scenario(game=game, players=list(sc.players), turn_player=tp, point=p.key, cards=[],
                         date=sc.date, life=dict(sc.life))
        for fact in _begun(symbols(initial_state(start)), game, tp, p.key):
            if fact.name == "init":
                out.append(Function("start_fluent", [Function(p.key, []), fact.arguments[0]]))
            else:
                k, v = fact.arguments
                if k.name in ("lp", "attack"):
                    continue
                keys.add(str(k))
                out.append(Function("start_value", [Function(p.key, []), k, v]))
    # the checks' own facts
    order = {p.key: tt.order(p.key) for p in tt.points} | {"turn_end": tt.order("turn_end")}
    edges = set(tt.graph.edges)
    for a in order:
        for b in order:
            if a != b and (order[b] > order[a] or (a, b) in edges):
                out.append(_f("forward", a, b))
    n_eff = sum(1 for c in pool.cards for e in c.card.effects if e.kind != "continuous")
    for m in range(1, max(n_eff, 1) + 1):
        out.append(_f("chain_place", m))
    for k in sorted(keys):
        out.append(Function("functional_key", [Function(k, [])]))
    for inst in pool.cards:
        for k in ("zone", "ctrl", "pos"):
            out.append(Function("functional_key", [Function(k, [String(inst.id)])]))
    if space.lp:
        for p in sc.players:
            out.append(Function("functional_key", [Function("lp", [String(p)])]))
    if game == "ygo":
        out.append(Function("functional_key", [Function("attack", [])]))
    return out


# ---------------------------------------------------------------- results


@dataclass
class Counterexample:
    """A legal trace that violates a check: the position, the timeline, what
    went wrong where, and the rules involved."""

    position: dict[str, Any]
    timeline: list[dict[str, Any]]
    at: int
    detail: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"position": self.position, "timeline": self.timeline, "violated_at": self.at, **self.detail}


@dataclass
class CheckResult:
    check: Check
    status: str  # proved | searched | violated | skipped
    horizon: int
    lifted: list[str] = field(default_factory=list)
    ms: float = 0.0
    solves: int = 0
    counterexample: Counterexample | None = None
    base_ok: bool | None = None
    induction: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def as_json(self, rules: dict[str, Rule]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.check.id, "text": self.check.text, "source": self.check.source,
            "status": self.status, "searched_to": self.horizon,
            "lifted": [rules[a].id if a in rules else a for a in self.lifted],
            "ms": round(self.ms, 1), "solves": self.solves,
        }
        if self.induction:
            out["induction"] = self.induction
        if self.note:
            out["note"] = self.note
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample.as_json()
        return out


@dataclass
class Report:
    game: str
    horizon: int
    rulebook: str
    pool: list[str]
    results: list[CheckResult] = field(default_factory=list)
    lemmas: list[CheckResult] = field(default_factory=list)
    equivalence: dict[str, Any] | None = None
    corpus: dict[str, Any] | None = None
    coverage: dict[str, Any] | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def violations(self) -> int:
        n = sum(1 for r in self.results if r.status == "violated")
        if self.equivalence and self.equivalence.get("status") == "error":
            n += 1
        if self.corpus:
            n += int(self.corpus.get("failed", 0))
        return n

    def as_json(self, rules: dict[str, Rule]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "horizon": self.horizon, "rulebook": self.rulebook, "pool": self.pool,
            "invariants": [r.as_json(rules) for r in self.results if r.check.section == "invariants"],
            "gaps_and_conflicts": [r.as_json(rules) for r in self.results if r.check.section != "invariants"],
            "lemmas": [r.as_json(rules) for r in self.lemmas],
            "equivalence": self.equivalence,
            "violations": self.violations,
            "stats": self.stats,
        }
        if self.corpus is not None:
            out["corpus"] = self.corpus
        if self.coverage is not None:
            out["coverage"] = self.coverage
        if self.notes:
            out["notes"] = self.notes
        return out


# ---------------------------------------------------------------- the bounded search


class Search:
    """One grounding of the rulebook over every position built from the pool,
    step by step up to the horizon; every check is a solve under assumptions."""

    def __init__(self, book: Rulebook, pool: Pool, time_limit: float | None = None) -> None:
        self.book = book
        self.pool = pool
        self.session = Session(time_limit=time_limit)
        self.session.add_statements(plain(book.files + book.check_files))
        self.session.add_statements(decisions(book.files, DECISION_KEYS, roots=[book.root]))
        self.la = lookahead(book.files, exclude=[ONE_VALUE])
        self.session.add_statements(self.la.statements)
        self.session.add_facts(pool_facts(book, pool))
        self.enable_only = {a for c in book.checks for a in c.enable}
        self.t = 0
        self.grounded = 0
        self.ground_ms = 0.0
        start = time.perf_counter()
        self.session.ground([("base", []), ("positions", []), ("state", [Number(0)]), ("check", [Number(0)])])
        self.ground_ms += (time.perf_counter() - start) * 1000

    def ground_lookahead(self) -> None:
        """The look-ahead layer at the step grounded ahead (self.t + 1)."""
        start = time.perf_counter()
        self.session.ground([("lookahead", [Number(self.t + 1)])])
        self.ground_ms += (time.perf_counter() - start) * 1000

    def advance(self) -> None:
        """Ground step self.t + 1 ahead; it takes part in traces once self.t is raised to it."""
        start = time.perf_counter()
        self.grounded = self.t + 1
        t = Number(self.t + 1)
        self.session.ground([("step", [t]), ("state", [t]), ("check", [t])])
        self.ground_ms += (time.perf_counter() - start) * 1000

    def rule_assumptions(self, lifted: Iterable[str] = (), enabled: Iterable[str] = ()) -> list[tuple[Symbol, bool]]:
        off = set(lifted)
        on = set(enabled)
        return [(Function("rule", [Function(a, [])]), a not in off and (a not in self.enable_only or a in on))
                for a in sorted(self.book.rules)]

    def active(self) -> list[tuple[Symbol, bool]]:
        """Every grounded step takes part in the trace (core/time.lp: active/1)."""
        return [(Function("active", [Number(u)]), u <= self.t) for u in range(1, self.grounded + 1)]

    def solve(self, assumptions: list[tuple[Symbol, bool]]) -> list[Symbol] | None:
        out = self.session.solve(self.active() + assumptions, models=1)
        return out.models[0] if out.satisfiable else None


def _seek(atom: str, h: int) -> tuple[Symbol, bool]:
    return (Function("seek", [Function(atom, []), Number(h)]), True)


def _fluent_of(sym: Symbol) -> Symbol:
    return sym


def _states(model: Sequence[Symbol]) -> dict[int, set[Symbol]]:
    states: dict[int, set[Symbol]] = {}
    for a in model:
        if a.name == "holds":
            states.setdefault(a.arguments[1].number, set()).add(a.arguments[0])
    return states


def trace_of(model: Sequence[Symbol], upto: int) -> Trace:
    states = _states(model)
    events: dict[int, Symbol] = {}
    resolved: dict[int, list[Symbol]] = {}
    fired: dict[int, list[str]] = {}
    for a in model:
        if a.name == "occurs":
            events[a.arguments[1].number] = a.arguments[0]
        elif a.name == "resolved":
            resolved.setdefault(a.arguments[3].number, []).append(a)
        elif a.name == "fired":
            fired.setdefault(a.arguments[1].number, []).append(a.arguments[0].name)
    steps = [Step(t, events[t], Position(frozenset(states.get(t - 1, set()))), Position(frozenset(states.get(t, set()))),
                  resolved.get(t, []), sorted(fired.get(t, [])))
             for t in sorted(events) if t <= upto and events[t].name != "idle"]
    return Trace(steps, Position(frozenset(states.get(upto, set()))))


def position_scenario(pool: Pool, model: Sequence[Symbol]) -> Scenario:
    """The start position a model chose, as a scenario (for the describe functions)."""
    s0 = Position(frozenset(_states(model).get(0, set())))
    at = s0.value("at")
    insts = []
    for c in pool.cards:
        zone = s0.value(f'zone("{c.id}")') or _value(s0, "zone", c.id)
        ctrl = _value(s0, "ctrl", c.id)
        pos = _value(s0, "pos", c.id)
        owner = next((a.arguments[1].string for a in model if a.name == "owner" and a.arguments[0].string == c.id),
                     ctrl.string if ctrl is not None and ctrl.type.name == "String" else "A")
        insts.append(CardInstance(c.id, c.card, ctrl.string if ctrl is not None and ctrl.type.name == "String" else owner,
                                  owner, zone.name if zone is not None else "deck",
                                  pos.name if pos is not None and pos.name != "none" else None))
    sc = pool.scenario
    return Scenario(game=sc.game, players=list(sc.players), turn_player=sc.turn_player,
                    point=at.name if at is not None else sc.point, cards=insts, date=sc.date, life=dict(sc.life),
                    library=sc.library, path="<generated position>")


def _value(pos: Position, key: str, cid: str) -> Symbol | None:
    for k, v in pos.values(key):
        if k.arguments and k.arguments[0].type.name == "String" and k.arguments[0].string == cid:
            return v
    return None


def describe_position(pool: Pool, model: Sequence[Symbol]) -> dict[str, Any]:
    sc = position_scenario(pool, model)
    s0 = Position(frozenset(_states(model).get(0, set())))
    tt = turn(sc.game)
    cards: dict[str, list[str]] = {p: [] for p in sc.players}
    for c in sc.cards:
        if c.zone in ("deck", "library"):
            continue
        where = c.zone + (f" ({c.position})" if c.position else "")
        if c.controller != c.owner:
            where += f", owned by {c.owner}"
        flags = [f.name for f in s0.fluents if f.arguments and f.arguments[0].type.name == "String"
                 and f.arguments[0].string == c.id and f.name != "val"]
        if flags:
            where += ", " + ", ".join(sorted(flags))
        cards[c.controller].append(f"{c.id}: {where}")
    out: dict[str, Any] = {"point": tt.public_name(sc.point), "turn_player": sc.turn_player, "cards": cards}
    attack = s0.value("attack")
    if attack is not None and attack.name == "att":
        a, x = attack.arguments
        out["attack"] = f"{a.string} attacks " + (x.string if x.type.name == "String" else "directly")
    for a in model:
        if a.name == "date":
            d = a.arguments[0].number
            out["date"] = f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d}"
        elif a.name == "variant":
            out.setdefault("variants", {})[a.arguments[0].name] = a.arguments[1].name
    lps = {k.arguments[0].string: v.number for k, v in s0.values("lp")}
    if lps:
        out["life"] = lps
    for f in s0.fluents:
        if f.name in ("normal_summoned",) and f.arguments:
            out.setdefault("flags", []).append(f"{f.arguments[0].string} has Normal Summoned this turn")
    return out


def counterexample(book: Rulebook, pool: Pool, model: Sequence[Symbol], atom: str, at: int | None = None) -> Counterexample:
    if at is None:
        at = min(a.arguments[1].number for a in model if a.name == "violation" and a.arguments[0].name == atom)
    sc = position_scenario(pool, model)
    trace = trace_of(model, at)
    rows = describe.timeline(sc, trace)
    cx = Counterexample(describe_position(pool, model), rows, at)
    states = _states(model)
    s_at = Position(frozenset(states.get(at, set())))
    cx.detail["state"] = _state_summary(sc, s_at)
    return cx


def _state_summary(sc: Scenario, pos: Position) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("at", "box", "priority", "proc", "chain_len"):
        vals = [v for k, v in pos.values(key)] if False else [f.arguments[1] for f in pos.fluents
                                                               if f.name == "val" and f.arguments[0].name == key
                                                               and not f.arguments[0].arguments]
        if vals:
            shown = [v.string if v.type.name == "String" else str(v) for v in vals]
            out[key] = shown[0] if len(shown) == 1 else shown
    chain = describe.chain_list(sc, pos)
    if len(chain) > 8:  # a free state of the induction step may hold many links at one place
        chain = chain[:8] + [f"... ({len(chain)} links in all)"]
    if chain:
        out["chain"] = chain
    return out


# ---------------------------------------------------------------- the checker


def _event_label(sc: Scenario, ev: Symbol) -> str:
    step = Step(0, ev, Position(frozenset()), Position(frozenset()))
    try:
        return describe.event_text(sc, step)
    except Exception:  # noqa: BLE001 - a label only
        return str(ev)


# ---------------------------------------------------------------- rendering


