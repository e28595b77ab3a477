"""Every legal chain by states: the one-step transitions of a position,
explored once per distinct state, counted and listed by walking the graph.

A trace of one chain (the scope ``q_scope(one_chain)``, cut where the chain
starts to resolve) is a path in the graph of the position's states: each
state is the set of fluents at a point, each edge one event, found by the
solver from the game's named rules for that one step.  The future of a state
while the chain is built depends on its fluents only (the step rules read
the point before them and nothing older: core/time.lp), and on the links of
the chain only through the top link, the chain's length and which cards the
links mention (``_top``, ``_last_link_by``, ``_q_mentioned``; checked by
tests/test_chainstates.py against the encodings).  So states that agree up to
the order of the links below the top are one node of the graph, and the
number of chains is the number of paths from the position to a state where
the chain is complete: counted by dynamic programming, never enumerated.

Each state is put to the solver once: its fluents are assumed through
externals (``dp_origin(k)`` in encodings/core/chains.lp) over a domain of
fluents, and every model of the one step after it is one legal event.  The
domain starts with the position's fluents, the links and chain lengths its
activations can make and the game's guess (``q_dp_seed/1``); a state with a
fluent outside it is explored after the domain has been extended (a further
origin ground beside the first: the position itself stays ground as facts at
point 0, so the rules that read the position -- the chain's actors, effects
already used -- are the same as in the search by traces).

Chains are listed with their outcome by the search by traces
(queries/chains.py): an outcome depends on the order of every link.

See docs/chains.md ("By states").
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from logic.registry import lp_files
from solver import LimitReached, Session
from solver.terms import Function, Number, Symbol, symbol_id, symbol_of_id

if TYPE_CHECKING:
    from queries.chains.search import ChainSearch

# The states one position may have before the search gives up (exit 3).
MAX_STATES = 200_000
# The chains merged as sets where one first link leads to different states.
MAX_MERGED = 2_000_000

State = frozenset  # of fluents (F or val(K,V)), each by its symbol id (solver.terms.symbol_id)


def _is_val(f: Symbol) -> bool:
    return f.name == "val" and len(f.arguments) == 2


class _Fluents:
    """What the search needs to know of each fluent, read from its symbol
    once; fluents are handled by their ids (reading or hashing a clingo
    symbol costs a foreign call, an int does not)."""

    def __init__(self) -> None:
        # id -> (the id of K of a val(K,V), or 0; N of a link(N,...) or -1;
        #        V of val(chain_len,V) or -1; the id of the link as below the top, or 0)
        self._info: dict[int, tuple[int, int, int, int]] = {}

    def info(self, fid: int) -> tuple[int, int, int, int]:
        got = self._info.get(fid)
        if got is None:
            f = symbol_of_id(fid)
            key = 0
            link = -1
            clen = -1
            below = 0
            if _is_val(f):
                k = f.arguments[0]
                key = symbol_id(k)
                if k.name == "chain_len" and not k.arguments:
                    clen = f.arguments[1].number
            elif f.name == "link" and len(f.arguments) == 4:
                link = f.arguments[0].number
                below = symbol_id(Function("below", list(f.arguments[1:])))
            got = self._info[fid] = (key, link, clen, below)
        return got

    def chain_len(self, state: State) -> int:
        info = self.info
        for f in state:
            c = info(f)[2]
            if c >= 0:
                return c
        return 0

    def key(self, state: State) -> State:
        """The state up to the order of the links below the top one (see the
        module's docstring: nothing while a chain is built reads it)."""
        info = self.info
        n = self.chain_len(state)
        if n <= 1:
            return state  # no link below the top: the key is the state itself
        out = []
        for f in state:
            _, link, _, below = info(f)
            out.append(below if 0 <= link < n else f)
        return frozenset(out)


@dataclass
class Edge:
    event: int  # the event's symbol id
    link: int  # the id of the link(N,E,P,X) the event added, or 0
    target: Any  # a state key, or DONE_LINKED / DONE_EMPTY
    state: State | None = None  # the concrete state (non-terminal targets)


DONE_LINKED = "done-linked"
DONE_EMPTY = "done-empty"


@dataclass
class StateGraph:
    root: Any
    existing: int = 0  # links already on the chain at the position
    edges: dict[Any, list[Edge]] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------ counting
    def paths(self) -> dict[Any, int]:
        """For each state, the number of paths from it to a complete chain."""
        memo: dict[Any, int] = {}
        order = self._postorder()
        for key in order:
            total = 0
            for e in self.edges[key]:
                if e.target == DONE_LINKED:
                    total += 1
                elif e.target != DONE_EMPTY:
                    total += memo[e.target]
            memo[key] = total
        return memo

    def _postorder(self) -> list[Any]:
        seen: set[Any] = set()
        out: list[Any] = []
        stack: list[tuple[Any, int]] = [(self.root, 0)]
        on_path: set[Any] = {self.root}
        seen.add(self.root)
        while stack:
            key, i = stack[-1]
            es = self.edges[key]
            if i < len(es):
                stack[-1] = (key, i + 1)
                t = es[i].target
                if t in (DONE_LINKED, DONE_EMPTY):
                    continue
                if t in on_path:
                    raise LimitReached("states", len(self.edges), "the chain's states form a cycle: "
                                       "a chain that never ends")
                if t not in seen:
                    seen.add(t)
                    on_path.add(t)
                    stack.append((t, 0))
            else:
                stack.pop()
                on_path.discard(key)
                out.append(key)
        return out

    def _before_first_link(self) -> Iterator[Edge]:
        """The edges from the states reached from the position without a
        link (passes and the like), each once."""
        seen: set[Any] = set()
        todo = [self.root]
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            for e in self.edges[key]:
                yield e
                if not e.link and e.target not in (DONE_LINKED, DONE_EMPTY):
                    todo.append(e.target)

    def empty_chain(self) -> bool:
        """Play can move on with no chain (a path with no link to an end)."""
        return any(not e.link and e.target == DONE_EMPTY for e in self._before_first_link())

    def first_links(self) -> dict[int, list[Any]]:
        """Before the first new link: each first link with the states it
        leads to, over every way of passing before it."""
        out: dict[int, list[Any]] = {}
        for e in self._before_first_link():
            if e.link:
                targets = out.setdefault(e.link, [])
                if e.target not in targets:
                    targets.append(e.target)
        return out

    def count(self) -> int:
        """The number of distinct chains (not counting the empty chain).
        Traces that differ only in passes are one chain: once a chain has a
        link its passes follow from its links (each link hands priority to a
        given player), so paths and chains correspond; before the first link
        a player may have had several chances to start the same chain, so
        the chains are counted per first link, and where one first link
        leads to different states the chains through them are merged as
        sets."""
        memo = self.paths()
        if self.existing:
            return memo[self.root]
        total = 0
        for _link, targets in self.first_links().items():
            if len(targets) == 1:
                t = targets[0]
                total += 1 if t == DONE_LINKED else memo[t]
            else:
                # rare (no generated position of the reference comparison has it): the
                # chains through each state are listed and merged
                through = sum(1 if t == DONE_LINKED else memo[t] for t in targets)
                if through > MAX_MERGED:
                    raise LimitReached("states", MAX_MERGED, f"{through} chains to merge after one first link "
                                       "reached in different states")
                seqs: set[tuple[int, ...]] = set()
                for t in targets:
                    if t == DONE_LINKED:
                        seqs.add(())
                    else:
                        seqs.update(self._sequences(t))
                total += len(seqs)
        return total

    # ------------------------------------------------------------ listing
    def _sequences(self, key: Any) -> Iterator[tuple[int, ...]]:
        """The link sequences (link symbols) of the paths from ``key`` to a
        complete chain."""
        stack: list[tuple[Any, int, tuple[int, ...]]] = [(key, 0, ())]
        while stack:
            k, i, prefix = stack.pop()
            es = self.edges[k]
            if i + 1 < len(es):
                stack.append((k, i + 1, prefix))
            if i >= len(es):
                continue
            e = es[i]
            seq = prefix + (e.link,) if e.link else prefix
            if e.target == DONE_LINKED:
                yield seq
            elif e.target != DONE_EMPTY:
                stack.append((e.target, 0, seq))

    def chains(self) -> Iterator[tuple[int, ...]]:
        """Every distinct chain (but the empty one), as its new links'
        link(N,E,P,X) symbols, depth first."""
        if self.existing:
            yield from self._sequences(self.root)
            return
        for link, targets in self.first_links().items():
            seen: set[tuple[int, ...]] = set()
            for t in targets:
                rests = [()] if t == DONE_LINKED else self._sequences(t)
                for rest in rests:
                    if len(targets) > 1:
                        if rest in seen:
                            continue
                        seen.add(rest)
                    yield (link, *rest)


# ---------------------------------------------------------------- exploring


def _domain_fact(f: Symbol, k: int) -> Symbol:
    if _is_val(f):
        return Function("q_dp_val", [*f.arguments, Number(k)])
    return Function("q_dp_fluent", [f, Number(k)])


class Explorer:
    """The one-step transitions of one position's chain, in one clingo control."""

    # merge states that differ only in the order of the links below the top
    # (off only in a test that compares the two)
    merge = True

    def __init__(self, search: ChainSearch, max_states: int = MAX_STATES) -> None:
        self.search = search
        self.max_states = max_states
        self.session = Session(time_limit=search.engine.remaining())
        self.origin = 0  # the point whose state is assumed (0: none ground yet)
        self.domain: set[int] = set()
        self._ext: dict[int, int] = {}
        self.fl = _Fluents()
        self._chain_len_key = symbol_id(Function("chain_len", []))
        self._shown: dict[int, tuple[str, Any, Any]] = {}
        self.stats: dict[str, Any] = {"states": 0, "origins": 0, "transitions": 0}
        s = self.session
        for f in lp_files(search.sc.game):
            if f.name != "show.lp":
                s.load(f)
        self.root: State = frozenset(symbol_id(f) for f in search.position.fluents)
        n0 = self.fl.chain_len(self.root)
        most = n0 + search._available()
        # the first origin's domain: the position, the links and chain lengths
        # its activations can make, and the game's guess (q_dp_seed/1)
        seeds = [Function("q_dp_link", [Number(n)]) for n in range(n0 + 1, most + 1)]
        seeds += [Function("q_dp_length", [Number(n)]) for n in range(n0, most + 1)]
        s.add_facts(search.engine.static + search.position_facts() + search.dp_facts() + seeds)
        self._extend(set(), base=True)
        s.set_standing(search._rule_list)

    # ------------------------------------------------------------ the domain
    def _extend(self, fluents: set[int], base: bool = False) -> None:
        """Ground a new origin whose domain is the old one and ``fluents``."""
        s = self.session
        if self.origin:
            # the old origin rests in the position's state, with no event after it
            for f, lit in self._ext.items():
                s.assign_external(lit, f in self.root)
            s.assign_external(Function("active", [Number(self.origin + 1)]), False)
        self.domain |= fluents
        k = self.origin + 2 if self.origin else 2
        parts: list[tuple[str, Sequence[Symbol | int]]] = [("base", []), ("state", [0])] if base else []
        if self.domain:
            part = f"dp_dom_{k}"
            s.add_facts([_domain_fact(symbol_of_id(f), k) for f in self.domain], part=part)
            parts.append((part, []))
        parts += [("dp_origin", [k]), ("state", [k]), ("step", [k + 1]), ("state", [k + 1])]
        s.ground(parts)
        s.assign_external(Function("active", [Number(k + 1)]), True)
        # the domain as ground (with the game's seeds), each fluent's external by its literal
        kk = Number(k)
        ext: dict[int, int] = {}
        for a, lit in s.literals_of("dp_fluent", 2):
            f, at = a.arguments
            if at == kk:
                ext[symbol_id(f)] = lit
        self.domain = set(ext)
        self.origin = k
        self._ext = ext
        self.stats["origins"] += 1

    def _assumed(self, state: State) -> list[int]:
        """The state as assumptions on the origin's externals: each fluent of
        the domain true if it holds, false if not."""
        ext = self._ext
        return [lit if f in state else -lit for f, lit in ext.items()]

    def _read(self, aid: int) -> tuple[str, Any, Any]:
        """A shown atom dp(X,T), by its id, as (what, the id(s) of its
        argument(s), T)."""
        got = self._shown.get(aid)
        if got is None:
            a = symbol_of_id(aid)
            if a.name != "dp" or len(a.arguments) != 2:
                got = ("", None, None)
            else:
                x, t = a.arguments
                args = x.arguments
                if x.name == "set":
                    got = (x.name, (symbol_id(args[0]), symbol_id(Function("val", list(args)))), t.number)
                else:
                    got = (x.name, symbol_id(args[0]) if args else None, t.number)
            self._shown[aid] = got
        return got

    def successors(self, state: State) -> list[Edge]:
        """Every legal event from ``state``, with the state it leads to (and
        that state's key).  The state's functional fluents by key and its
        links are read once, for all its successors."""
        k1 = self.origin + 1
        info = self.fl.info
        read = self._read
        vals: dict[int, int] = {}
        links: list[tuple[int, int, int]] = []  # (N, the link's id, its id below the top)
        n = 0
        for f in state:
            key, ln, clen, below = info(f)
            if key:
                vals[key] = f
                if clen >= 0:
                    n = clen
            elif ln >= 0:
                links.append((ln, f, below))
        out: list[Edge] = []
        for ids in self.session.model_ids(self._assumed(state)):
            event = 0
            adds: list[int] = []
            dels: set[int] = set()
            sets: dict[int, int] = {}
            done = False
            link = 0
            for a in ids:
                what, arg, t = read(a)
                if t != k1:
                    continue
                if what == "occurs":
                    event = arg
                elif what == "add":
                    adds.append(arg)
                    if info(arg)[1] >= 0:
                        link = arg
                elif what == "del":
                    dels.add(arg)
                elif what == "set":
                    sets[arg[0]] = arg[1]
                elif what == "done":
                    done = True
            if not event:
                continue
            for key in sets:
                old = vals.get(key)
                if old is not None:
                    dels.add(old)
            nstate = state.difference(dels).union(adds, sets.values())
            nlen = n
            new_len = sets.get(self._chain_len_key)
            if new_len is not None:
                nlen = info(new_len)[2]
            if done:
                target: Any = DONE_LINKED if nlen > 0 else DONE_EMPTY
                out.append(Edge(event, link, target))
                continue
            target = nstate
            if nlen > 1 and self.merge:
                below = [(f, b) for ln, f, b in links if ln < nlen and f in nstate]
                if below:
                    target = nstate.difference(f for f, _ in below).union(b for _, b in below)
            out.append(Edge(event, link, target, nstate))
        self.stats["transitions"] += len(out)
        return out

    # ------------------------------------------------------------ the graph
    def explore(self) -> StateGraph:
        root_state = self.root
        root_key = self.fl.key(root_state) if self.merge else root_state
        graph = StateGraph(root_key, self.search._existing())
        todo: list[tuple[State, State]] = [(root_key, root_state)]
        while todo:
            pending: list[tuple[State, State]] = []
            while todo:
                key, st = todo.pop()
                if key in graph.edges:
                    continue
                if not st <= self.domain:
                    pending.append((key, st))
                    continue
                if len(graph.edges) >= self.max_states:
                    raise LimitReached("states", self.max_states,
                                       f"more than {self.max_states} states of the chain")
                es = self.successors(st)
                graph.edges[key] = es
                for e in es:
                    if e.state is not None:
                        if e.target not in graph.edges:
                            todo.append((e.target, e.state))
                        e.state = None  # kept only until explored (memory: a state is ~100 ids)
            if pending:
                new: set[int] = set()
                for _, st in pending:
                    new |= st
                self._extend(new)
                todo = pending
        self.stats["states"] = len(graph.edges)
        graph.stats = dict(self.stats)
        return graph
