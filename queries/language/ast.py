"""The parsed form of questions and event phrases."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Ref:
    """A name as written (a card, id or alias), ``effect`` if written as "X's effect"."""

    text: str
    effect: bool = False
    ability: str | None = None  # one ability of several: "first" ... "sixth", or a loyalty cost "+1", "-2", "0"


@dataclass(frozen=True)
class Paid:
    """What an event phrase says was paid or chosen ("tributing Y", "paying 1000 LP",
    "choosing the second effect", "using Y" for a Summon's materials)."""

    kind: str  # tribute discard banish detach send lp mode material
    card: Ref | None = None
    number: int | None = None  # lp: the amount; detach: how many; mode: which (1-based)


@dataclass(frozen=True)
class Event:
    kind: str  # draw normal_summon set flip_summon special_summon activate chain cast play pass
    # declare_end enter attack expire turn_face_up discard discard_hand_size concede
    # declare_attackers declare_blockers declare_none chain_resolves resolves combat_damage
    # first_strike_damage begins ends respond method_summon change_position
    player: str | None = None
    card: Ref | None = None
    targets: tuple[Ref | str, ...] = ()  # Ref for cards, str for players
    point: str | None = None  # as written
    direct: bool = False
    cards: tuple[Ref, ...] = ()
    blocks: tuple[tuple[Ref, Ref], ...] = ()
    text: str = ""
    paid: tuple[Paid, ...] = ()  # costs, Tributes, materials, the mode chosen
    method: str | None = None  # method_summon: fusion ritual synchro xyz link pendulum
    zone: str | None = None  # special_summon: "from <zone>" as written
    chained: bool = False  # asked "in response to" an activation: a chain link 2+ (a stack object above it)


@dataclass(frozen=True)
class When:
    kind: str  # none now after before_event before_point during in_response while_resolves
    event: Event | None = None
    point: str | None = None
    card: Ref | None = None
    player: str | None = None


@dataclass(frozen=True)
class Outcome:
    kind: str  # miss_timing resolve_negated resolve_unnegated activate resolve point_end replay
    card: Ref | None = None
    point: str | None = None


@dataclass(frozen=True)
class Question:
    kind: str  # can must does who_has who_receives who_acts order chain count list when_can next_point chooses
    text: str
    event: Event | None = None
    outcome: Outcome | None = None
    when: When = field(default_factory=lambda: When("none"))
    cards: tuple[Ref, ...] = ()
    player: str | None = None
    order_of: str = "chain"  # chain | resolve

    @property
    def yes_no(self) -> bool:
        return self.kind in ("can", "must", "does")
