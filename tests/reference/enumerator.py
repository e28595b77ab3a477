"""A reference enumerator of Yu-Gi-Oh! chains: a plain depth-first search
over the Fast Effect Timing chart, written from the rules stated in
``fragment.py`` (not from the encodings), for the positions of
``positions.py``.

A chain is a tuple of links ``(player, effect signature)``; identical copies
have the same signature, so chains that differ only in which copy was used
are one chain.  The empty chain ``()`` is play moving on with no chain.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.reference.fragment import OPEN_POINTS, PHASES

# groups of simultaneous triggers, in the order they go on the chain
_GROUPS = (("tp", True), ("opp", True), ("tp", False), ("opp", False))


@dataclass(frozen=True)
class Eff:
    """One card with one effect, and where the card is."""

    id: str
    controller: str
    card_type: str  # monster spell trap
    prop: str | None  # spell/trap property: normal quickplay counter
    kind: str  # quick ignition card trigger
    speed: int
    zone: str  # where the card is: hand monster set (face-down S/T)
    act_from: tuple[str, ...]  # where the effect is activated from: hand monster set
    conditions: tuple[str, ...] = ()
    responds: tuple[tuple[str, str], ...] = ()  # (who, to)
    set_this_turn: bool = False
    mandatory: bool = False
    pending: bool = False  # a trigger waiting to go on the chain (SEGOC)

    @property
    def signature(self) -> tuple[object, ...]:
        """Everything but the id: identical copies share it."""
        return (self.controller, self.card_type, self.prop, self.kind, self.speed, self.zone, self.act_from,
                self.conditions, self.responds, self.set_this_turn, self.mandatory, self.pending)


@dataclass(frozen=True)
class Spec:
    turn_player: str
    point: str
    effects: tuple[Eff, ...]
    players: tuple[str, str] = ("A", "B")

    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]


Chain = tuple[tuple[str, tuple[object, ...]], ...]


class Reference:
    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.tp = spec.turn_player
        self.opp = spec.other(spec.turn_player)
        self.effs = spec.effects
        self.found: set[Chain] = set()

    # ------------------------------------------------------------ legality
    def _where(self, e: Eff) -> str:
        return e.zone  # no card moves before it is activated, and each is activated once

    def _condition(self, e: Eff, p: str, cond: str) -> bool:
        name, _, arg = cond.partition("(")
        arg = arg.rstrip(")")
        if name == "turn":
            return (p == self.tp) == (arg == "own")
        if name == "phase":
            return self.spec.point in PHASES[arg]
        raise ValueError(cond)

    def _responds(self, e: Eff, p: str, chain: list[int]) -> bool:
        if not chain:
            return False
        top = self.effs[chain[-1]]
        for who, to in e.responds:
            if who == "opponent" and top.controller == p:
                continue
            if who == "self" and top.controller != p:
                continue
            if to == "any":
                return True
            if to == "spell_trap_card" and top.kind == "card":
                return True
            if to == "spell_card" and top.kind == "card" and top.card_type == "spell":
                return True
            if to == "trap_card" and top.kind == "card" and top.card_type == "trap":
                return True
            if to == "monster_effect" and top.card_type == "monster":
                return True
            if to == "spell_trap_effect" and top.card_type != "monster":
                return True
        return False

    def legal(self, i: int, p: str, box: str, chain: list[int], used: frozenset[int]) -> bool:
        """May player p (who holds priority, no SEGOC being built) activate effect i?"""
        e = self.effs[i]
        if e.controller != p or i in used or e.kind == "trigger":
            return False
        if self._where(e) not in e.act_from:
            return False
        if chain:
            top = self.effs[chain[-1]]
            if e.speed < top.speed or e.speed == 1:
                return False
        if e.kind == "ignition" or (e.kind == "card" and e.speed == 1):
            if box != "A" or self.spec.point not in PHASES["main"]:
                return False
        if e.kind == "card" and e.zone == "set" and e.set_this_turn and (e.card_type == "trap" or e.prop == "quickplay"):
            return False
        if e.kind == "card" and e.prop == "quickplay" and e.zone == "hand" and p != self.tp:
            return False
        for c in e.conditions:
            if not self._condition(e, p, c):
                return False
        if e.responds and not self._responds(e, p, chain):
            return False
        return True

    # ------------------------------------------------------------ the search
    def run(self) -> set[Chain]:
        if self.spec.point == "draw":
            # the normal draw comes first (RB10 "Draw Phase"); it starts no chain
            self.found.add(())
            return self.found
        pending = frozenset(i for i, e in enumerate(self.effs) if e.pending)
        if pending:
            self._segoc(self._next_group(-1, pending), pending, [], frozenset())
        else:
            self._open("A" if self.spec.point in OPEN_POINTS else "B", self.tp, frozenset())
        return self.found

    def _record(self, chain: list[int]) -> None:
        self.found.add(tuple((self.effs[i].controller, self.effs[i].signature) for i in chain))

    def _open(self, box: str, holder: str, used: frozenset[int]) -> None:
        """No chain yet: boxes A, B, C, E."""
        for i in range(len(self.effs)):
            if self.legal(i, holder, box, [], used):
                self._respond([i], used | {i}, self.spec.other(holder), passed=False)
        if box == "A":
            self.found.add(())  # the turn player does something else, or ...
            self._open("E", self.opp, used)
        elif box == "B":
            self._open("C", self.opp, used)
        elif box == "C":
            if self.spec.point in OPEN_POINTS:
                self._open("A", self.tp, used)
            else:
                self.found.add(())
        elif box == "E":
            self.found.add(())

    def _respond(self, chain: list[int], used: frozenset[int], holder: str, passed: bool) -> None:
        """Box D: ``holder`` may respond to the top link, or pass."""
        for i in range(len(self.effs)):
            if self.legal(i, holder, "D", chain, used):
                self._respond(chain + [i], used | {i}, self.spec.other(holder), passed=False)
        if passed:
            self._record(chain)  # two passes in succession: the chain resolves
        else:
            self._respond(chain, used, self.spec.other(holder), passed=True)

    def _owner(self, g: int) -> str:
        return self.tp if _GROUPS[g][0] == "tp" else self.opp

    def _members(self, g: int, pending: frozenset[int]) -> list[int]:
        who, mandatory = _GROUPS[g]
        return [i for i in sorted(pending)
                if self.effs[i].controller == self._owner(g) and self.effs[i].mandatory == mandatory]

    def _next_group(self, g: int, pending: frozenset[int]) -> int:
        for h in range(g + 1, len(_GROUPS)):
            if self._members(h, pending):
                return h
        return -1

    def _segoc(self, g: int, pending: frozenset[int], chain: list[int], used: frozenset[int]) -> None:
        if g < 0:
            if chain:
                last = self.effs[chain[-1]].controller
                self._respond(chain, used, self.spec.other(last), passed=False)
            else:
                self._open("B", self.tp, used)
            return
        members = self._members(g, pending)
        for i in members:
            rest = pending - {i}
            nxt = g if self._members(g, rest) else self._next_group(g, rest)
            self._segoc(nxt, rest, chain + [i], used | {i})
        if not _GROUPS[g][1]:
            rest = pending - set(members)  # declines the rest of the group
            self._segoc(self._next_group(g, rest), rest, chain, used)


def reference_chains(spec: Spec) -> set[Chain]:
    return Reference(spec).run()
