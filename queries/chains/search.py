"""Every legal chain from a position: counted, listed, grouped by outcome, drawn.

A *chain* is the sequence of links from the first activation until the chain
has fully resolved.  The engine searches the traces of the position in the
scope ``q_scope(one_chain)`` (encodings/core/query.lp): a trace is over once
its chain has resolved, or -- if nobody starts a chain -- as soon as anything
but a pass happens (play moves on).  Such a trace is *the empty chain*: it is
one chain (with no links), legal whenever play can move on without a chain.
The traces are projected onto their links (encodings/core/chains.lp), so that
traces which differ only in passes, or in which of two identical copies of a
card was used, are one chain (unless ``distinct_copies``).

Counting never reads a model: the non-empty chains are counted inside the
solver, with the traces cut where the chain starts resolving (resolving a
Yu-Gi-Oh! chain is deterministic), and the empty chain is one more check.
Listing streams the chains as the solver finds them, each with its outcome.
See docs/chains.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from logic.errors import InputError, NotModelled
from logic.facts import state_facts
from logic.registry import lp_files
from queries.chains.states import Explorer
from queries.search import describe
from queries.search.engine import Engine, Position
from solver import LimitReached, Session
from solver.terms import Function, Number, String, Symbol, symbol_of_id

if TYPE_CHECKING:
    import networkx as nx

# A SEGOC has four groups (turn player's / opponent's, mandatory / optional),
# each closed by a pass at most.
SEGOC_GROUPS = 4
# seconds for one check that a horizon is enough (before using the bound)
CHECK_BUDGET = 0.5

_NONE = Function("none", [])


def _c(name: str) -> Symbol:
    return Function(name, [])


def _s(sym: Symbol) -> str:
    return sym.string if sym.type.name == "String" else str(sym)


@dataclass(frozen=True)
class Link:
    """One link: the N-th, activated by ``player``: ``effect`` (its label)
    with ``target`` (a label) or none."""

    n: int
    player: str
    effect: str
    target: str | None = None
    card_ref: str = field(default="", compare=False)  # the card id representing the copies
    card: str = field(default="", compare=False)  # the card's label (``effect`` names the effect)

    def text(self) -> str:
        return f"{self.player}: {self.effect}" + (f" -> {self.target}" if self.target else "")

    def as_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"link": self.n, "player": self.player, "card": self.card or self.effect}
        if self.card and self.card != self.effect:
            d["effect"] = self.effect
        if self.target:
            d["target"] = self.target
        return d


@dataclass(frozen=True)
class Chain:
    links: tuple[Link, ...]
    outcome: tuple[str, ...] = ()
    resolved: bool = True  # False: listed without resolving it (no outcome)

    @property
    def labels(self) -> list[str]:
        """The answer of docs/questions.md: the cards of the links, first link first."""
        return [lk.card or lk.effect for lk in self.links]

    @property
    def resolution(self) -> list[str]:
        """The order the links resolve in (Yu-Gi-Oh!: last link first)."""
        return [lk.card or lk.effect for lk in reversed(self.links)]

    @property
    def key(self) -> tuple[tuple[str, str, str | None], ...]:
        return tuple((lk.player, lk.effect, lk.target) for lk in self.links)

    def text(self) -> str:
        if not self.links:
            return "(no chain: play moves on)"
        return "  ".join(f"{lk.n}. {lk.text()}" for lk in self.links)

    def as_json(self) -> dict[str, Any]:
        return {
            "chain": self.labels,
            "links": [lk.as_json() for lk in self.links],
            "resolution": self.resolution,
            "outcome": list(self.outcome) if self.resolved else None,
        }


@dataclass
class CountResult:
    count: int
    empty: bool  # the empty chain is among them
    horizon: int
    projected: bool
    stats: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------- identical copies


def _swap(sym: Symbol, a: Symbol, b: Symbol) -> Symbol:
    if sym == a:
        return b
    if sym == b:
        return a
    if sym.type.name == "Function" and sym.arguments:
        return Function(sym.name, [_swap(x, a, b) for x in sym.arguments], sym.positive)
    return sym


def copy_classes(engine: Engine, position: Position) -> dict[str, str]:
    """Card id -> the id that represents its class of identical copies: the
    same card, owner and state, so that swapping the two leaves the position
    (and the chain so far) unchanged."""
    sc = engine.sc
    players = set(sc.players)
    rep: dict[str, str] = {c.id: c.id for c in sc.cards}
    by_kind: dict[tuple[str, str], list[str]] = {}
    for c in sc.cards:
        if c.id in players:
            continue  # a card named like a player: never merged
        by_kind.setdefault((c.card.name, c.owner), []).append(c.id)
    fluents = position.fluents
    for ids in by_kind.values():
        for i, a in enumerate(ids):
            if rep[a] != a:
                continue
            for b in ids[i + 1:]:
                if rep[b] != b or sc.instance(b).card != sc.instance(a).card:
                    continue
                sa, sb = String(a), String(b)
                if frozenset(_swap(f, sa, sb) for f in fluents) == fluents:
                    rep[b] = a
    return rep


# ---------------------------------------------------------------- the search


class ChainSearch:
    """Every legal chain from one position."""

    def __init__(self, engine: Engine, position: Position, *, max_links: int | None = None,
                 distinct_copies: bool = False, verify: bool = False, method: str = "states") -> None:
        if engine.sc.game != "ygo":
            raise NotModelled("chain enumeration for Magic: The Gathering (the stack resolves one object "
                              "at a time; only Yu-Gi-Oh! chains are enumerated)")
        if max_links is not None and max_links < 0:
            raise InputError("--max-links must be 0 or more", "--max-links")
        self.engine = engine
        self.sc = engine.sc
        self.position = position
        self.max_links = max_links
        self.distinct_copies = distinct_copies
        self.verify = verify
        if method not in ("states", "traces"):
            raise ValueError(method)
        # "states": counting and listing the links by the graph of states
        # (queries/chainstates.py); "traces": by the traces of a horizon
        # (always used for listing with outcomes).  A user's rule file may
        # read older points or the order of the links, which the search by
        # states assumes no rule does: with one, the search is by traces.
        self.method = "traces" if engine.user_programs else method
        self._graph: Any = None
        self._existing_links = _number(position.value("chain_len"))
        segoc = position.value("segoc")
        self._in_segoc = segoc is not None and segoc.name != "none"
        self._box = position.value("box")
        self._avail: int | None = None
        self._rule_list = [(Function("rule", [_c(a)]), True) for a in engine.switchable]
        self.rep = {c.id: c.id for c in self.sc.cards} if distinct_copies else copy_classes(engine, position)
        self.stats: dict[str, Any] = {"ground_ms": 0.0, "solve_ms": 0.0, "atoms": 0, "rules": 0, "horizon": 0}
        self._decode_cache: dict[Symbol, Any] = {}
        self._link_cache: dict[int, Link] = {}
        self._known_windows: tuple[bool, bool] | None = None

    # ------------------------------------------------------------ facts
    def class_facts(self) -> list[Symbol]:
        """q_member(K,I,C): card C is the I-th of the identical copies K
        (encodings/core/chains.lp)."""
        members: dict[str, list[str]] = {}
        for c in self.sc.cards:
            members.setdefault(self.rep[c.id], []).append(c.id)
        out: list[Symbol] = []
        for k, ms in members.items():
            for i, m in enumerate(sorted(ms)):
                out.append(Function("q_member", [String(k), Number(i), String(m)]))
        return out

    def _existing(self) -> int:
        return self._existing_links

    def _available(self) -> int:
        """Effects that may still be activated (each at most once in a chain)."""
        if self._avail is not None:
            return self._avail
        used = {f.arguments[0] for f in self.position.has("used")}
        effs = {Function("eff", [String(c.id), Number(e.index)])
                for c in self.sc.cards for e in c.card.effects if e.kind != "continuous"}
        n = len(effs - used)
        if self.max_links is not None:
            n = min(n, max(0, self.max_links - self._existing()))
        self._avail = n
        return n

    def _segoc(self) -> bool:
        return self._in_segoc

    def _pre(self) -> int:
        """The most steps before the first link (or before play moves on):
        the passes the chart allows with no chain (FET chart: B, C, A, E0, E),
        after the passes that decline a SEGOC's optional groups."""
        if self._existing() > 0:
            return 0
        box = self._box
        steps = {"a": 3, "b": 5, "c": 4, "e0": 2, "e": 1}.get(box.name if box is not None else "", 5)
        if self._segoc():
            # mandatory triggers go on the chain first: no pass before them;
            # otherwise each optional group (one per player) may be declined
            pending = [f.arguments[0] for f in self.position.has("pending")]
            mandatory = {e for e in pending if self._mandatory(e)}
            steps = 0 if mandatory else 2 + 5
        return steps + 1

    def _mandatory(self, eff: Symbol) -> bool:
        try:
            inst = self.sc.instance(_s(eff.arguments[0]))
        except KeyError:
            return False
        return any(e.index == eff.arguments[1].number and e.mandatory for e in inst.card.effects)

    def horizon(self, full: bool, links: int | None = None) -> int:
        """Steps enough for every trace whose chain gets at most ``links``
        new links (default: as many as there are effects left, which bounds
        every trace): before the first link, each link and the passes that
        may precede it, the passes that close the chain, and, with
        ``full``, its resolution."""
        n = len(self.sc.players)
        new = self._available() if links is None else min(links, self._available())
        h = self._pre() + n * new + n + (SEGOC_GROUPS if self._segoc() else 0) + 1
        if full:
            h += self._existing() + new
        return h

    def _facts(self, full: bool) -> list[Symbol]:
        out = [Function("q_scope", [_c("one_chain")]), Function("q_quiet_after", [Number(self._pre())])]
        if not full:
            out.append(Function("q_cut", [_c("built")]))
        if self.max_links is not None:
            out.append(Function("q_max_links", [Number(self.max_links)]))
        return out + self.class_facts()

    def position_facts(self) -> list[Symbol]:
        return state_facts(self.position.fluents)

    def dp_facts(self) -> list[Symbol]:
        """The facts of the search by states (queries/chainstates.py): one
        chain, cut where it starts resolving; no horizon."""
        out = [Function("q_scope", [_c("one_chain")]), Function("q_cut", [_c("built")]), _c("q_dp_start")]
        if self.max_links is not None:
            out.append(Function("q_max_links", [Number(self.max_links)]))
        return out + self.class_facts()

    # ------------------------------------------------------------ sessions
    def _ground_to(self, s: Session, t0: int, h: int, base: bool = False) -> None:
        parts: list[tuple[str, Sequence[Symbol | int]]] = [("base", []), ("state", [0])] if base else []
        for t in range(t0 + 1, h + 1):
            parts += [("step", [t]), ("state", [t])]
        if parts:
            s.ground(parts)
            # every step ground takes part in the trace (core/time.lp: active/1)
            for t in range(t0 + 1, h + 1):
                s.assign_external(Function("active", [Number(t)]), True)

    def _rules(self) -> list[tuple[Symbol, bool]]:
        return []  # the rule switches are the session's standing assumptions

    def _absorb(self, s: Session) -> None:
        atoms, rules = s.size()
        self.stats["ground_ms"] += s.stats.ground_ms
        self.stats["solve_ms"] += s.stats.solve_ms
        self.stats["atoms"] = max(self.stats["atoms"], atoms)
        self.stats["rules"] = max(self.stats["rules"], rules)
        self.engine.stats["ground_ms"] += s.stats.ground_ms
        self.engine.stats["solve_ms"] += s.stats.solve_ms
        self.engine.stats["models"] += s.stats.models
        self.engine.stats["solves"] += s.stats.solves
        self.engine.stats["atoms"] = max(self.engine.stats["atoms"], atoms)
        self.engine.stats["rules"] = max(self.engine.stats["rules"], rules)

    def _ready(self, full: bool) -> tuple[Session, int]:
        """A session grounded to a horizon that every trace fits in.

        The bound ``horizon(full)`` always suffices.  Most positions' chains
        are much shorter than it, so the horizon is first tried for chains of
        1, 2, 4, ... new links: it suffices once no trace is still going on
        there (a cheap check while there are few traces; given up for the
        bound after CHECK_BUDGET seconds)."""
        fixed: int | None = None
        if full:
            # The chains are built within the horizon of the cut search (each link
            # is a step), and a chain of L links resolves within L steps (as in
            # ``horizon``): ground the resolved search straight to that horizon,
            # in one call, instead of trying horizons (a search with resolution
            # is much larger, and so is each check).
            cut, h_cut = self._ready(full=False)
            try:
                self._known_windows = self._windows(cut, h_cut)  # the same with resolution
            finally:
                self._absorb(cut)
            del cut
            new = min(self._available(), h_cut)
            fixed = min(self.horizon(True), h_cut + self._existing() + new)
        s = Session(time_limit=self.engine.remaining(), requested_time=self.engine.time_limit)
        for f in lp_files(self.sc.game):
            if f.name != "show.lp":  # only the chain's atoms are shown
                s.load(f)
        for prog in self.engine.user_programs:  # checked user rule files (--rules)
            s.add_statements(prog.statements, prog.path)
        s.add_facts(self.engine.static + state_facts(self.position.fluents) + self._facts(full))
        s.set_heuristic("Domain")
        bound = self.horizon(full)
        t, h = 0, 0
        first = True
        if fixed is not None:
            bound = fixed
        while True:
            h = bound if fixed is not None else min(bound, max(h + 4, h * 3 // 2, len(self.sc.players) + 2))
            # one ground call for as many steps as possible: each call costs far more than a step
            self._ground_to(s, t, h, base=first)
            if first:
                s.set_standing(self._rule_list)
                first = False
            t = h
            if h >= bound:
                # the bound suffices by construction; verifying it costs a full search
                if self.verify and s.solve(self._rules() + [(_done(h), False)], models=1).satisfiable:
                    self._absorb(s)
                    raise LimitReached("horizon", h, "a trace of the chain did not end within the search bound")
                break
            try:
                alive = s.solve(self._rules() + [(_done(h), False)], models=1, budget=CHECK_BUDGET).satisfiable
            except LimitReached as exc:
                if exc.which != "budget":
                    raise
                alive = True  # too many traces to tell quickly: use the bound
            if not alive:
                break
        s.ground([("chains", [h])])
        self.stats["horizon"] = max(self.stats["horizon"], h)
        return s, h

    def _windows(self, s: Session, h: int) -> tuple[bool, bool]:
        """(the empty chain is legal, some player has two chances to start a
        chain before the first link: traces must then be projected)."""
        if self._existing() > 0:
            return False, False  # the chain has begun: no window before its first link
        if self._known_windows is not None:
            return self._known_windows
        empty = s.solve(self._rules() + [(_done(h), True), (_LINKED, False)], models=1).satisfiable
        repeated = s.solve(self._rules() + [(_REPEAT, True)], models=1).satisfiable
        return empty, repeated

    def _project(self, repeated: bool) -> bool:
        # identical copies are taken care of in the search (query.chains.copies_in_order)
        return repeated

    def _nonempty(self, h: int) -> list[tuple[Symbol, bool]]:
        return self._rules() + [(_done(h), True), (_LINKED, True)]

    # ------------------------------------------------------------ by states
    def state_graph(self) -> Any:
        """The graph of the chain's states (queries/chainstates.py), explored once."""
        if self._graph is None:
            ex = Explorer(self)
            try:
                self._graph = ex.explore()
            finally:
                s = ex.session
                self.stats["ground_ms"] += s.stats.ground_ms
                self.stats["solve_ms"] += s.stats.solve_ms
                atoms, rules = s.size()
                self.stats["atoms"] = max(self.stats["atoms"], atoms)
                self.stats["rules"] = max(self.stats["rules"], rules)
                self.stats.update({k: v for k, v in ex.stats.items()})
                self.engine.stats["ground_ms"] += s.stats.ground_ms
                self.engine.stats["solve_ms"] += s.stats.solve_ms
                self.engine.stats["models"] += s.stats.models
                self.engine.stats["solves"] += s.stats.solves
        return self._graph

    def _count_by_states(self) -> CountResult:
        started = time.perf_counter()
        g = self.state_graph()
        t0 = time.perf_counter()
        n = g.count()
        count_ms = (time.perf_counter() - t0) * 1000
        empty = self._existing() == 0 and g.empty_chain()
        stats = dict(self.stats)
        stats["count_ms"] = round(count_ms, 1)
        stats["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return CountResult(n + int(empty), empty, 0, False, stats)

    def _chains_by_states(self, limit: int | None) -> Iterator[Chain]:
        g = self.state_graph()
        produced = 0
        if self._existing() == 0 and g.empty_chain():
            produced += 1
            yield Chain((), resolved=False)
        if limit is not None and produced >= limit:
            return
        existing = [self._decode_atom(Function("q_link", list(f.arguments)))
                    for f in sorted(self.position.has("link"), key=lambda f: f.arguments[0].number)]
        base = tuple(lk for lk in existing if isinstance(lk, Link))
        link_of = self._link_of
        for seq in g.chains():
            yield Chain(base + tuple(link_of(f) for f in seq), resolved=False)
            produced += 1
            if limit is not None and produced >= limit:
                return

    def _link_of(self, fid: int) -> Link:
        """The link whose link(N,E,P,X) fluent has the symbol id ``fid``."""
        got = self._link_cache.get(fid)
        if got is None:
            f = symbol_of_id(fid)
            decoded = self._decode_atom(Function("q_link", list(f.arguments)))
            assert isinstance(decoded, Link)
            got = self._link_cache[fid] = decoded
        return got

    # ------------------------------------------------------------ counting
    def count(self) -> CountResult:
        if self.method == "states":
            return self._count_by_states()
        started = time.perf_counter()
        s, h = self._ready(full=False)
        try:
            empty, repeated = self._windows(s, h)
            project = self._project(repeated)
            t0 = time.perf_counter()
            n = s.count(self._nonempty(h), project=project)
            count_ms = (time.perf_counter() - t0) * 1000
        finally:
            self._absorb(s)
        stats = dict(self.stats)
        stats["count_ms"] = round(count_ms, 1)
        stats["total_ms"] = round((time.perf_counter() - started) * 1000, 1)
        return CountResult(n + int(empty), empty, h, project, stats)

    # ------------------------------------------------------------ listing
    def chains(self, limit: int | None = None, outcomes: bool = True) -> Iterator[Chain]:
        """Stream every legal chain (the empty chain first, if legal); without
        ``outcomes`` the chains are not resolved (by states, unless the
        search is by traces)."""
        if not outcomes and self.method == "states":
            yield from self._chains_by_states(limit)
            return
        s, h = self._ready(full=outcomes)
        try:
            empty, repeated = self._windows(s, h)
            produced = 0
            if empty:
                produced += 1
                yield Chain((), resolved=outcomes)
            if limit is not None and produced >= limit:
                return
            for syms in s.iter_models(self._nonempty(h), project=self._project(repeated)):
                c = self._decode(syms)
                yield c if outcomes else Chain(c.links, (), resolved=False)
                produced += 1
                if limit is not None and produced >= limit:
                    return
        finally:
            self._absorb(s)

    def _decode(self, syms: Sequence[Symbol]) -> Chain:
        links: list[Link] = []
        out: list[str] = []
        cache = self._decode_cache
        for a in syms:
            got = cache.get(a)
            if got is None:
                got = self._decode_atom(a)
                cache[a] = got
            if isinstance(got, Link):
                links.append(got)
            elif isinstance(got, str):
                out.append(got)
        links.sort(key=lambda lk: lk.n)
        return Chain(tuple(links), tuple(sorted(out)))

    def _decode_atom(self, a: Symbol) -> Link | str | bool:
        if a.name == "q_link":
            n, e, p, x = a.arguments
            return Link(n.number, _s(p), self.effect_label(e), None if x == _NONE else self.card_label(x),
                        card_ref=_s(e.arguments[0]), card=self.card_label(e.arguments[0]))
        if a.name == "q_out":
            return self.outcome_text(a.arguments[0])
        return False

    # ------------------------------------------------------------ labels
    def card_label(self, sym: Symbol) -> str:
        return _s(sym)

    def effect_label(self, eff: Symbol) -> str:
        cid = _s(eff.arguments[0])
        try:
            inst = self.sc.instance(cid)
        except KeyError:
            return cid
        if sum(1 for e in inst.card.effects if e.kind != "continuous") > 1:
            return f"{cid} (effect {eff.arguments[1].number})"
        return cid

    def outcome_text(self, o: Symbol) -> str:
        k = o.name
        args = o.arguments
        if k == "negated":
            return f"{self.effect_label(args[0])} negated"
        if k in _CARD_OUTCOMES:
            return self.card_label(args[0]) + _CARD_OUTCOMES[k]
        if k == "control":
            return f"{_s(args[1])} takes control of {self.card_label(args[0])}"
        if k == "lp":
            return f"{_s(args[0])} at {args[1].number} LP"
        return str(o)


# what happened to a card (ygo/chains.lp, q_out_at/2), after the card's name
_CARD_OUTCOMES = {"destroyed": " destroyed", "banished": " banished", "summoned": " Special Summoned",
                  "effects_negated": "'s effects negated"}


def _number(sym: Symbol | None) -> int:
    return sym.number if sym is not None else 0


def _done(h: int) -> Symbol:
    return Function("done", [Number(h)])


_LINKED = Function("q_linked", [])
_REPEAT = Function("q_windows_repeat", [])


# ---------------------------------------------------------------- grouping and the tree


def group_by_outcome(chains: Sequence[Chain]) -> list[tuple[tuple[str, ...], list[Chain]]]:
    """The chains grouped by what they did, the largest group first."""
    groups: dict[tuple[str, ...], list[Chain]] = {}
    for c in chains:
        groups.setdefault(c.outcome, []).append(c)
    return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))


def chain_tree(chains: Sequence[Chain], root_label: str = "position") -> nx.DiGraph:
    """The tree of chain prefixes: a node per chain so far (the root is the
    chain at the position), an edge per activation; complete chains carry
    their outcome."""
    import networkx as nx  # only for the chain tree (--dot/--svg): not on the way of a ruling

    g = nx.DiGraph()
    g.add_node((), label=root_label, complete=False, outcome=())
    for c in chains:
        prefix: tuple[Any, ...] = ()
        for lk in c.links:
            nxt = prefix + ((lk.player, lk.effect, lk.target),)
            if nxt not in g:
                g.add_node(nxt, label=lk.text(), complete=False, outcome=())
                g.add_edge(prefix, nxt, label=f"{lk.n}. {lk.text()}")
            prefix = nxt
        g.nodes[prefix]["complete"] = True
        g.nodes[prefix]["outcome"] = c.outcome
        g.nodes[prefix]["resolved"] = c.resolved
    return g


def _dot_quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(g: nx.DiGraph, title: str = "") -> str:
    """The tree in Graphviz's DOT language."""
    ids = {n: f"n{i}" for i, n in enumerate(g.nodes)}
    lines = ["digraph chains {", "  rankdir=LR;", '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    if title:
        lines.append(f"  label={_dot_quote(title)}; labelloc=t;")
    for n, d in g.nodes(data=True):
        label = d.get("label", "")
        if n == ():
            label = d.get("label", "position") + (" (no chain: play moves on)" if d.get("complete") else "")
        elif d.get("complete"):
            if d.get("resolved", True):
                label += "\n= " + ("; ".join(d.get("outcome") or ()) or "nothing changes")
        style = ', style="rounded,filled", fillcolor="#e8f4e8"' if d.get("complete") else ""
        lines.append(f"  {ids[n]} [label={_dot_quote(label)}{style}];")
    for a, b in g.edges:
        lines.append(f"  {ids[a]} -> {ids[b]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_svg(dot_text: str, path: str) -> None:
    """Render DOT text to an SVG file with Graphviz's ``dot``."""
    import shutil
    import subprocess

    exe = shutil.which("dot")
    if exe is None:
        raise InputError("Graphviz's 'dot' program was not found; install Graphviz "
                         "(Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; "
                         "conda: conda install graphviz), or write the DOT text with --dot FILE", "--svg")
    res = subprocess.run([exe, "-Tsvg", "-o", path], input=dot_text, text=True, capture_output=True, check=False)
    if res.returncode != 0:
        raise InputError(f"dot failed: {res.stderr.strip()}", "--svg")


ProgressFn = Callable[[int], None]


# ---------------------------------------------------------------- questions


def single_position(positions: Sequence[Position], what: str) -> Position:
    if len(positions) != 1:
        raise InputError(f"{what} can happen in {len(positions)} different ways here; say which "
                         "(for example name the target)", "question")
    return positions[0]


def count_sentence(n: int, empty: bool) -> str:
    s = f"{n} legal chain{'s' if n != 1 else ''}"
    if empty:
        s += " (one of them the empty chain: nobody activates anything and play moves on)"
    return s


# ---------------------------------------------------------------- the command line


def point_text(sc: Any, pos: Position) -> str:
    box = pos.value("box")
    pr = pos.value("priority")
    who = _s(pr) if pr is not None and pr.type.name == "String" else "nobody"
    where = describe.point_name(sc, pos)
    if box is not None and box.name not in ("none",):
        where += f", box {box.name.upper()}"
    chain = describe.chain_list(sc, pos)
    if chain:
        where += f", chain so far: {', '.join(chain)}"
    return f"{where}; {who} to act"


