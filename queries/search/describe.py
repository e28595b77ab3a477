"""Turning positions, events and traces back into words a judge can check."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from logic.cards import Effect
from logic.games import turn
from logic.registry import Rule, registry
from logic.scenario import Scenario
from queries.language.ast import Question, Ref
from queries.search.engine import Position, Step, Trace
from solver.terms import Symbol

# Which constraint bodies concern which event (for "the rules checked when it happened").
_EVENT_MARKERS = {
    "activate": ("_activates(", "activate(", "_acting("),
    "pass": ("pass(", "_acting("),
    "normal_summon": ("normal_summon(", "open_action(", "_summons(", "_acting("),
    "set_monster": ("set_monster(", "open_action(", "_summons(", "_acting("),
    "set_spell_trap": ("set_spell_trap(", "open_action(", "_acting("),
    "declare_attack": ("declare_attack(", "open_action(", "_acting("),
    "draw": ("draw(", "open_action(", "_acting("),
    "expire": ("expire(", "_acting("),
}


def label(sc: Scenario, cid: str) -> str:
    return cid


def key_name(sc: Scenario, key: str) -> str:
    return turn(sc.game).public_name(key)


def point_name(sc: Scenario, pos: Position) -> str:
    at = pos.value("at")
    return key_name(sc, at.name) if at is not None else "?"


def point_title(sc: Scenario, pos: Position) -> str:
    at = pos.value("at")
    return turn(sc.game).title(at.name) if at is not None else "?"


def _s(sym: Symbol) -> str:
    return sym.string if sym.type.name == "String" else str(sym)


def effect_label(sc: Scenario, eff: Symbol) -> str:
    cid = _s(eff.arguments[0])
    try:
        inst = sc.instance(cid)
    except KeyError:
        return cid
    if sc.game == "mtg":
        return cid  # docs/questions.md: a stack object is named by its card's id (detail says which ability)
    activatable = [e for e in inst.card.effects if e.kind != "continuous"]
    if len(activatable) > 1:
        return f"{cid} (effect {eff.arguments[1].number})"
    return cid


def event_text(sc: Scenario, step: Step) -> str:
    e = step.event
    n = e.name
    args = e.arguments
    if sc.game == "mtg":
        text = mtg_event_text(sc, step)
        if text is not None:
            return text
    if n == "pass":
        p = _s(args[0])
        box_before = step.before.value("box")
        box_after = step.after.value("box")
        if sc.game == "ygo" and box_before is not None and box_before.name == "a" and box_after is not None \
                and box_after.name in ("e", "e0"):
            return f"{p} declares the end of {point_title(sc, step.before)}"
        return f"{p} passes"
    if n == "activate":
        p, eff, x = _s(args[0]), args[1], args[2]
        chain_before = step.before.value("chain_len")
        verb = "chains" if chain_before is not None and chain_before.number > 0 else "activates"
        if sc.game == "mtg":
            verb = "casts" if _is_spell_cast(sc, eff) else "activates"
        text = f"{p} {verb} {effect_label(sc, eff)}"
        if not (x.type.name == "Function" and x.name == "none"):
            text += f" targeting {_s(x)}"
        return text
    if n == "draw":
        return f"{_s(args[0])} draws"
    if n == "normal_summon":
        return f"{_s(args[0])} normal summons {_s(args[1])}"
    if n in ("set_monster", "set_spell_trap"):
        return f"{_s(args[0])} sets {_s(args[1])}"
    if n == "declare_attack":
        tgt = "directly" if args[2].type.name == "Function" and args[2].name == "direct" else f"on {_s(args[2])}"
        return f"{_s(args[0])} declares an attack with {_s(args[1])} {tgt}"
    if n == "resolve":
        parts = []
        for r in step.resolved:
            eff, how = r.arguments[0], r.arguments[2].name
            parts.append(f"{effect_label(sc, eff)} resolves" + (" (negated)" if how == "negated" else ""))
        return "; ".join(parts) or "a chain link resolves"
    if n == "advance":
        key = args[0].name
        return "the turn ends" if key == "turn_end" else f"{turn(sc.game).title(key)} begins"
    if n == "expire":
        return f"{_s(args[0])} lets {_s(args[1]) if args[1].type.name == 'String' else _expiry_label(sc, args[1])} expire"
    return str(e)


# ---------------------------------------------------------------- Magic (issue 6)


def mtg_ability_label(sc: Scenario, eff: Symbol) -> str:
    """A Magic ability in words: "Jace Beleren's loyalty ability (-1)", "Soul
    Warden's triggered ability"; a spell is its card."""
    cid = _s(eff.arguments[0])
    try:
        inst = sc.instance(cid)
    except KeyError:
        return cid
    e = next((x for x in inst.card.effects if x.index == eff.arguments[1].number), None)
    if e is None or e.kind == "card":
        return cid
    if e.kind == "loyalty":
        cost = next((f"{'+' if n == 'loyalty_up' else '-'}{a}" for n, a in e.costs if n.startswith("loyalty")), "")
        return f"{cid}'s loyalty ability ({cost})"
    return f"{cid}'s {e.kind} ability" if e.kind != "activated" else f"{cid}'s ability"


def _mtg_target(x: Symbol, sc: Scenario) -> str:
    if x.type.name == "Function" and x.name == "none":
        return ""
    if x.type.name == "Function" and x.name == "eff":
        return f" targeting {mtg_ability_label(sc, x)}"
    return f" targeting {_s(x)}"


def mtg_event_text(sc: Scenario, step: Step) -> str | None:
    """Magic events in the words of the question language (docs/scenarios.md)."""
    e = step.event
    n = e.name
    args = e.arguments
    if n == "activate":
        p, eff, x = _s(args[0]), args[1], args[2]
        verb = "casts" if _is_spell_cast(sc, eff) else "activates"
        what = _s(eff.arguments[0]) if verb == "casts" else mtg_ability_label(sc, eff)
        return f"{p} {verb} {what}{_mtg_target(x, sc)}"
    if n == "play_land":
        return f"{_s(args[0])} plays {_s(args[1])}"
    if n == "turn_face_up":
        return f"{_s(args[0])} turns {_s(args[1])} face up"
    if n == "concede":
        return f"{_s(args[0])} concedes"
    if n == "discard_hand_size":
        return f"{_s(args[0])} discards {_s(args[1])} for the hand size limit"
    if n == "combat_damage":
        return "first-strike damage is dealt" if args[0].name == "first_strike" else "combat damage is dealt"
    if n == "declare_attackers":
        att = sorted(_s(f.arguments[0]) for f in step.after.has("attacking")
                     if f not in step.before.fluents)
        return f"{_s(args[0])} declares attackers with {', '.join(att)}" if att \
            else f"{_s(args[0])} declares no attackers"
    if n == "declare_blockers":
        blocks = sorted(f"{_s(f.arguments[0])} blocks {_s(f.arguments[1])}" for f in step.after.has("blocking")
                        if f not in step.before.fluents)
        return f"{_s(args[0])} declares blockers: {', '.join(blocks)}" if blocks \
            else f"{_s(args[0])} declares no blockers"
    if n == "sba":
        return "state-based actions are performed"
    if n == "put_trigger":
        who, ability, target = args[0], args[1], args[3]
        return f"{mtg_ability_label(sc, ability)} goes on the stack{_mtg_target(target, sc)} ({_s(who)})"
    if n == "remove_trigger":
        return f"{mtg_ability_label(sc, args[1])} is removed (no legal target)"
    if n == "resolve":
        parts = []
        for r in step.resolved:
            eff, how = r.arguments[0], r.arguments[2].name
            label = mtg_ability_label(sc, eff)
            parts.append(f"{label} resolves" if how != "fizzled" else f"{label} does not resolve (no legal target)")
        return "; ".join(parts) or "the top of the stack resolves"
    if n == "advance":
        key = args[0].name
        return "the turn ends" if key == "turn_end" else f"{key_name(sc, key)} begins"
    if n == "begin":
        at = step.before.value("at")
        return f"{key_name(sc, at.name) if at is not None else 'the step'} begins (the position's step)"
    return None


def _expiry_label(sc: Scenario, sym: Symbol) -> str:
    for a in getattr(sym, "arguments", []):
        if a.type.name == "String":
            return a.string
    return str(sym)


def _is_spell_cast(sc: Scenario, eff: Symbol) -> bool:
    try:
        inst = sc.instance(_s(eff.arguments[0]))
    except KeyError:
        return False
    e = next((x for x in inst.card.effects if x.index == eff.arguments[1].number), None)
    return e is not None and e.kind == "card"


def chain_links(pos: Position) -> list[tuple[int, Symbol, str, Symbol]]:
    links = []
    for f in pos.has("link"):
        n, eff, p, x = f.arguments
        links.append((n.number, eff, _s(p), x))
    return sorted(links, key=lambda t: t[0])


def chain_list(sc: Scenario, pos: Position) -> list[str]:
    return [effect_label(sc, eff) for _, eff, _, _ in chain_links(pos)]


def chain_detail(sc: Scenario, pos: Position) -> list[dict[str, Any]]:
    out = []
    for n, eff, p, x in chain_links(pos):
        d: dict[str, Any] = {"link": n, "card": effect_label(sc, eff), "controller": p}
        if not (x.type.name == "Function" and x.name == "none"):
            d["target"] = _s(x)
        out.append(d)
    return out


def _chain_cell(sc: Scenario, pos: Position) -> list[str]:
    return [f"{effect_label(sc, eff)} ({p})" for _, eff, p, _ in chain_links(pos)]


def until_goal(trace: Trace) -> list[Step]:
    """The steps of a trace up to (and with) the one that reached the goal."""
    return [s for s in trace.steps if trace.goal_at is None or s.t <= trace.goal_at]


def timeline(sc: Scenario, trace: Trace | None) -> list[dict[str, Any]]:
    if trace is None:
        return []
    rows = []
    for i, step in enumerate(until_goal(trace)):
        pr = step.before.value("priority")
        row: dict[str, Any] = {
            "t": i,
            "point": point_name(sc, step.before),
            "priority": _s(pr) if pr is not None and pr.type.name == "String" else "nobody",
            "event": event_text(sc, step),
            "chain": _chain_cell(sc, step.after),
        }
        if sc.game == "ygo":
            box = step.before.value("box")
            row["box"] = box.name.upper().replace("E0", "E0") if box is not None and box.name != "none" else "-"
            row = {k: row[k] for k in ("t", "point", "box", "priority", "event", "chain")}
        rows.append(row)
    return rows


def _applies(rule: Rule, event_name: str) -> bool:
    markers = _EVENT_MARKERS.get(event_name, ())
    return any(m in rule.body for m in markers)


def _chance_rules(sc: Scenario, pos: Position) -> list[Rule]:
    """The rules that gave the acting player the chance in this state."""
    reg = registry(sc.game)
    out = []
    if sc.game == "ygo":
        segoc = pos.value("segoc")
        box = pos.value("box")
        if segoc is not None and segoc.name != "none" and "ygo_segoc_chance" in reg:
            out.append(reg["ygo_segoc_chance"])
        elif box is not None and box.name not in ("none",):
            key = f"ygo_fet_box_{'e' if box.name == 'e0' else box.name}"
            if key in reg:
                out.append(reg[key])
    else:
        out += [reg[a] for a in _mtg_priority_ids(pos) if a in reg]
    return out


def _checked(sc: Scenario, step: Step) -> list[Rule]:
    reg = registry(sc.game)
    return [reg[a] for a in step.applied if a in reg and reg[a].kind == "game"]


def step_permission(sc: Scenario, step: Step) -> list[dict[str, str]]:
    """The rules that gave the chance for this event and that it was checked against."""
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for r in _chance_rules(sc, step.before) + _checked(sc, step):
        if r.id not in seen:
            seen.add(r.id)
            out.append(r.as_dict())
    return out


def choice(sc: Scenario, step: Step, index: int) -> dict[str, Any]:
    """A player's choice at a step, in words."""
    pr = step.before.value("priority")
    player = _s(pr) if pr is not None and pr.type.name == "String" else "the game"
    text = event_text(sc, step)
    does = text[len(player) + 1:] if text.startswith(player + " ") else text
    return {"t": index, "point": point_name(sc, step.before), "player": player, "event": text,
            "does": _base_verb(does), "where": f"at step {index}, {point_title(sc, step.before)}"}


def _base_verb(text: str) -> str:
    first, _, rest = text.partition(" ")
    base = {"activates": "activates", "passes": "passes", "lets": "lets", "chains": "chains",
            "declares": "declares"}.get(first, first)
    return (base + " " + rest).strip()


def permission(sc: Scenario, trace: Trace | None) -> list[dict[str, str]]:
    """Rules that made the witness's decisive event legal: the rule that gave
    the chance, then every rule that was checked for it and held."""
    step = _goal_step(trace)
    return [] if step is None else step_permission(sc, step)


def _mtg_priority_ids(pos: Position) -> list[str]:
    """Magic: the ids of the rules that explain who has priority in this position
    (or why nobody has it)."""
    pr = pos.value("priority")
    proc = pos.value("proc")
    at = pos.value("at")
    holder = _s(pr) if pr is not None and pr.type.name == "String" else None
    ids: list[str] = []
    if holder is None:
        if at is not None and at.name in ("untap", "cleanup", "turn_end"):
            ids.append("mtg_priority_step_start")
        if proc is not None and proc.name == "advance":
            ids.append("mtg_priority_step_ends")
        if proc is not None and proc.name not in ("none", "advance"):
            ids.append("mtg_priority_before")
        return ids
    links = chain_links(pos)
    top = links[-1] if links else None
    passes = pos.value("passes")
    passed = passes is not None and passes.number > 0
    if passed:
        ids.append("mtg_priority_pass")
    elif top is not None and top[2] == holder:
        ids.append("mtg_priority_after_action")
    elif top is not None:
        ids.append("mtg_priority_after_resolution")
    else:
        # an empty stack and no pass yet: the step has just begun, or the last
        # object on the stack has just resolved
        ids += ["mtg_priority_step_start", "mtg_priority_after_resolution"]
    return ids


def mtg_priority_reason(sc: Scenario, pos: Position) -> list[dict[str, str]]:
    """Magic: the rules that explain who has priority in this position."""
    reg = registry(sc.game)
    ids = _mtg_priority_ids(pos)
    if pos.value("priority") is not None and pos.value("priority").type.name == "String":
        ids = ["core_priority_holder_acts", *ids, "mtg_priority_before"]
    return [reg[a].as_dict() for a in dict.fromkeys(ids) if a in reg]


def priority_reason(sc: Scenario, pos: Position) -> list[dict[str, str]]:
    if sc.game == "mtg":
        return mtg_priority_reason(sc, pos)
    reg = registry(sc.game)
    out: list[dict[str, str]] = []
    if sc.game == "ygo":
        box = pos.value("box")
        if box is not None:
            key = f"ygo_fet_box_{'e' if box.name == 'e0' else box.name}"
            if key in reg:
                out.append(reg[key].as_dict())
        if box is not None and box.name == "d" and "core_priority_holder_acts" in reg:
            pass
    for atom in ("core_priority_holder_acts",):
        if atom in reg:
            out.append(reg[atom].as_dict())
    for r in reg.values():
        if r.id.startswith("mtg.priority") and r.kind != "structural":
            out.append(r.as_dict())
    return out


_TRIGGER_ORDER_RULES = {"ygo": ("ygo_segoc_first", "ygo_segoc_order"),
                        "mtg": ("mtg_priority_before", "mtg_triggers_apnap")}


def chain_reason(sc: Scenario, positions: Sequence[Position] = ()) -> list[dict[str, str]]:
    """Why the chain (stack) holds what it holds: who may act, the game's
    procedures, and where a link was put there by the game as a triggered
    effect, the rules that order simultaneous triggers (SEGOC, APNAP)."""
    reg = registry(sc.game)
    out = [r.as_dict() for a, r in reg.items() if a.startswith(("core_priority", "core_procedure"))]
    triggered = False
    for pos in positions:
        for _, eff, _, _ in chain_links(pos):
            e = _effect_of(sc, eff)
            triggered = triggered or (e is not None and e.kind in ("trigger", "triggered"))
    if triggered:
        out += [reg[a].as_dict() for a in _TRIGGER_ORDER_RULES.get(sc.game, ()) if a in reg]
    return out


def _effect_of(sc: Scenario, eff: Symbol) -> Effect | None:
    try:
        inst = sc.instance(_s(eff.arguments[0]))
    except (KeyError, IndexError, AttributeError):
        return None
    return next((x for x in inst.card.effects if x.index == eff.arguments[1].number), None)


def structural(sc: Scenario, q: Question) -> list[dict[str, str]]:
    reg = registry(sc.game)
    return [r.as_dict() for a, r in reg.items() if a.startswith(("ygo_turn", "core_procedure", "mtg_turn"))][:3]


def divergence(sc: Scenario, a: Trace | None, b: Trace | None) -> dict[str, Any]:
    if a is None or b is None:
        return {}
    for i, (sa, sb) in enumerate(zip(a.steps, b.steps, strict=False)):
        if sa.event != sb.event:
            pr = sa.before.value("priority")
            return {
                "t": i,
                "point": point_name(sc, sa.before),
                "player": _s(pr) if pr is not None and pr.type.name == "String" else "the game",
                "one_side": event_text(sc, sa),
                "other_side": event_text(sc, sb),
            }
    return {}


def ref_label(sc: Scenario, ref: Ref) -> str:
    found = sc.find_instances(ref.text)
    if len(found) == 1:
        return found[0].id
    if found:
        return found[0].card.name
    return ref.text


# ---------------------------------------------------------------- sentences

_COND_WORDS = {
    "turn(own)": "during its controller's own turn",
    "turn(opponent)": "during the opponent's turn",
    "phase(main)": "during a Main Phase",
    "phase(draw)": "during the Draw Phase",
    "phase(standby)": "during the Standby Phase",
    "phase(battle)": "during the Battle Phase",
    "phase(end)": "during the End Phase",
    "phase(battle_step)": "during the Battle Step",
    "phase(damage_step)": "during the Damage Step",
    "phase(ds_start)": "at the start of the Damage Step",
    "phase(ds_before)": "before damage calculation",
    "phase(ds_calc)": "during damage calculation",
    "phase(ds_after)": "after damage calculation",
    "phase(ds_end)": "at the end of the Damage Step",
    "attack_declared(opponent)": "when an opponent's monster declares an attack",
    "attack_declared(any)": "when a monster declares an attack",
    "targeted_for_attack": "when this card is targeted for an attack",
    "responds": "in response to the kind of activation its text names",
    "self_battles": "while this card battles",
    "opponent_monster_attacks": "while an opponent's monster attacks",
    "own_monster_battles(light)": "while a LIGHT monster its controller controls battles",
    "own_monster_battles(any)": "while a monster its controller controls battles",
    "attacked_defense_position": "if this card attacked a Defense Position monster",
    "was_attacked_face_down": "if this card was attacked while face-down at the start of the Damage Step",
}


def condition_text(sc: Scenario, eff: str, cond: str) -> str:
    name = eff
    if eff.startswith("eff(\""):
        name = eff[5:].split('"', 1)[0]
    words = _COND_WORDS.get(cond, cond.replace("_", " "))
    return f"{name}: {words}"


def window_text(w: dict[str, str] | None) -> str:
    if not w:
        return "-"
    return w["point"] + (f" (box {w['box']})" if w.get("box") else "")


def _goal_step(trace: Trace | None) -> Step | None:
    if trace is None or not trace.steps:
        return None
    if trace.goal_at is not None:
        for s in trace.steps:
            if s.t == trace.goal_at:
                return s
    return trace.steps[-1]


def step_rules(sc: Scenario, trace: Trace | None) -> list[dict[str, Any]]:
    """Per witness event: the rules that gave the chance there and those it was checked against."""
    if trace is None:
        return []
    out = []
    for i, s in enumerate(until_goal(trace)):
        chance = [r.id for r in _chance_rules(sc, s.before)]
        checked = [r.id for r in _checked(sc, s)]
        out.append({"t": i, "event": event_text(sc, s), "chance": chance, "checked": checked})
    return out


def procedure_reasons(sc: Scenario, pos: Position) -> list[dict[str, str]]:
    """Why nobody may act in this state (a game procedure is due)."""
    reg = registry(sc.game)
    proc = pos.value("proc")
    if proc is not None and proc.name != "none" and "core_procedure_game_acts" in reg:
        return [reg["core_procedure_game_acts"].as_dict()]
    return []


def state_reasons(sc: Scenario, trace: Trace | None) -> list[dict[str, str]]:
    """The rules that made the last steps of a (history) trace end where they did."""
    if trace is None or not trace.steps:
        return []
    reg = registry(sc.game)
    out = []
    for atom in trace.steps[-1].fired:
        if atom in reg:
            out.append(reg[atom].as_dict())
    return out


def yes_sentence(sc: Scenario, trace: Trace | None) -> str:
    step = _goal_step(trace)
    if step is None:
        return ""
    pr = step.before.value("priority")
    who = _s(pr) if pr is not None and pr.type.name == "String" else "the game"
    where = point_name(sc, step.before)
    box = step.before.value("box")
    box_txt = f", box {box.name.upper()}" if sc.game == "ygo" and box is not None and box.name != "none" else ""
    chance = ""
    rules = _chance_rules(sc, step.before)
    if rules:
        chance = f" ({rules[0].id}: {rules[0].text.split(';')[0].rstrip('.')})"
    n = len([s for s in trace.steps if trace.goal_at is None or s.t <= trace.goal_at]) if trace else 0
    lead = "It can happen at once" if n <= 1 else f"It can happen after {n - 1} step(s)"
    return f"{lead}: {event_text(sc, step)} at {where}{box_txt}, where {who} has the chance{chance}."


def no_sentence(sc: Scenario, wn: Any, forced: bool = False) -> str:
    reg = wn.rules
    parts = []
    for reason in wn.reasons:
        names = [reg[a].id for a in reason.rules if a in reg]
        parts.append(" + ".join(names))
    verb = "force it" if forced else "forbid it"
    if not parts:
        return ("No legal continuation has it; no single rule of play forbids it, it follows from the "
                "position and how the rules define play (see below)." if not forced else "")
    if len(parts) == 1:
        text = f"The rule(s) that {verb}: {parts[0]}."
    else:
        text = f"{len(parts)} independent reasons {verb}: " + "; ".join(f"({p})" for p in parts) + "."
    if wn.failing_conditions:
        conds = "; ".join(condition_text(sc, e, c) for e, c in wn.failing_conditions)
        text += f" The card's condition that does not hold there: {conds}."
    return text


def window_reasons(sc: Scenario) -> list[dict[str, str]]:
    reg = registry(sc.game)
    keys = ["ygo_fet_box_a", "ygo_fet_box_b", "ygo_fet_box_c", "ygo_fet_box_d", "ygo_fet_box_e",
            "ygo_activation_condition", "ygo_speed_response"] if sc.game == "ygo" else []
    out = [reg[k].as_dict() for k in keys if k in reg]
    if not out:
        out = [r.as_dict() for a, r in reg.items() if a.startswith("core_priority")]
    return out
