"""What a position holds that is not modelled (docs/not-modelled.md).

Every card of the position, whatever its origin (library, custom, derived) and
game, may carry unmodelled parts: ``Card.unmodelled_parts()`` (what the card
readers could not express, and the library's ``approximate:`` notes) and, for
cards read from Yu-Gi-Oh! text, the reader's per-effect reports.  An answer
rests only on what is modelled (docs/not-modelled.md): a part that could
change the answer is refused, naming the card, the effect and the words
(exit 4).  Whether it could is decided by solving the question under the two
readings of ``encodings/core/unmodelled.lp`` (queries/relevance.py,
docs/not-modelled.md); this module only lists the parts and says which
reading bounds each.
"""

from __future__ import annotations

from dataclasses import dataclass

from logic.cards import Card, Effect
from logic.errors import NotModelled
from logic.scenario import Scenario

MAX_LISTED = 3  # parts named in a message; the rest are counted
MAX_WORDS = 120  # characters of a part's words in a message

# How each aspect of an unmodelled part is bounded (docs/not-modelled.md): the
# kinds of reading it gets (encodings/core/unmodelled.lp, ygo/unmodelled.lp):
#   use    -- it can only narrow when or whether its effect may be used: the
#             effect is never activated (restrictive) / may be whenever its
#             other known parts allow, its conditions all holding, and may be
#             declined (permissive)
#   cost   -- something happens when the effect is activated (a cost paid, a
#             target chosen): nothing (restrictive) / anything (permissive)
#   result -- what the effect does: nothing beyond what is modelled
#             (restrictive) / anything, and it "includes" every kind of act a
#             condition may ask about (permissive)
#   damage -- the effect damage it inflicts (effect damage is not in the
#             vocabulary): none (restrictive) / every player takes damage when
#             it resolves (permissive: "when you take damage" triggers)
#   static -- (any part of a continuous effect) it never applies (restrictive)
#             / it applies with any result whenever its card is face-up on the
#             field or battlefield (permissive)
# An aspect not listed (a trigger event, a restriction on the players, a
# widening such as "you can also activate this from your hand", a
# characteristic, text not understood) cannot be bounded by the two readings:
# the conservative refusal stays.
ASPECT_READINGS: dict[str, frozenset[str]] = {
    **{a: frozenset({"use"}) for a in (
        "condition", "activation condition", "qualifier", "window", "frequency", "responds to",
        "once per turn", "limit")},
    **{a: frozenset({"use", "cost"}) for a in ("cost", "cost clause does not parse")},
    "target": frozenset({"use", "cost", "result"}),
    **{a: frozenset({"result"}) for a in ("resolution", "result", "amount")},
    "damage": frozenset({"damage"}),
}


def resolution_unknown(eff: Effect) -> bool:
    """Whether an effect of a card outside the library says too little of its
    resolution to model it: no actions, or only an ATK/DEF change whose amount is
    not known (the card-text reader's `atk_change`)."""
    if eff.kind == "continuous":
        return False
    return not eff.actions or (set(eff.actions) == {"atk_change"} and eff.amount is None)



@dataclass(frozen=True)
class Part:
    """One unmodelled part of a card of the position."""

    card: str  # the card's name
    effect: int | None  # the effect's index, None for text of the card as a whole
    aspect: str  # what the words are about (the text before the first ':'); "" if not said
    words: str  # the card's words (or what is approximate)
    approximate: bool = False  # an approximation of the library, not unread text

    continuous: bool = False  # a part of a continuous effect (it applies, it is not activated)
    lp_read: bool = False  # a card of the position reads Life Points (a cost in LP): damage changes it

    @property
    def readings(self) -> frozenset[str]:
        """The kinds of reading that bound it (ASPECT_READINGS); empty: it cannot be bounded."""
        if self.effect is None:
            return frozenset()
        kinds = ASPECT_READINGS.get(self.aspect, frozenset())
        if kinds and self.continuous:
            return frozenset({"static"})
        if kinds == {"damage"} and self.lp_read:
            # the permissive damage reading leaves Life Points as they are: here they are read
            return frozenset({"result"})
        return kinds

    @property
    def bound(self) -> bool:
        return bool(self.readings)

    def label(self) -> str:
        where = f"effect {self.effect}" if self.effect is not None else "card text"
        what = f"{self.aspect}: {self.words}" if self.aspect else self.words
        if self.approximate:
            what = "approximation: " + what
        what = " ".join(what.split())
        if len(what) > MAX_WORDS:
            what = what[: MAX_WORDS - 1] + "…"
        return f"{self.card}, {where}, {what}"


def split_part(text: str) -> tuple[str, str, bool]:
    """"<aspect>: <words>" (or "approximation: <aspect>: <words>") -> (aspect, words, approximate)."""
    approximate = False
    s = text.strip()
    if s.lower().startswith("approximation:"):
        approximate = True
        s = s[len("approximation:"):].strip()
    head, sep, rest = s.partition(":")
    if sep and head.strip() and len(head) <= 40 and "(" not in head:
        return head.strip().lower(), rest.strip(), approximate
    return "", s, approximate


def parts_of(sc: Scenario) -> list[Part]:
    """Every unmodelled part of every card of the position, once, in card order."""
    out: list[Part] = []
    seen: set[tuple[str, int | None, str]] = set()
    lp_read = any(name == "pay_lp" for inst in sc.cards for e in inst.card.effects for name, _ in e.costs)

    def add(card: Card, idx: int | None, text: str) -> None:
        aspect, words, approx = split_part(text)
        key = (card.name, idx, " ".join(f"{aspect} {words} {approx}".lower().split()))
        if key in seen:
            return
        seen.add(key)
        continuous = any(e.index == idx and e.kind == "continuous" for e in card.effects)
        out.append(Part(card.name, idx, aspect, words, approx, continuous, lp_read))

    done: set[str] = set()
    for inst in sc.cards:
        card = inst.card
        if card.name in done:
            continue
        done.add(card.name)
        for idx, text in card.unmodelled_parts():
            add(card, idx, text)
        if card.origin != "library":
            for e in card.effects:
                if resolution_unknown(e):
                    add(card, e.index, "resolution: what it does on resolution is not modelled")
        dc = sc.derived.get(card.name)
        # the Yu-Gi-Oh! reader's per-effect reports (a Magic card from the list has its parts on the card)
        for r in getattr(dc, "reports", ()) if card.origin == "derived" else ():
            if r.status != "classified":
                why = "; ".join(r.reasons) or r.text or "not read"
                add(card, r.index, f"{r.status}: {why}")
            for u in r.unmodelled:
                add(card, r.index, u)
    return out


def listing(parts: list[Part]) -> str:
    """The parts for a message: at most a few, then how many more."""
    labels = [p.label() for p in parts]
    shown = "; ".join(labels[:MAX_LISTED])
    if len(labels) > MAX_LISTED:
        shown += f"; and {len(labels) - MAX_LISTED} more"
    return shown


def refuse(parts: list[Part], why: str = "") -> NotModelled:
    msg = listing(parts)
    if why:
        msg += f" ({why})"
    return NotModelled(msg)
