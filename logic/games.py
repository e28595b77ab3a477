"""Games, their points (phases, steps, sub-steps) and the turn as a graph.

The point graph is a :class:`PointGraph` whose nodes are the internal
point constants used by the encodings, annotated with the public names of
docs/scenarios.md, the human names a question may use, the phase they belong to and
whether they have an open game state.  logic/facts.py turns it into facts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

GAMES = ("ygo", "mtg")


class PointGraph:
    """A small directed graph (the turn's points): nodes and edges in the
    order they were added (the order of the facts made from them), as the
    part of networkx's ``DiGraph`` the turn needs -- without importing
    networkx, whose import alone costs a cold ``chainjudge ask`` more than
    starting clingo."""

    def __init__(self) -> None:
        self._succ: dict[str, dict[str, None]] = {}
        self._attrs: dict[str, dict[str, Any]] = {}

    def add_node(self, key: str, **attrs: Any) -> None:
        self._succ.setdefault(key, {})
        self._attrs.setdefault(key, {}).update(attrs)

    def add_edge(self, a: str, b: str) -> None:
        self.add_node(a)
        self.add_node(b)
        self._succ[a][b] = None

    def add_edges_from(self, edges: Iterable[tuple[str, str]]) -> None:
        for a, b in edges:
            self.add_edge(a, b)

    def copy(self) -> PointGraph:
        g = PointGraph()
        g._succ = {k: dict(v) for k, v in self._succ.items()}
        g._attrs = {k: dict(v) for k, v in self._attrs.items()}
        return g

    def __contains__(self, key: object) -> bool:
        return key in self._succ

    def __iter__(self) -> Iterator[str]:
        return iter(self._succ)

    @property
    def nodes(self) -> dict[str, dict[str, Any]]:
        """The nodes (in order) with their attributes."""
        return self._attrs

    @property
    def edges(self) -> list[tuple[str, str]]:
        """The edges, by source node in node order, then in the order added."""
        return [(a, b) for a, succ in self._succ.items() for b in succ]

    def successors(self, key: str) -> Iterator[str]:
        return iter(self._succ[key])

    def has_path(self, a: str, b: str) -> bool:
        """Whether ``b`` can be reached from ``a`` (a node reaches itself)."""
        if a not in self._succ or b not in self._succ:
            raise KeyError(a if a not in self._succ else b)
        seen, todo = {a}, [a]
        while todo:
            k = todo.pop()
            if k == b:
                return True
            for n in self._succ[k]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return False


@dataclass(frozen=True)
class Point:
    key: str  # internal constant used by the encodings
    name: str  # public name (docs/scenarios.md)
    phases: tuple[str, ...]  # the phases/steps it belongs to (for conditions)
    open_state: bool = False  # has box A (Yu-Gi-Oh!) / is a main phase (Magic)
    one_chain: bool = False  # only one chain here (YP "Battle Step" (attack declaration), DSR during damage calculation)
    human: tuple[str, ...] = ()  # other names for it in questions
    order: int = 0
    spans: tuple[str, ...] = field(default_factory=tuple)  # public names this point is "during"
    title: str = ""  # how a ruling says it ("Main Phase 1", "the Start Step")


YGO_POINTS: tuple[Point, ...] = (
    Point("draw", "draw", ("draw",), True, human=("draw phase", "dp", "the draw phase")),
    Point("standby", "standby", ("standby",), True, human=("standby phase", "sp", "the standby phase")),
    Point("main1", "main1", ("main",), True, human=("main phase 1", "mp1", "the main phase 1", "first main phase", "main 1")),
    Point("bp_start", "battle.start", ("battle",), human=("start step", "the start step", "battle phase start step")),
    Point("bp_battle", "battle.battle", ("battle", "battle_step"), True, human=("battle step", "the battle step")),
    Point("bp_attack", "battle.attack", ("battle", "battle_step"), one_chain=True,
          human=("attack declaration", "the attack declaration", "attack declaration window")),
    Point("bp_window", "battle.battle", ("battle", "battle_step")),
    Point("ds_start", "battle.damage.start", ("battle", "damage_step", "ds_start"),
          human=("start of the damage step", "the start of the damage step")),
    Point("ds_before", "battle.damage.before_calculation", ("battle", "damage_step", "ds_before"),
          human=("before damage calculation",)),
    Point("ds_calc", "battle.damage.calculation", ("battle", "damage_step", "ds_calc"), one_chain=True,
          human=("damage calculation", "during damage calculation")),
    Point("ds_after", "battle.damage.after_calculation", ("battle", "damage_step", "ds_after"),
          human=("after damage calculation",)),
    Point("ds_end", "battle.damage.end", ("battle", "damage_step", "ds_end"),
          human=("end of the damage step", "the end of the damage step")),
    Point("bp_end", "battle.end", ("battle",), human=("end step", "the end step", "battle phase end step")),
    Point("main2", "main2", ("main",), True, human=("main phase 2", "mp2", "second main phase", "main 2")),
    Point("end", "end", ("end",), True, human=("end phase", "ep", "the end phase")),
)

YGO_EDGES: tuple[tuple[str, str], ...] = (
    ("draw", "standby"),
    ("standby", "main1"),
    ("main1", "bp_start"),
    ("main1", "end"),  # the turn player may skip the Battle Phase (and with it Main Phase 2)
    ("bp_start", "bp_battle"),
    ("bp_battle", "bp_end"),
    ("bp_attack", "bp_window"),
    ("bp_window", "ds_start"),
    ("bp_window", "bp_battle"),  # the attack no longer stands
    ("ds_start", "ds_before"),
    ("ds_before", "ds_calc"),
    ("ds_calc", "ds_after"),
    ("ds_after", "ds_end"),
    ("ds_end", "bp_battle"),
    ("bp_end", "main2"),
    ("main2", "end"),
    ("end", "turn_end"),
)

# Public span names: "during X" for a public name X covers these internal points.
YGO_SPANS: dict[str, tuple[str, ...]] = {
    "draw": ("draw",),
    "standby": ("standby",),
    "main1": ("main1",),
    "battle": ("bp_start", "bp_battle", "bp_attack", "bp_window", "ds_start", "ds_before", "ds_calc",
               "ds_after", "ds_end", "bp_end"),
    "battle.start": ("bp_start",),
    "battle.battle": ("bp_battle", "bp_attack", "bp_window"),
    "battle.attack": ("bp_attack",),
    "battle.damage": ("ds_start", "ds_before", "ds_calc", "ds_after", "ds_end"),
    "battle.damage.start": ("ds_start",),
    "battle.damage.before_calculation": ("ds_before",),
    "battle.damage.calculation": ("ds_calc",),
    "battle.damage.after_calculation": ("ds_after",),
    "battle.damage.end": ("ds_end",),
    "battle.end": ("bp_end",),
    "main2": ("main2",),
    "end": ("end",),
    "main": ("main1", "main2"),
}

YGO_SPAN_HUMAN: dict[str, tuple[str, ...]] = {
    "battle": ("battle phase", "the battle phase", "bp"),
    "battle.damage": ("damage step", "the damage step", "ds"),
    "main": ("main phase", "the main phase"),
}

MTG_POINTS: tuple[Point, ...] = (
    Point("untap", "untap", ("beginning",), human=("untap step", "the untap step")),
    Point("upkeep", "upkeep", ("beginning",), human=("upkeep step", "the upkeep", "the upkeep step")),
    Point("draw", "draw", ("beginning",), human=("draw step", "the draw step")),
    Point("main1", "main1", ("main",), True, human=("main phase 1", "precombat main phase", "first main phase", "mp1")),
    Point("combat_beginning", "combat.beginning", ("combat",), human=("beginning of combat", "beginning of combat step")),
    # not "declare attackers" / "declare blockers" alone: those words begin the
    # event phrases "can A declare attackers with X" / "declare blockers: ..."
    Point("combat_attackers", "combat.attackers", ("combat",), human=("declare attackers step",)),
    Point("combat_blockers", "combat.blockers", ("combat",), human=("declare blockers step",)),
    Point("combat_first_strike", "combat.first_strike_damage", ("combat",),
          human=("first-strike damage step", "first strike damage step")),
    Point("combat_damage", "combat.damage", ("combat",), human=("combat damage step", "the combat damage step")),
    Point("combat_end", "combat.end", ("combat",), human=("end of combat", "end of combat step")),
    Point("main2", "main2", ("main",), True, human=("main phase 2", "postcombat main phase", "second main phase", "mp2")),
    Point("end", "end", ("ending",), human=("end step", "the end step")),
    Point("cleanup", "cleanup", ("ending",), human=("cleanup step", "the cleanup step")),
)

MTG_EDGES: tuple[tuple[str, str], ...] = (
    ("untap", "upkeep"),
    ("upkeep", "draw"),
    ("draw", "main1"),
    ("main1", "combat_beginning"),
    ("combat_beginning", "combat_attackers"),
    ("combat_attackers", "combat_blockers"),
    ("combat_attackers", "combat_end"),  # no attackers: 508.8
    ("combat_blockers", "combat_first_strike"),
    ("combat_blockers", "combat_damage"),
    ("combat_first_strike", "combat_damage"),
    ("combat_damage", "combat_end"),
    ("combat_end", "main2"),
    ("main2", "end"),
    ("end", "cleanup"),
    ("cleanup", "cleanup"),  # another cleanup step if priority was given in this one (CR 514.3a)
    ("cleanup", "turn_end"),
)

MTG_SPANS: dict[str, tuple[str, ...]] = {p.name: (p.key,) for p in MTG_POINTS}
MTG_SPANS.update(
    {
        "beginning": ("untap", "upkeep", "draw"),
        "combat": ("combat_beginning", "combat_attackers", "combat_blockers", "combat_first_strike",
                   "combat_damage", "combat_end"),
        "main": ("main1", "main2"),
        "ending": ("end", "cleanup"),
    }
)
MTG_SPAN_HUMAN: dict[str, tuple[str, ...]] = {
    "beginning": ("beginning phase", "the beginning phase"),
    "combat": ("combat", "combat phase", "the combat phase"),
    "main": ("main phase", "the main phase"),
    "ending": ("ending phase", "the ending phase"),
}


TITLES = {
    "ygo": {"draw": "the Draw Phase", "standby": "the Standby Phase", "main1": "Main Phase 1",
            "bp_start": "the Start Step of the Battle Phase", "bp_battle": "the Battle Step",
            "bp_attack": "the attack declaration", "bp_window": "the Battle Step",
            "ds_start": "the start of the Damage Step", "ds_before": "the Damage Step, before damage calculation",
            "ds_calc": "damage calculation", "ds_after": "the Damage Step, after damage calculation",
            "ds_end": "the end of the Damage Step", "bp_end": "the End Step of the Battle Phase",
            "main2": "Main Phase 2", "end": "the End Phase", "turn_end": "the end of the turn"},
    "mtg": {"untap": "the untap step", "upkeep": "the upkeep step", "draw": "the draw step",
            "main1": "the precombat main phase", "combat_beginning": "the beginning of combat step",
            "combat_attackers": "the declare attackers step", "combat_blockers": "the declare blockers step",
            "combat_first_strike": "the first-strike combat damage step", "combat_damage": "the combat damage step",
            "combat_end": "the end of combat step", "main2": "the postcombat main phase", "end": "the end step",
            "cleanup": "the cleanup step", "turn_end": "the end of the turn"},
}


@dataclass(frozen=True)
class Turn:
    """The turn structure of one game."""

    game: str
    points: tuple[Point, ...]
    graph: PointGraph
    spans: dict[str, tuple[str, ...]]
    aliases: dict[str, str]  # normalised human name -> public span name

    def point(self, key: str) -> Point:
        for p in self.points:
            if p.key == key:
                return p
        raise KeyError(key)

    def title(self, key: str) -> str:
        """How a ruling names the point ("Main Phase 1", "the End Phase")."""
        return TITLES.get(self.game, {}).get(key, self.public_name(key))

    def public_name(self, key: str) -> str:
        if key == "turn_end":
            return "turn_end"
        return self.point(key).name

    def resolve(self, text: str) -> str | None:
        """A public span name for a point name or human name, or None."""
        norm = normalise(text)
        if norm in self.spans:
            return norm
        return self.aliases.get(norm)

    def order(self, key: str) -> int:
        if key == "turn_end":
            return len(self.points)
        return next(i for i, p in enumerate(self.points) if p.key == key)

    def keys_after(self, span: str) -> tuple[str, ...]:
        """Internal points that lie after every point of the span's phase (no way back)."""
        members = self.spans[span]
        last = max(self.order(k) for k in members)
        # a way back exists only inside the battle phase / combat: use the
        # enclosing phase's end, found through the graph (any cycle stays in it)
        reach_back = {
            k
            for k in self.graph.nodes
            for m in members
            if k != m and self.graph.has_path(k, m) and self.order(k) > last
        }
        return tuple(
            k for k in self.graph.nodes if self.order(k) > last and k not in reach_back and k != "turn_end"
        )


def normalise(text: str) -> str:
    t = text.strip().lower()
    t = re.sub(r"\s+", " ", t)
    t = t.replace("’", "'")
    return t


def _build(game: str) -> Turn:
    points = YGO_POINTS if game == "ygo" else MTG_POINTS
    edges = YGO_EDGES if game == "ygo" else MTG_EDGES
    spans = YGO_SPANS if game == "ygo" else MTG_SPANS
    span_human = YGO_SPAN_HUMAN if game == "ygo" else MTG_SPAN_HUMAN
    g = PointGraph()
    for p in points:
        g.add_node(p.key, name=p.name, phases=p.phases, open_state=p.open_state, one_chain=p.one_chain)
    g.add_node("turn_end", name="turn_end", phases=(), open_state=False, one_chain=False)
    g.add_edges_from(edges)
    aliases: dict[str, str] = {}
    for p in points:
        for h in p.human:
            aliases.setdefault(normalise(h), p.name)
            if h.startswith("the "):
                aliases.setdefault(normalise(h[4:]), p.name)
            else:
                aliases.setdefault("the " + normalise(h), p.name)
    for span, hs in span_human.items():
        for h in hs:
            aliases.setdefault(normalise(h), span)
    return Turn(game, points, g, dict(spans), aliases)


@cache
def turn(game: str) -> Turn:
    if game not in GAMES:
        raise KeyError(game)
    return _build(game)
