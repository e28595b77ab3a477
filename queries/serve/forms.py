"""The question builder's forms: every form the grammar (queries/grammar.lark)
accepts, as templates the web page fills in from menus.

A template is text with slots and optional parts:

- ``{name:type}`` is a slot; types: ``player``, ``card`` (a card of the
  position), ``effect`` (a card, "X's effect" or one of its abilities),
  ``cards`` (one or more cards), ``targets`` (cards or players), ``blocks``
  (Magic: "X blocks Y", one or more), ``point`` (a phase, step or sub-step),
  ``attack`` ("on X" or "directly"), ``paid`` (what was paid or chosen),
  ``int``, ``choice=a|b|c`` (one of the words), and the nested forms
  ``event``, ``base``, ``ing``, ``happening``, ``when``, ``outcome``;
- ``[...]`` is an optional part (no nesting).

Each form is named by its grammar alias (or rule name), so
tests/test_serve_forms.py can check that the forms are exactly the grammar's:
every alias has a form, every form is a grammar alias, and every template,
filled in every way, parses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

BOTH, YGO, MTG = ("ygo", "mtg"), ("ygo",), ("mtg",)

_PAID = "[ {paid:paid}]"
_TARGET = "[ targeting {t:targets}]"
_ZONES = "hand|deck|graveyard|gy|extra deck|banished zone|field"

# (alias, games, third person, base form after can/must, -ing form after "in response to P")
_EVENTS: list[tuple[str, tuple[str, ...], str | None, str | None, str | None]] = [
    ("e_draw", BOTH, "{p:player} draws", "{p:player} draw", "drawing"),
    ("e_normal_summon", YGO, "{p:player} normal summons {x:card}" + _PAID,
     "{p:player} normal summon {x:card}" + _PAID, "normal summoning {x:card}" + _PAID),
    ("e_normal_summon", YGO, "{p:player} tribute summons {x:card}" + _PAID,
     "{p:player} tribute summon {x:card}" + _PAID, "tribute summoning {x:card}" + _PAID),
    ("e_method_summon", YGO, "{p:player} {m:choice=fusion|ritual|synchro|xyz|link|pendulum} summons {x:card} using {u:cards}",
     "{p:player} {m:choice=fusion|ritual|synchro|xyz|link|pendulum} summon {x:card} using {u:cards}",
     "{m:choice=fusion|ritual|synchro|xyz|link|pendulum} summoning {x:card} using {u:cards}"),
    ("e_change_position", YGO, "{p:player} changes the battle position of {x:card}",
     "{p:player} change the battle position of {x:card}", "changing the battle position of {x:card}"),
    ("e_set", YGO, "{p:player} sets {x:card}", "{p:player} set {x:card}", "setting {x:card}"),
    ("e_flip_summon", YGO, "{p:player} flip summons {x:card}", "{p:player} flip summon {x:card}",
     "flip summoning {x:card}"),
    ("e_special_summon", YGO, "{p:player} special summons {x:card}[ from the {z:choice=" + _ZONES + "}]",
     "{p:player} special summon {x:card}[ from the {z:choice=" + _ZONES + "}]",
     "special summoning {x:card}[ from the {z:choice=" + _ZONES + "}]"),
    ("e_activate", BOTH, "{p:player} activates {x:effect}" + _TARGET + _PAID,
     "{p:player} activate {x:effect}" + _TARGET + _PAID, "activating {x:effect}" + _TARGET + _PAID),
    ("e_chain", YGO, "{p:player} chains {x:effect}" + _TARGET + _PAID,
     "{p:player} chain {x:effect}" + _TARGET + _PAID, "chaining {x:effect}" + _TARGET + _PAID),
    ("e_cast", MTG, "{p:player} casts {x:card}" + _TARGET, "{p:player} cast {x:card}" + _TARGET,
     "casting {x:card}" + _TARGET),
    ("e_play", MTG, "{p:player} plays {x:card}", "{p:player} play {x:card}", "playing {x:card}"),
    ("e_pass", BOTH, "{p:player} passes", "{p:player} pass", "passing"),
    ("e_declare_end", BOTH, "{p:player} declares the end of {pt:point}", "{p:player} declare the end of {pt:point}",
     "declaring the end of {pt:point}"),
    ("e_enter", BOTH, "{p:player} enters {pt:point}", "{p:player} enter {pt:point}", "entering {pt:point}"),
    ("e_attack", YGO, "{p:player} declares an attack with {x:card} {a:attack}",
     "{p:player} declare an attack with {x:card} {a:attack}", "declaring an attack with {x:card} {a:attack}"),
    ("e_expire", YGO, "{p:player} lets {x:effect} expire", "{p:player} let {x:effect} expire",
     "letting {x:effect} expire"),
    ("e_turn_face_up", MTG, "{p:player} turns {x:card} face up", "{p:player} turn {x:card} face up",
     "turning {x:card} face up"),
    ("e_discard", BOTH, "{p:player} discards {x:card}[ for the hand size limit]",
     "{p:player} discard {x:card}[ for the hand size limit]", "discarding {x:card}[ for the hand size limit]"),
    ("e_concede", BOTH, "{p:player} concedes", "{p:player} concede", "conceding"),
    ("e_declare_attackers", MTG, "{p:player} declares attackers with {xs:cards}",
     "{p:player} declare attackers with {xs:cards}", "declaring attackers with {xs:cards}"),
    ("e_declare_blockers", MTG, "{p:player} declares blockers: {b:blocks}", "{p:player} declare blockers: {b:blocks}",
     "declaring blockers: {b:blocks}"),
    ("e_declare_none", MTG, "{p:player} declares no {c:choice=attackers|blockers}", None,
     "declaring no {c:choice=attackers|blockers}"),
    ("e_respond", BOTH, None, "{p:player} respond", None),
]

# (alias, games, third person, -ing form after "in response to"): events no player performs
_HAPPENINGS: list[tuple[str, tuple[str, ...], str, str]] = [
    ("e_chain_resolves", BOTH, "the {c:choice=chain|stack} resolves", "the {c:choice=chain|stack} resolving"),
    ("e_resolves", BOTH, "{x:effect} resolves", "{x:effect} resolving"),
    ("e_combat_damage", MTG, "combat damage is dealt", "combat damage being dealt"),
    ("e_first_strike_damage", MTG, "first-strike damage is dealt", "first-strike damage being dealt"),
    ("e_begins", BOTH, "{pt:point} begins", "{pt:point} beginning"),
    ("e_ends", BOTH, "{pt:point} ends", "{pt:point} ending"),
]

_WHENS: list[tuple[str, tuple[str, ...], str, str]] = [
    ("w_now", BOTH, "now", "now"),
    ("w_after", BOTH, "after an event", "after {e:event}"),
    ("w_after_point", BOTH, "after a phase or step", "after {pt:point}"),
    ("w_before_event", BOTH, "before an event", "before {e:event}"),
    ("w_before_point", BOTH, "before a phase or step", "before {pt:point}"),
    ("w_during", BOTH, "during / at a phase or step", "{c:choice=during|at|in} {pt:point}"),
    ("w_in_response", BOTH, "in response to a player's action", "in response to {p:player} {e:ing}"),
    ("w_in_response", BOTH, "in response to something happening", "in response to {e:happening}"),
    ("w_while_resolves", BOTH, "while an effect resolves", "while {x:effect} resolves"),
    ("w_while_resolves", BOTH, "while an effect is resolving", "while {x:effect} is resolving"),
]

_OUTCOMES: list[tuple[str, tuple[str, ...], str, str]] = [
    ("o_miss_timing", YGO, "… miss the timing", "{x:effect} miss the timing"),
    ("o_resolve_negated", BOTH, "… resolve negated", "{x:effect} resolve negated"),
    ("o_resolve_unnegated", BOTH, "… resolve unnegated", "{x:effect} resolve {c:choice=unnegated|normally}"),
    ("o_activate", BOTH, "… activate", "{x:effect} activate"),
    ("o_resolve", BOTH, "… resolve", "{x:effect} resolve"),
    ("o_point_end", BOTH, "a phase or step end", "{pt:point} end"),
    ("o_replay", YGO, "a replay occur", "a replay occur"),
]

_WHEN = "[ {w:when}]"
_QUESTIONS: list[tuple[str, tuple[str, ...], str, str]] = [
    ("can_q", BOTH, "can … (yes/no: some continuation has it)", "can {e:base}" + _WHEN),
    ("must_q", BOTH, "must … (yes/no: every continuation has it)", "must {e:base}" + _WHEN),
    ("does_q", BOTH, "does … (yes / no / depends)", "does {o:outcome}" + _WHEN),
    ("who_q", BOTH, "who has / receives priority, who may act next",
     "who {c:choice=has priority|receives priority|may act next}" + _WHEN),
    ("order_q", BOTH, "in what order do X and Y go on the chain / resolve",
     "in what order do {x:card} and {y:card} {c:choice=go on the chain|go on the stack|resolve}" + _WHEN),
    ("chain_q", BOTH, "what is on the chain / stack", "what is on the {c:choice=chain|stack}" + _WHEN),
    ("count_q", BOTH, "how many legal chains are there", "how many legal {c:choice=chains|stacks} are there" + _WHEN),
    ("list_q", BOTH, "list every legal chain (with the chain tree)",
     "list {c:choice=every|all} legal {d:choice=chain|chains|stacks}" + _WHEN),
    ("when_q", BOTH, "when can a player activate / cast X",
     "when can {p:player} {c:choice=activate|cast|use} {x:card}"),
    ("next_q", BOTH, "which point comes next", "which point comes next" + _WHEN),
    ("chooses_q", BOTH, "who chooses the order of X and Y", "who chooses the order of {x:card} and {y:card}"),
]

# the ways to name an effect of a card (grammar: card_effect)
EFFECT_FORMS = [
    {"id": "plain_card", "template": "{card}"},
    {"id": "effect_of", "template": "{card}'s effect"},
    {"id": "ability_of", "template": "{card}'s {n} ability"},
    {"id": "ability_of_the", "template": "the {n} ability of {card}"},
]
ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth"]

# what was paid and chosen (grammar: paid)
PAID_FORMS = [
    {"id": "p_tribute", "template": "tributing {cards}"},
    {"id": "p_discard", "template": "discarding {cards}"},
    {"id": "p_banish", "template": "banishing {cards}"},
    {"id": "p_detach", "template": "detaching {cards}"},
    {"id": "p_detach_count", "template": "detaching {n} materials"},
    {"id": "p_send", "template": "sending {cards} to the GY"},
    {"id": "p_lp", "template": "paying {n} LP"},
    {"id": "p_mode", "template": "choosing the {ordinal} effect"},
]


def _entry(alias: str, games: tuple[str, ...], label: str, template: str) -> dict[str, Any]:
    return {"id": alias, "games": list(games), "label": label, "template": template}


def _plain(template: str) -> str:
    """A label from a template: slots shown by their type, optional parts in brackets."""
    text = template.replace("[ ", " [")
    text = re.sub(r"\{\w+:choice=([^}]*)\}", lambda m: m.group(1).replace("|", "/"), text)
    text = re.sub(r"\{\w+:(\w+)\}", lambda m: "<" + m.group(1) + ">", text)
    return text


def forms() -> dict[str, Any]:
    """Every form, by the slot type it fills (``question``, ``event``, ``base``,
    ``ing``, ``happening``, ``when``, ``outcome``), plus the effect and payment
    forms."""
    out: dict[str, list[dict[str, Any]]] = {k: [] for k in ("question", "event", "base", "ing", "happening",
                                                          "when", "outcome")}
    for alias, games, third, base, ing in _EVENTS:
        if third:
            out["event"].append(_entry(alias, games, _plain(third), third))
        if base:
            out["base"].append(_entry(alias, games, _plain(base), base))
        if ing:
            out["ing"].append(_entry(alias, games, _plain(ing), ing))
    for alias, games, third, ing in _HAPPENINGS:
        out["event"].append(_entry(alias, games, _plain(third), third))
        out["happening"].append(_entry(alias, games, _plain(ing), ing))
    for alias, games, label, tpl in _WHENS:
        out["when"].append(_entry(alias, games, label, tpl))
    for alias, games, label, tpl in _OUTCOMES:
        out["outcome"].append(_entry(alias, games, label, tpl))
    for alias, games, label, tpl in _QUESTIONS:
        out["question"].append(_entry(alias, games, label, tpl))
    return {**out, "effect_forms": EFFECT_FORMS, "paid_forms": PAID_FORMS, "ordinals": ORDINALS}


# ---------------------------------------------------------------- filling in (the page does the same in JS)

_TOKEN = re.compile(r"\[([^\]]*)\]|\{(\w+):([^}]*)\}|([^\[{]+)")


def parts(template: str) -> list[tuple[str, Any]]:
    """A template as parts: ("text", s), ("slot", (name, type)), ("optional", [parts])."""
    out: list[tuple[str, Any]] = []
    for m in _TOKEN.finditer(template):
        if m.group(1) is not None:
            out.append(("optional", parts(m.group(1))))
        elif m.group(2) is not None:
            out.append(("slot", (m.group(2), m.group(3))))
        else:
            out.append(("text", m.group(4)))
    return out


def fill(template: str, value: Callable[[str, str], str | None]) -> str:
    """The phrase of a template, each slot filled by ``value(name, type)``; an
    optional part is left out when ``value("?", "optional")`` or one of its
    slots gives None."""
    def render(ps: list[tuple[str, Any]]) -> str | None:
        text = ""
        for kind, p in ps:
            if kind == "text":
                text += p
            elif kind == "slot":
                v = value(*p)
                if v is None:
                    return None
                text += v
            elif value("?", "optional") is not None:
                sub = render(p)
                text += sub or ""
        return text

    return render(parts(template)) or ""


def slot_types(spec: Mapping[str, Any] | None = None) -> set[str]:
    spec = spec or forms()
    types = set()
    for group in ("question", "event", "base", "ing", "happening", "when", "outcome"):
        for f in spec[group]:
            for m in re.finditer(r"\{\w+:(\w+)", f["template"]):
                types.add(m.group(1))
    return types
