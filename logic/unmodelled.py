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

import re
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
#   static -- (any part of a continuous effect, and what it does: "continuous",
#             "restriction", "replacement", unless its words name a place off the
#             field) it never applies (restrictive) / it applies with any result
#             whenever its card is face-up on the field or battlefield (permissive)
# An aspect not listed (a trigger event -- when a trigger is triggered --, a restriction on the players, a
# widening such as "you can also activate this from your hand", a
# characteristic, text not understood) cannot be bounded by the two readings:
# the conservative refusal stays.
ASPECT_READINGS: dict[str, frozenset[str]] = {
    **{a: frozenset({"use"}) for a in (
        "condition", "activation condition", "qualifier", "window", "frequency", "responds to",
        "once per turn", "limit",
        # the event a Quick, Ignition or Spell/Trap effect answers is a condition of its activation
        # (a trigger's event is "trigger event": when it is triggered, not bounded)
        "event")},
    **{a: frozenset({"use", "cost"}) for a in ("cost", "cost clause does not parse")},
    "target": frozenset({"use", "cost", "result"}),
    # a trigger read as a wider event (it triggers on no more than that): like a condition
    "narrower trigger": frozenset({"use"}),
    **{a: frozenset({"result"}) for a in ("resolution", "result", "amount")},
    "damage": frozenset({"damage"}),
}


# Text of a Magic card that is no ability of the model but can matter only in
# one circumstance (docs/not-modelled.md, "Which aspects are bounded"):
#   zone:<Z>  -- while the card is in zone Z (a way to cast it or an ability used
#                from there: "casting it face down" from the hand, flashback from
#                the graveyard); the permissive reading lets it do anything
#                whenever the card is there
#   block     -- it only restricts which creatures may block the card (CR 509.1b):
#                anything whenever blockers are declared while it attacks
#   inert     -- it replaces or forbids an event the model has no event for
#                (searching a library): only an unknown result, itself an
#                unmodelled part checked on its own, could bring that event about
_NO_SUCH_EVENT = re.compile(r"^(?:if (?:a|an|each|any) (?:player|opponent)|if you) would (?:search|scry|surveil)\b"
                            r"[^.]*\binstead\.?$", re.I)


def card_scope(aspect: str, words: str) -> str | None:
    """The one circumstance in which a card-level part can matter, if there is one."""
    if aspect == "keyword":
        from logic.mtg_cards import KEYWORD_SCOPE

        low = words.lower()
        for kw, scope in KEYWORD_SCOPE.items():
            if re.match(re.escape(kw) + r"\b", low):
                return scope
        return None
    if aspect in ("replacement", "restriction") and _NO_SUCH_EVENT.match(words.strip()):
        return "inert"
    return None


def resolution_unknown(eff: Effect) -> bool:
    """Whether an effect of a card outside the library says too little of its
    resolution to model it: no actions, or only an ATK/DEF change whose amount is
    not known (the card-text reader's `atk_change`)."""
    if eff.kind == "continuous":
        return False
    return not eff.actions or (set(eff.actions) == {"atk_change"} and eff.amount is None)


# what a Continuous Effect does (its restriction, its replacement): the "static" reading
STATIC_ASPECTS = frozenset({"continuous", "restriction", "replacement"})
# a Continuous Effect that names another place may function there (in the hand, the GY ...),
# and one that lets this card be activated otherwise widens its activation
_OFF_FIELD = re.compile(r"\b(?:hand|gy|graveyard|banished|deck|extra deck|pendulum zone)\b"
                        r"|\bactivate this card\b|\bthis card (?:can|could) be activated\b")
_DS_STAT = re.compile(r"\b(?:atk|def|atk/def)\b")


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
    context: str = ""  # the effect's own text, where the part's words do not say what it is about

    @property
    def damage_step(self) -> frozenset[str]:
        """What the Damage Step rule (ygo/damage_step.lp) could let it be activated as, if the
        part says so (its permissive reading, ygo/unmodelled.lp): a result that may directly
        change ATK/DEF or negate an activation, a use limited to the Damage Step or damage
        calculation.  Read from the words: each of these acts names ATK/DEF, "negate", the
        Damage Step or damage calculation."""
        kinds = self.readings
        text = f"{self.words} {self.context}".lower() if self.effect is not None else ""
        out: set[str] = set()
        if kinds & {"result", "static"}:
            if _DS_STAT.search(text):
                out.add("stat_change")
            if "negat" in text:
                out.add("negates")
        if kinds & {"use", "static"}:
            if "damage step" in text:
                out.add("names_ds")
            if "damage calculation" in text:
                out.add("names_calc")
        return frozenset(out)

    @property
    def readings(self) -> frozenset[str]:
        """The kinds of reading that bound it (ASPECT_READINGS); empty: it cannot be bounded."""
        if self.effect is None:
            scope = card_scope(self.aspect, self.words)
            return frozenset({scope}) if scope else frozenset()
        if self.continuous and self.aspect in STATIC_ASPECTS and not _OFF_FIELD.search(self.words.lower()):
            # what a Continuous Effect does, a restriction or replacement it applies: it functions only
            # while its card is face-up on the field (its words name no other place)
            return frozenset({"static"})
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

    def add(card: Card, idx: int | None, text: str, context: str = "") -> None:
        aspect, words, approx = split_part(text)
        key = (card.name, idx, " ".join(f"{aspect} {words} {approx}".lower().split()))
        if key in seen:
            return
        seen.add(key)
        continuous = any(e.index == idx and e.kind == "continuous" for e in card.effects)
        out.append(Part(card.name, idx, aspect, words, approx, continuous, lp_read, context))

    done: set[str] = set()
    for inst in sc.cards:
        card = inst.card
        if card.name in done:
            continue
        done.add(card.name)
        for idx, text in card.unmodelled_parts():
            add(card, idx, text)
        dc = sc.derived.get(card.name)
        if card.origin != "library":
            texts = {r.index: r.text for r in getattr(dc, "reports", ())} if card.origin == "derived" else {}
            for e in card.effects:
                if resolution_unknown(e):
                    add(card, e.index, "resolution: what it does on resolution is not modelled",
                        texts.get(e.index) or e.summary or "")
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
