"""The answer in a judge's words (issue 17, item 3).

The first lines of a text answer: the verdict as a ruling, then one sentence
per deciding rule in rulebook terms with its public citation.  Cards are named
by their names and effects by what they are ("Effect Veiler's Quick Effect"),
points of the turn in game words ("during the Battle Step, after the attack is
declared"), players as the scenario names them.  Rule ids, boxes of the chart,
point keys and atom names stay in the details part (queries/render.py) and in
the JSON.  A "No" says the condition that fails, the deciding one first.
Search bounds are never reasons: an answer that rests on one says so as a
caveat.

Everything here reads what the answer already holds (its witness, its
why-not, its rules); nothing is searched again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from logic.cards import Effect
from logic.games import turn
from logic.registry import Rule
from logic.scenario import Scenario
from logic.vocabulary import YGO_ACTIONS, YGO_RESPONDS_TO_MEANING
from queries.search import describe
from queries.search.describe import _COND_WORDS
from queries.search.describe import _goal_step as goal_step
from queries.search.engine import Position, Step, Trace
from solver.terms import Function, Number, String

if TYPE_CHECKING:
    from queries.language.ast import Question
    from queries.rulings.answer import Answer, Asker

# ---------------------------------------------------------------- citations

_SEED = re.compile(r"^\d{3}\.[A-Za-z0-9]+")
# the project's own documents and code, cited for modelling choices (docs/sources.md,
# "Methods and the project's own documents"): kept to the details
_INTERNAL = ("chainjudge", "docs/", "encodings/", "logic/", "queries/", "core/", "LIMITATIONS.md", "README.md",
             "issue ")
# numbered sections of the outside notes the project started from (no longer cited: every
# %@source names public sources, tests/test_sources.py); the public document they restate
_SEED_PUBLIC = {"001": 'Konami, "Fast Effect Timing" (yugioh-card.com, 2012)'}


def _split(source: str) -> list[str]:
    """A source's parts, split at the semicolons outside parentheses and quotes."""
    parts, depth, quoted, cur = [], 0, False, ""
    for ch in source:
        if ch == '"':
            quoted = not quoted
        elif ch == "(" and not quoted:
            depth += 1
        elif ch == ")" and not quoted:
            depth = max(0, depth - 1)
        if ch == ";" and depth == 0 and not quoted:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return [p for p in parts if p]


def citation(source: str) -> str:
    """The public part of a rule's ``%@source``: the rulebook, Konami's pages,
    the Comprehensive Rules, card texts and rulings pages; the project's own
    documents and the numbered seed sections are left to the details."""
    parts = _split(source)
    public = [p for p in parts if not _SEED.match(p) and not p.startswith(_INTERNAL)]
    if not public:
        seeds = {p[:3] for p in parts if _SEED.match(p)}
        public = [_SEED_PUBLIC[s] for s in sorted(seeds) if s in _SEED_PUBLIC]
    text = "; ".join(public) if public else source.strip()
    return _clean(text)


def is_public(rule: Rule) -> bool:
    parts = _split(rule.source)
    return any(not _SEED.match(p) and not p.startswith(_INTERNAL) for p in parts) or \
        any(p[:3] in _SEED_PUBLIC for p in parts if _SEED.match(p))


_BOX = re.compile(r"\s*\((?:box|boxes) [A-E0-9, and]+\)|\s*\bbox [A-E]\b|\s*\bin box [A-E]\b")


# an aside that names the model's own settings ("(the casual house rule variant mana_abilities: ...)")
_INTERNAL_ASIDE = re.compile(r"\s*\([^()]*\b[a-z]+_[a-z_]+\b[^()]*\)")


def _clean(text: str) -> str:
    """A rule's text without the model's own names (the chart's box letters)."""
    text = _BOX.sub("", text)
    text = _INTERNAL_ASIDE.sub("", text)
    return re.sub(r"\s{2,}", " ", text).replace(" ,", ",").replace(" .", ".").strip()


def rule_text(rule: Rule) -> str:
    text = _clean(rule.text).rstrip()
    return text if text.endswith(".") else text + "."


_LOWER = {"A", "An", "The", "Only", "When", "After", "Each", "While", "If", "Every", "No", "In", "Once", "Neither",
          "Nobody", "During", "At", "Before", "As", "Two", "It", "Its"}


def _lower(text: str) -> str:
    first = text.split(" ", 1)[0]
    return text[0].lower() + text[1:] if first in _LOWER else text


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(text: str, rule: Rule) -> dict[str, str]:
    cite = citation(rule.source)
    body = text.rstrip().rstrip(".")
    return {"rule": rule.id, "sentence": f"{body} ({cite}).", "citation": cite}


# ---------------------------------------------------------------- names


def _s(sym: Any) -> str:
    return sym.string if getattr(sym, "type", None) is not None and sym.type.name == "String" else str(sym)


def card_name(sc: Scenario, cid: str) -> str:
    """A card by its name; by its name and handle where copies share the name."""
    try:
        inst = sc.instance(cid)
    except KeyError:
        return cid
    same = [i for i in sc.cards if i.card.name == inst.card.name]
    return inst.card.name if len(same) <= 1 else f"{inst.card.name} ({inst.id})"


_KIND_WORDS = {"ignition": "Ignition Effect", "quick": "Quick Effect", "trigger": "Trigger Effect",
               "flip": "FLIP effect", "continuous": "Continuous Effect", "phase": "effect",
               "triggered": "triggered ability", "activated": "activated ability", "loyalty": "loyalty ability",
               "mana": "mana ability", "static": "static ability"}
_ZONE_WORDS = {"hand": "from the hand", "set": "while Set", "monster": "on the field", "spell_trap": "on the field",
               "graveyard": "in the GY", "banished": "while banished", "deck": "from the Deck"}


_PHASE_WORDS = {"draw": "Draw Phase", "standby": "Standby Phase", "main": "Main Phase", "main1": "Main Phase 1",
                "main2": "Main Phase 2", "battle": "Battle Phase", "end": "End Phase"}


def _effect(sc: Scenario, cid: str, index: int) -> tuple[Any, Effect | None]:
    try:
        inst = sc.instance(cid)
    except KeyError:
        return None, None
    return inst, next((e for e in inst.card.effects if e.index == index), None)


def effect_name(sc: Scenario, cid: str, index: int) -> str:
    """An effect in words: "Effect Veiler's Quick Effect", "Mirror Force",
    "Judgment Dragon's Ignition Effect (destroy all other cards on the field)",
    "Infinite Impermanence (activated from the hand)", "Soul Warden's triggered ability"."""
    inst, eff = _effect(sc, cid, index)
    name = card_name(sc, cid)
    if inst is None or eff is None:
        return name
    if sc.game == "mtg":
        if eff.kind == "card":
            return name
        if eff.kind == "loyalty":
            cost = next((f"{'+' if n == 'loyalty_up' else '-'}{a}" for n, a in eff.costs if n.startswith("loyalty")), "")
            return f"{name}'s loyalty ability ({cost})" if cost else f"{name}'s loyalty ability"
        return f"{name}'s {_KIND_WORDS.get(eff.kind, 'ability')}"
    activatable = [e for e in inst.card.effects if e.kind != "continuous"]
    same_kind = [e for e in activatable if e.kind == eff.kind]
    if eff.kind == "card":
        base = name
        if len(same_kind) > 1:
            where = next((_ZONE_WORDS[z] for z in eff.zones if z in _ZONE_WORDS), "")
            return f"{name} (activated {where})" if where else f"{name} ({_does(eff)})"
        return base
    base = f"{name}'s {_KIND_WORDS.get(eff.kind, 'effect')}"
    phase = next((_PHASE_WORDS[a] for n, a in eff.conditions if n == "phase" and a in _PHASE_WORDS), None)
    if eff.kind == "phase" and phase and len(same_kind) == 1:
        return f"{name}'s {phase} effect"
    if eff.kind == "phase" or len(same_kind) > 1:
        does = _does(eff)
        return f"{base} ({does})" if does else base
    return base


def _does(eff: Effect) -> str:
    acts = [YGO_ACTIONS[a] for a in eff.actions if a in YGO_ACTIONS and a not in ("no_action", "unknown")]
    if acts:
        return acts[0]
    return f"its effect {eff.index}" if not eff.summary else eff.summary.split(";")[0]


def effect_of_symbol(sc: Scenario, eff: Any) -> str:
    try:
        return effect_name(sc, _s(eff.arguments[0]), eff.arguments[1].number)
    except (AttributeError, IndexError):
        return _s(eff)


def effect_of_string(sc: Scenario, text: str) -> str:
    """An effect named as in a reason ('eff("Effect Veiler",1)')."""
    m = re.match(r'eff\("(.*)",(\d+)\)$', text.strip())
    if not m:
        return text
    return effect_name(sc, m.group(1), int(m.group(2)))


def words(sc: Scenario, text: str) -> str:
    """A phrase of the timeline in names: handles and "X (effect N)" labels replaced."""

    subs: dict[str, str] = {}
    for inst in sc.cards:
        for e in inst.card.effects:
            label = describe.effect_label(sc, Function("eff", [String(inst.id), Number(e.index)]))
            if label != inst.id:
                subs[label] = effect_name(sc, inst.id, e.index)
        if inst.id != card_name(sc, inst.id):
            subs[inst.id] = card_name(sc, inst.id)
    for p in turn(sc.game).points:
        if re.search(r"[._\d]", p.name):
            subs[p.name] = turn(sc.game).title(p.key)
    pattern = re.compile("|".join(re.escape(k) for k in sorted(subs, key=len, reverse=True)) + r"(?![\w'])")
    return pattern.sub(lambda m: subs[m.group(0)], text)


# ---------------------------------------------------------------- points of the turn

_DURING = {
    "ygo": {"draw": "during the Draw Phase", "standby": "during the Standby Phase", "main1": "during Main Phase 1",
            "bp_start": "during the Start Step of the Battle Phase", "bp_battle": "during the Battle Step",
            "bp_attack": "during the Battle Step, after the attack is declared",
            "bp_window": "during the Battle Step, after the attack declaration",
            "ds_start": "at the start of the Damage Step",
            "ds_before": "during the Damage Step, before damage calculation",
            "ds_calc": "during damage calculation", "ds_after": "during the Damage Step, after damage calculation",
            "ds_end": "at the end of the Damage Step", "bp_end": "during the End Step of the Battle Phase",
            "main2": "during Main Phase 2", "end": "during the End Phase", "turn_end": "at the end of the turn"},
}


# the phases and steps a judge says "the end of" (not the sub-steps of the Damage Step)
_PHASES_AND_STEPS = ("draw", "standby", "main1", "bp_start", "bp_battle", "bp_window", "bp_end", "main2", "end")


def during(sc: Scenario, key: str) -> str:
    d = _DURING.get(sc.game, {}).get(key)
    if d:
        return d
    title = turn(sc.game).title(key) if key else "this point"
    return f"at {title}" if key == "turn_end" else f"during {title}"


def _key_of_public(sc: Scenario, name: str) -> str:
    for p in turn(sc.game).points:
        if p.name == name:
            return p.key
    return name


def moment(sc: Scenario, pos: Position) -> str:
    """A position as a judge says it: the point of the turn and, in Yu-Gi-Oh!,
    who may act there by the Fast Effect Timing chart."""
    at = pos.value("at")
    key = at.name if at is not None else ""
    where = during(sc, key)
    if sc.game != "ygo":
        return where
    box = pos.value("box")
    b = box.name if box is not None else "none"
    tp = sc.turn_player
    title = turn(sc.game).title(key) if key else "this point"
    if b == "a":
        return f"{where}, in the open game state"
    if b == "b":
        return f"{where}, once the previous action or chain is over ({tp} may act first)"
    if b == "c":
        return f"{where}, after {tp} passes"
    if b == "d":
        return f"{where}, in response to the last Chain Link"
    if b in ("e", "e0"):
        if key in _PHASES_AND_STEPS:
            return f"at the end of {title}, after {tp} declares the end of it"
        return f"{where}, after {tp} declares the end of it"
    return where


def window_words(sc: Scenario, w: dict[str, str]) -> str:
    key = _key_of_public(sc, w.get("point", ""))
    tp = sc.turn_player
    box = (w.get("box") or "").lower()
    title = turn(sc.game).title(key)
    where = during(sc, key)
    end = f"at the end of {title} (after {tp} declares its end)" if key in _PHASES_AND_STEPS else \
        f"{where} (after {tp} declares its end)"
    return {"a": f"{where} in the open game state", "b": f"{where} once an action or chain is over",
            "c": f"{where} after {tp} passes", "d": f"{where} in response to a Chain Link",
            "e": end, "e0": end}.get(box, where)


# ---------------------------------------------------------------- conditions


def _controls(pos: Position, player: str) -> list[str]:
    owned = {_s(k.arguments[0]) for k, v in pos.values("ctrl") if _s(v) == player}
    on_field = {_s(k.arguments[0]) for k, v in pos.values("zone")
                if str(v) in ("monster", "spell_trap", "field")}
    return sorted(owned & on_field)


def condition_words(sc: Scenario, cond: str, player: str, pos: Position | None) -> tuple[str, str]:
    """(what the condition needs, what holds instead), in words."""
    tp = sc.turn_player
    other = next((p for p in sc.players if p != player), "the opponent")
    at = pos.value("at") if pos is not None else None
    key = at.name if at is not None else ""
    now = turn(sc.game).title(key) if key else ""
    m = re.match(r"(\w+)(?:\((.*)\))?$", cond)
    name, arg = (m.group(1), m.group(2)) if m else (cond, None)
    if name == "turn":
        need = f"it to be {player}'s own turn" if arg == "own" else f"it to be {other}'s turn (not {player}'s own)"
        return need, f"it is {tp}'s turn"
    if name == "phase":

        need = _COND_WORDS.get(cond, f"the {arg.replace('_', ' ')}" if arg else cond)
        return f"to be activated {need}", (f"it is {now}" if now else "that does not hold then")
    if name == "controls_no_cards":
        cards = _controls(pos, player) if pos is not None else []
        which = f" ({', '.join(card_name(sc, c) for c in cards)})" if cards else ""
        return f"{player} to control no cards", f"{player} controls a card{which}"
    if name == "summoned_atk_at_least":
        return f"the Summoned monster to have at least {arg} ATK", "no monster with that much ATK has just been Summoned"
    if name == "opponent_summoned_at_least":
        return f"{other} to have Summoned at least {arg} monsters this turn", f"{other} has Summoned fewer"
    if name in ("summoned", "would_be_summoned"):
        who, kind = (arg or "any,any").split(",")[:2]
        whose = {"opponent": f"{other}'s", "self": f"{player}'s", "any": "a"}.get(who, "a")
        how = {"normal": "Normal", "flip": "Flip", "special": "Special", "normal_or_flip": "Normal or Flip"}.get(kind, "")
        verb = "is about to be" if name == "would_be_summoned" else "has just been"
        return (f"{whose} monster to {'be about to be' if name == 'would_be_summoned' else 'have just been'} "
                f"{how + ' ' if how else ''}Summoned", f"no monster {verb} Summoned that way then")
    if name == "responds":
        return "a Chain Link of the kind its text answers to respond to", "there is no such Chain Link to respond to"
    if name == "has_material":
        return "this Xyz Monster to have material", "it has none"
    if name == "no_material":
        return "this Xyz Monster to have no material", "it has material"
    if name == "added_from_deck":
        return "a card to have just been added from the Main Deck to the hand", "that has not just happened"

    said = _COND_WORDS.get(cond) or _MORE_COND_WORDS.get(name)
    if said is None:
        said = cond.split("(")[0].replace("_", " ")
    return f"the moment its text names ({said})", "that does not hold then"


_MORE_COND_WORDS = {
    "battle_damage_would_be_taken": "when its controller would take battle damage",
    "direct_attack_declared": "when a monster declares a direct attack",
    "self_attacked": "while this card is the target of an attack",
    "own_monster_destroyed": "right after a monster its controller controls is destroyed and sent to the GY",
}


def _responds_words(eff: Effect) -> str:
    kinds = [YGO_RESPONDS_TO_MEANING.get(k, k.replace("_", " ")) for _, k in eff.responds_to]
    return " or ".join(kinds)


# ---------------------------------------------------------------- the parts of a ruling


def _goal_step(trace: Trace | None) -> Step | None:
    return goal_step(trace)


def _rule(asker: Asker, rid: str) -> Rule | None:
    atom = rid.replace(".", "_")
    return asker.engine.rules.get(atom)


def _deciding(asker: Asker, items: Iterable[dict[str, str]]) -> tuple[list[Rule], list[Rule]]:
    """The rules of an answer a judge is shown (rules of the game and their
    definitions with a public citation), and the search bounds it rests on."""
    rules: list[Rule] = []
    bounds: list[Rule] = []
    for it in items:
        r = _rule(asker, it.get("rule", ""))
        if r is None:
            continue
        if r.kind == "bound":
            if r not in bounds:
                bounds.append(r)
        elif _shown(r) and r not in rules:
            rules.append(r)
    if any(r.kind != "structural" for r in rules):  # the model's bookkeeping only where nothing else says it
        rules = [r for r in rules if r.kind != "structural"]
    return rules, bounds


def _shown(r: Rule) -> bool:
    """A rule a judge is shown: a rule of the game or a definition; the model's
    own bookkeeping only where it states a rule with a public source."""
    return r.kind not in ("bound", "structural") or is_public(r)


def _event_words(sc: Scenario, step: Step) -> str:

    return words(sc, describe.event_text(sc, step))


def _fail_sentences(asker: Asker, conds: Sequence[tuple[str, str]], pos: Position | None) -> list[str]:
    sc = asker.sc
    out = []
    for eff, cond in conds:
        m = re.match(r'eff\("(.*)",(\d+)\)$', eff.strip())
        player = sc.turn_player
        if m:
            try:
                player = sc.instance(m.group(1)).controller
            except KeyError:
                pass
        need, instead = condition_words(sc, cond, player, pos)
        out.append(f"{effect_of_string(sc, eff)} needs {need}, and {instead}")
    return out


def _specific(asker: Asker, rule: Rule, step: Step | None, fails: list[str]) -> str:
    """The rule said about this case, where the case makes it plain."""
    sc = asker.sc
    if step is None or step.event.name != "activate":
        return ""
    eff = step.event.arguments[1]
    what = effect_of_symbol(sc, eff)
    inst, e = _effect(sc, _s(eff.arguments[0]), eff.arguments[1].number)
    short = rule.id.split(".", 1)[-1]
    if short == "activation.condition" and fails:
        return "; ".join(fails)
    if short == "speed.response" and e is not None:
        links = sorted(step.before.has("link"), key=lambda f: f.arguments[0].number)
        if links:
            top = links[-1].arguments[1]
            _, te = _effect(sc, _s(top.arguments[0]), top.arguments[1].number)
            if te is not None:
                return (f"{what} is Spell Speed {e.speed} and cannot respond to {effect_of_symbol(sc, top)}, "
                        f"which is Spell Speed {te.speed}")
    if short == "speed.ss1_first_link" and e is not None:
        return f"{what} is Spell Speed 1"
    if short == "activation.zone" and inst is not None and e is not None:
        z = _s(step.before.value(f'zone("{inst.id}")')) if step.before.value(f'zone("{inst.id}")') else ""
        zone = {"hand": "in the hand", "spell_trap": "on the field", "monster": "on the field",
                "graveyard": "in the GY", "deck": "in the Deck"}.get(z, "where it is")
        where = " or ".join(w for w in (_ZONE_WORDS.get(x, "") for x in e.zones) if w) or "where its text says"
        return f"{what} can only be activated {where}, and it is {zone}"
    if short in ("timing.sorcery", "land.timing", "loyalty.timing"):
        return _sorcery_timing(sc, step.before, _s(step.event.arguments[0]), what)
    if short == "trap.not_the_turn_set":
        return f"{card_name(sc, _s(eff.arguments[0]))} was Set this turn, and a Trap Card cannot be activated the turn it is Set"
    if short == "activate.controller":
        return f"{card_name(sc, _s(eff.arguments[0]))} is controlled by {inst.controller if inst else 'the other player'}"
    return ""


def _sorcery_timing(sc: Scenario, pos: Position, player: str, what: str) -> str:
    """Magic: which part of "only in your main phase with an empty stack" fails."""

    links = describe.chain_links(pos)
    at = pos.value("at")
    key = at.name if at is not None else ""
    fails = []
    if player != sc.turn_player:
        fails.append(f"it is {sc.turn_player}'s turn")
    if key not in ("main1", "main2"):
        fails.append(f"it is {turn(sc.game).title(key)}" if key else "it is not a main phase")
    if links:
        fails.append("the stack is not empty (" + ", ".join(card_name(sc, _s(e.arguments[0])) for _, e, _, _ in links) + " on it)")
    return f"{what} needs its controller's own main phase with an empty stack, and " + " and ".join(fails) if fails else ""


def _no_part(asker: Asker, ans: Answer) -> tuple[list[dict[str, str]], list[Rule]]:
    """The reasons of a "No" (or of a forced "Yes"): per rule, in words, the
    deciding condition first."""
    wn = ans.traces.get("why_not")
    sc = asker.sc
    rules, bounds = _deciding(asker, ans.because)
    reasons: list[dict[str, str]] = []
    if wn is None:
        return [_sentence(rule_text(r), r) for r in rules], bounds
    single = {atom: (trace, conds) for atom, trace, conds in getattr(wn, "single", [])}
    cf_step = _goal_step(wn.counterfactual)
    done: set[str] = set()
    # the first minimal set decides; its card conditions first
    order = []
    for reason in wn.reasons:
        for a in reason.rules:
            if a in wn.rules and a not in order:
                order.append(a)
    order.sort(key=lambda a: (0 if wn.rules[a].id.endswith("activation.condition") else 1))
    for atom in order:
        r = wn.rules[atom]
        if r.kind == "bound":
            if r not in bounds:
                bounds.append(r)
            continue
        if not _shown(r) or r.id in done:
            continue
        done.add(r.id)
        trace, conds = single.get(atom, (wn.counterfactual, wn.failing_conditions))
        step = _goal_step(trace) or cf_step
        fails = _fail_sentences(asker, conds, step.before if step is not None else None)
        text = _specific(asker, r, step, fails)
        sent = _sentence(f"{text}: {_lower(rule_text(r))}" if text else rule_text(r), r)
        if text:
            sent["condition"] = text
        reasons.append(sent)
    for r in rules:  # rules of the answer that no reason set names
        if r.id not in done and r.kind != "structural":
            done.add(r.id)
            reasons.append(_sentence(rule_text(r), r))
    del sc
    return reasons, bounds


def _yes_part(asker: Asker, ans: Answer, trace: Trace | None) -> list[dict[str, str]]:
    """The reasons of a "Yes": where the chance comes from, and the card's
    condition that holds there."""

    sc = asker.sc
    step = _goal_step(trace)
    out: list[dict[str, str]] = []
    if step is None:
        rules, _ = _deciding(asker, ans.because)
        return [_sentence(rule_text(r), r) for r in rules[:3]]
    chance = describe._chance_rules(sc, step.before)
    pr = step.before.value("priority")
    who = _s(pr) if pr is not None and pr.type.name == "String" else None
    for r in chance[:1]:
        lead = f"{_upper(moment(sc, step.before))}, {who} has the chance to act" if who \
            else _upper(moment(sc, step.before))
        out.append(_sentence(f"{lead}: {_lower(rule_text(r))}", r))
    if step.event.name == "activate":
        eff = step.event.arguments[1]
        inst, e = _effect(sc, _s(eff.arguments[0]), eff.arguments[1].number)
        cond_rule = asker.engine.rules.get("ygo_activation_condition")
        if e is not None and e.conditions and cond_rule is not None and sc.game == "ygo":

            needs = []
            for name, arg in e.conditions:
                key = f"{name}({arg})" if arg else name
                if name == "responds" and e.responds_to:
                    needs.append("in response to " + _responds_words(e))
                else:
                    needs.append(_COND_WORDS.get(key) or condition_words(sc, key, inst.controller, step.before)[0])
            out.append(_sentence(f"{effect_of_symbol(sc, eff)} can be activated then: what its text requires "
                                 f"({'; '.join(needs)}) holds", cond_rule))
    return out


def _caveats(asker: Asker, ans: Answer, bounds: Sequence[Rule]) -> list[str]:
    out = []
    for r in bounds:
        out.append(f"This answer rests on a bound of the search, not on a rule of the game: {rule_text(r)}")
    for n in ans.notes:
        if "bound of the search" in n:
            continue
        out.append(note_words(asker.sc, _upper(n) + ("" if n.endswith(".") else ".")))
    return out


_ORD = {1: "1st", 2: "2nd", 3: "3rd"}


def note_words(sc: Scenario, note: str) -> str:
    """A note of the answer in a judge's words: "Marshmallon, effect 2, approximation:
    damage: ..." -> "Marshmallon's 2nd effect (approximation: damage): ..."; the names
    of the readings stay in the details."""
    note = re.sub(r"\s*\((?:unmodelled|ygo|mtg|core)\.[a-z_.]+\)", "", note)

    def eff(m: re.Match[str]) -> str:
        n = int(m.group(2))
        return f"{m.group(1)}'s {_ORD.get(n, f'{n}th')} effect, {m.group(3)}:"

    note = re.sub(r"((?:^|(?<=[:;] ))[^:;,]+?), effect (\d+), ([a-z ]+?):", eff, note)
    return words(sc, note)


_VERDICT = {"yes": "Yes", "no": "No", "depends": "It depends"}


def _asked(asker: Asker, q: Question) -> str:
    """The asked event or outcome, in names."""
    text = q.text.strip().rstrip("?")
    return words(asker.sc, text)


def _verdict_line(asker: Asker, q: Question, ans: Answer) -> str:
    sc = asker.sc
    v = ans.verdict
    if v is not None:
        line = _VERDICT.get(v, v)
        trace = ans.traces.get("witness")
        step = _goal_step(trace)
        if q.kind == "can" and v == "yes" and step is not None:
            return f"{line}: {_can(_event_words(sc, step))} {moment(sc, step.before)}."
        if q.kind == "can" and v == "no":
            asked = _asked(asker, q)
            player = q.event.player if q.event is not None else None
            if player and asked.lower().startswith(f"can {player.lower()} "):
                return f"{line}: {player} cannot {asked[len(player) + 5:]}."
            return f"{line}: it cannot happen ({asked})."
        player = q.event.player if q.event is not None else None
        asked = _asked(asker, q)
        rest = asked[len(player) + 6:] if player and asked.lower().startswith(f"must {player.lower()} ") else ""
        if q.kind == "must" and v == "yes":
            return f"{line}: {player} must {rest}, in every legal continuation." if rest else \
                f"{line}: it happens in every legal continuation ({asked})."
        if q.kind == "must" and v == "no":
            lead = f"{player} need not {rest}" if rest else "there is a legal continuation without it"
            return f"{line}: {lead}; for example: {_witness_words(sc, trace)}."
        if q.kind == "does" and v == "yes":
            return f"{line}: {_outcome(asker, q)}, in every legal continuation."
        if q.kind == "does" and v == "no":
            return f"{line}: in no legal continuation {_outcome(asker, q, negative=True)}."
        if v == "depends":
            choices = ans.detail.get("choices") or []
            steps = ans.traces.get("choice_steps") or []
            if choices:
                parts = [f"if {c['player']} {words(sc, c['does'])} "
                         f"({moment(sc, steps[i].before) if i < len(steps) else _where(sc, c)}), {c['then']}"
                         for i, c in enumerate(choices)]
                return f"{line} on a choice: " + "; ".join(parts) + "."
            return f"{line}: some legal continuations have it and others do not."
        return line + "."
    return _other_line(asker, q, ans)


_BASE = {"activates": "activate", "chains": "chain", "casts": "cast", "declares": "declare", "passes": "pass",
         "lets": "let", "plays": "play", "sets": "Set", "discards": "discard", "turns": "turn", "draws": "draw",
         "normal": "Normal", "flip": "Flip", "special": "Special", "tribute": "Tribute", "concedes": "concede"}


def _can(event: str) -> str:
    """"B activates X" -> "B can activate X"."""
    parts = event.split(" ", 2)
    if len(parts) >= 2 and parts[1] in _BASE:
        verb = _BASE[parts[1]]
        rest = parts[2] if len(parts) > 2 else ""
        if verb in ("Normal", "Flip", "Special", "Tribute") and rest.startswith("summons"):
            rest = "Summon" + rest[len("summons"):]
        return f"{parts[0]} can {verb} {rest}".rstrip()
    return f"it can happen: {event}"


_WHEN = re.compile(r"\s(after|during|before|in response to|while|at|now)\b.*$", re.IGNORECASE)


def _outcome(asker: Asker, q: Question, negative: bool = False) -> str:
    """The outcome a "does" question asks about, in words, with its moment as asked."""
    sc = asker.sc
    o = q.outcome
    m = _WHEN.search(q.text.strip().rstrip("?"))
    when = words(sc, m.group(0)) if m else ""
    if o is None:
        return "it happens" + when
    card = words(sc, o.card.text) if o.card is not None else ""
    said = {"miss_timing": f"{card}'s effect misses the timing",
            "resolve_negated": f"{card}'s effect resolves negated",
            "resolve_unnegated": f"{card}'s effect resolves without being negated",
            "activate": f"{card}'s effect is activated", "resolve": f"{card} resolves",
            "point_end": f"{words(sc, o.point or 'the point')} ends"}.get(o.kind, "it happens")
    if o.kind == "point_end" and m and o.point and m.start() < q.text.find(o.point):
        when = ""
    return said + when


def _where(sc: Scenario, c: dict[str, Any]) -> str:
    return during(sc, _key_of_public(sc, c.get("point", "")))


def _witness_words(sc: Scenario, trace: Trace | None) -> str:

    if trace is None:
        return "see the timeline"
    steps = describe.until_goal(trace)
    acts = [words(sc, describe.event_text(sc, s)) for s in steps if s.event.name not in ("idle",)][:3]
    return ", then ".join(acts) if acts else "nothing more happens"


def _items(sc: Scenario, a: Any) -> str:
    """A list of chain links (handles or names) in names."""
    if isinstance(a, list):
        return ", ".join(_items(sc, x) for x in a)
    return words(sc, str(a))


def _other_line(asker: Asker, q: Question, ans: Answer) -> str:
    sc = asker.sc
    a = ans.answer
    chain = "stack" if sc.game == "mtg" else "chain"
    if q.kind in ("who_has", "who_receives", "who_acts"):
        pos = ans.traces.get("position")
        where = moment(sc, pos) if pos is not None else ""
        if a == "nobody":
            return f"Nobody: no player may act {where}." if where else "Nobody may act then."
        if isinstance(a, list):
            return f"It depends on how the position was reached: {' or '.join(a)} may act next {where}.".replace(" .", ".")
        verb = "has priority" if sc.game == "mtg" and q.kind == "who_has" else "may act next"
        return f"{a} {verb} {where}." if where else f"{a} {verb}."
    if q.kind == "chain":
        links = a if a and not isinstance(a[0], list) else (a[0] if a else [])
        if not links:
            return f"Nothing: the {chain} is empty."
        detail = ans.detail.get("links") or []
        parts = []
        for i, lab in enumerate(links, 1):
            ctrl = next((d.get("controller") for d in detail if d.get("card") == lab), None)
            parts.append(f"{i}. {_items(sc, lab)}" + (f" ({ctrl})" if ctrl else ""))
        first = "Chain Link 1" if sc.game == "ygo" else "the bottom of the stack"
        return f"On the {chain}, from {first}: " + "; ".join(parts) + "."
    if q.kind == "order":
        if a is None:
            return f"They never go on the same {chain} from this position."
        if a and isinstance(a[0], list):
            return "Either order is possible: " + " or ".join(" then ".join(_items(sc, x) for x in o) for o in a) + "."
        if ans.detail.get("order", "").startswith("resolution"):
            return f"{_items(sc, a[0])} resolves first, then {_items(sc, a[1])}."
        return f"{_items(sc, a[0])} goes on the {chain} first, then {_items(sc, a[1])}."
    if q.kind == "when_can":
        if not a:
            return f"Never this turn: {q.player} cannot activate it at any point from this position."
        ws = [window_words(sc, w) for w in a]
        count = f"{len(ws)} windows" if len(ws) != 1 else "1 window"
        return f"{q.player} can activate it in {count} this turn: " + "; ".join(ws) + f". The latest is {ws[-1]}."
    if q.kind == "next_point":
        key = ans.traces.get("next_key")
        if a is None or key is None:
            return "No point follows from here."
        title = turn(sc.game).title(key)
        return f"{title[0].upper()}{title[1:]} comes next" + (" (the next turn)." if ans.detail.get("next_turn") else ".")
    if q.kind == "chooses":
        if a == "nobody":
            return "Nobody chooses: " + (ans.summary or "the rules fix the order.")
        return f"{a} chooses. " + words(sc, ans.summary)
    if q.kind in ("count", "list"):
        n = len(a) if isinstance(a, list) else a
        said = words(sc, ans.summary).strip()
        line = _upper(said) + ("" if said.endswith(".") else ".") if said and said[0].isdigit() else \
            f"{n} legal {chain}(s)." + (f" {said}" if said else "")
        if q.kind == "list" and isinstance(a, list) and 0 < len(a) <= 6:
            each = [" then ".join(_items(sc, x) for x in c) if isinstance(c, list) and c else
                    ("no chain at all" if isinstance(c, list) else _items(sc, c)) for c in a]
            line += " " + "; ".join(f"{i}. {e}" for i, e in enumerate(each, 1)) + "."
        return line
    return words(sc, str(a)) + "."


def _checked_and_held(ans: Answer) -> set[str]:
    """The rules a witness's events were checked against and met (not what
    decides the answer: what gave the chance, or what forbids the other way)."""
    held: set[str] = set()
    for key in ("witness", "yes", "no"):
        trace = ans.traces.get(key)
        for st in getattr(trace, "steps", []) or []:
            held.update(st.applied)
    return held


def annotate(asker: Asker, q: Question, ans: Answer) -> None:
    """Put the judge's words on the answer (``ans.ruling``)."""
    sc = asker.sc
    reasons: list[dict[str, str]]
    bounds: list[Rule] = []
    v = ans.verdict
    wn = ans.traces.get("why_not")
    if v == "no" and q.kind == "can" or (v in ("no",) and q.kind == "does") or (v == "yes" and q.kind == "must"):
        reasons, bounds = _no_part(asker, ans)
    elif v == "yes" and q.kind in ("can", "does"):
        reasons = _yes_part(asker, ans, ans.traces.get("witness"))
        if q.kind == "does" and wn is not None:  # what forces it
            forced, bounds = _no_part(asker, ans)
            seen = {r["rule"] for r in reasons}
            reasons += [r for r in forced if r["rule"] not in seen]
    else:
        rules, bounds = _deciding(asker, ans.because)
        held = _checked_and_held(ans)
        rules = [r for r in rules if r.atom not in held]
        if q.kind == "when_can" and sc.game == "ygo" and isinstance(ans.answer, list) and ans.answer:
            boxes = {str(w.get("box", "")).lower().rstrip("0") for w in ans.answer if isinstance(w, dict)}
            rules = [r for r in rules if not r.id.startswith("ygo.fet.box_") or r.id[-1] in boxes]
            rules = [r for r in rules if r.id != "ygo.speed.response" or "d" in boxes]
        reasons = [_sentence(rule_text(r), r) for r in rules]
    if not reasons and v is not None and ans.summary and not ans.summary.startswith("The rule"):
        reasons = []
    lines = [_verdict_line(asker, q, ans)]
    if v == "no" and q.kind == "can":
        if not reasons and ans.summary:
            lines.append(words(sc, _clean(ans.summary)))
        if ans.latest_chance:
            lines.append(f"Latest chance: {window_words(sc, ans.latest_chance)}.")
    lines += [r["sentence"] for r in reasons]
    caveats = _caveats(asker, ans, bounds)
    ans.ruling = {"lines": lines, "reasons": reasons, "caveats": caveats}
