"""Compiling parsed questions and event phrases into facts.

Names are resolved against the scenario (cards by id, name, alias or unique
prefix; phases by name) and every event pattern is matched, in Python,
against the static event domain of the position, so the program only ever
receives concrete ground facts (``q_match(goal, activate("B",eff("Effect
Veiler",1),"Judgment Dragon"))``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from logic.errors import InputError, NotModelled, shorten
from logic.games import turn
from logic.scenario import CardInstance, Scenario
from queries.language.ast import Event, Ref, When
from queries.search.engine import Engine
from solver.terms import Function, String, Symbol

GOAL = Function("goal", [])
UNTIL = Function("until", [])


def _c(name: str) -> Symbol:
    return Function(name, [])


def q_scope(kind: str) -> Symbol:
    return Function("q_scope", [_c(kind)])


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


class NoSuchEvent(InputError):
    """No event of the position matches a phrase.  For an event in ``<when>`` or in
    the history that is a bad premise (docs/questions.md, "Premises"); for the asked event
    of a can/must question it is the answer No (queries/answer.py)."""

    def __init__(self, message: str, where: str = "", reason: str = "") -> None:
        super().__init__(message, where)
        self.reason = reason


@dataclass
class Span:
    name: str  # public span name
    keys: tuple[str, ...]


class Compiler:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sc: Scenario = engine.sc
        self.turn = turn(self.sc.game)

    # ------------------------------------------------------------ names
    def instances(self, ref: Ref, what: str = "question") -> list[CardInstance]:
        found = self.sc.find_instances(ref.text)
        if found:
            return found
        lib = self.sc.library
        if lib is not None and lib.find(ref.text) is not None:
            raise InputError(f"{shorten(ref.text)} is not among this scenario's cards "
                             f"({shorten(', '.join(c.id for c in self.sc.cards) or 'none', 200)[1:-1]}); "
                             "add it to the scenario's cards to ask about it", what)
        close = []
        if lib is not None:
            close = lib.close_matches(ref.text)
        ids = [c.id for c in self.sc.cards]
        import difflib

        close = difflib.get_close_matches(ref.text, ids, n=2, cutoff=0.5) + close
        hint = f"; did you mean {', '.join(repr(c) for c in close[:3])}?" if close else ""
        raise InputError(f"unknown card {shorten(ref.text)}{hint}", what)

    def effects(self, ref: Ref) -> list[Symbol]:
        out = []
        for inst in self.instances(ref):
            for eff in inst.card.effects:
                if eff.kind != "continuous" and (ref.ability is None or eff in self._ability(inst, ref.ability)):
                    out.append(Function("eff", [String(inst.id), _num(eff.index)]))
        if not out and ref.ability is not None:
            raise InputError(f"{shorten(ref.text)} has no {ref.ability} ability that can be activated", "question")
        if not out:
            raise NotModelled(f"{ref.text} has no effect that can be activated in the card library")
        return out

    def _ability(self, inst: CardInstance, sel: str) -> list[Any]:
        """The ability of a card named by its place ("the second ability") or, for a
        loyalty ability, its cost ("+1", "-2", "0"): CR 606.3, 113.1; docs/scenarios.md
        "A activates X's <first|second|...|+N|-N> ability"."""
        abilities = sorted((e for e in inst.card.effects if e.kind != "card"), key=lambda e: e.index)
        if sel in _ORDINALS:
            # the place counts every ability of the text; a keyword ability or text
            # the reader could not place would shift it, so it is then not known
            if inst.card.extra.get("keywords") or inst.card.unmodelled:
                raise NotModelled(f"which ability is the {sel} of {inst.card.name} (it has keyword abilities or "
                                  "text not read as an ability); name a loyalty ability by its cost")
            k = _ORDINALS.index(sel)
            return [abilities[k]] if k < len(abilities) else []
        n = int(sel)
        want = ("loyalty_up", str(n)) if n >= 0 else ("loyalty_down", str(-n))
        return [e for e in abilities if e.kind == "loyalty" and want in e.costs]

    def span(self, text: str) -> Span:
        name = self.turn.resolve(text)
        if name is None:
            names = ", ".join(sorted({p.name for p in self.turn.points}))
            raise InputError(f"unknown phase or step {shorten(text)}; expected one of: {names}", "question")
        return Span(name, self.turn.spans[name])

    def player(self, name: str | None) -> Symbol:
        if name is None or name not in self.sc.players:
            raise InputError(f"unknown player {shorten(name)}; the players are {', '.join(self.sc.players)}", "question")
        return String(name)

    # ------------------------------------------------------------ events
    def _match(self, name: str, *tests: Callable[[Symbol], bool]) -> list[Symbol]:
        out = []
        for ev in self.engine.events():
            if ev.name != name or len(ev.arguments) != len(tests):
                continue
            if all(test(arg) for test, arg in zip(tests, ev.arguments, strict=True)):
                out.append(ev)
        return out

    def event_facts(self, tag: Symbol, ev: Event) -> list[Symbol]:
        """Facts describing ``ev`` under tag goal / until."""
        k = ev.kind
        any_: Callable[[Symbol], bool] = lambda s: True  # noqa: E731

        def is_(values: Iterable[Symbol]) -> Callable[[Symbol], bool]:
            vs = set(values)
            return lambda s: s in vs

        def facts(name: str, evs: list[Symbol]) -> list[Symbol]:
            if not evs:
                raise self._no_event(ev)
            return [Function(name, [tag, e]) for e in evs]

        if self.sc.game == "mtg":
            mtg = self._mtg_event_facts(tag, ev, facts)
            if mtg is not None:
                return mtg
        if k in ("draw", "pass", "concede"):
            p = self.player(ev.player)
            name = {"draw": "draw", "pass": "pass", "concede": "concede"}[k]
            return facts("q_match", self._match(name, is_([p])))
        if k in ("normal_summon", "set"):
            p = self.player(ev.player)
            assert ev.card is not None
            cards = [String(i.id) for i in self.instances(ev.card)]
            if k == "normal_summon":
                paid = self._summon_paid_facts(tag, ev)
                return facts("q_match", self._match("normal_summon", is_([p]), is_(cards))) + paid
            return facts("q_match", self._match("set_monster", is_([p]), is_(cards))
                         + self._match("set_spell_trap", is_([p]), is_(cards)))
        if k == "flip_summon":
            p = self.player(ev.player)
            assert ev.card is not None
            cards = [String(i.id) for i in self.instances(ev.card)]
            return facts("q_match", self._match("flip_summon", is_([p]), is_(cards)))
        if k == "special_summon":
            # a Special Summon by a card's effect (it succeeds while that effect resolves);
            # built-in Special Summon procedures are not modelled
            p = self.player(ev.player)
            assert ev.card is not None
            return [Function("q_outcome", [tag, Function("summoned", [p, String(i.id), _c("special")])])
                    for i in self.instances(ev.card) if i.card.card_type == "monster"] or [_raise(self._no_event(ev))]
        if k in ("activate", "chain", "cast"):
            p = self.player(ev.player)
            assert ev.card is not None
            effs = self.effects(ev.card)
            targets: Callable[[Symbol], bool] = any_
            if ev.targets:
                allowed: list[Symbol] = []
                for t in ev.targets:
                    if isinstance(t, Ref):
                        allowed += [String(i.id) for i in self.instances(t)]
                    else:
                        allowed.append(self.player(t))
                targets = is_(allowed)
            effs, paid = self._paid_facts(tag, ev, effs)
            evs = self._match("activate", is_([p]), is_(effs), targets)
            return facts("q_match_chained" if k == "chain" or ev.chained else "q_match", evs) + paid
        if k == "attack":
            p = self.player(ev.player)
            assert ev.card is not None
            att = [String(i.id) for i in self.instances(ev.card)]
            if ev.direct:
                tgt = is_([_c("direct")])
            else:
                tref = ev.targets[0]
                assert isinstance(tref, Ref)
                tgt = is_([String(i.id) for i in self.instances(tref)])
            return facts("q_match", self._match("declare_attack", is_([p]), is_(att), tgt))
        if k == "declare_end":
            p = self.player(ev.player)
            span = self.span(ev.point or "")
            out = [Function("q_outcome", [tag, Function("declares_end", [p])])]
            out += [Function("q_point", [tag, _c(key)]) for key in span.keys]
            return out
        if k in ("enter", "begins"):
            span = self.span(ev.point or "")
            first = span.keys[0]
            return facts("q_match", self._match("advance", is_([_c(first)])))
        if k == "ends":
            span = self.span(ev.point or "")
            out = [Function("q_outcome", [tag, _c("span_ends")])]
            out += [Function("q_point", [tag, _c(key)]) for key in span.keys]
            return out
        if k == "chain_resolves":
            return [Function("q_outcome", [tag, _c("chain_resolves")])]
        if k == "resolves":
            assert ev.card is not None
            out = []
            for inst in self.instances(ev.card):
                for r in ("applied", "negated"):
                    out.append(Function("q_outcome", [tag, Function("resolves", [String(inst.id), _c(r)])]))
            return out
        if k == "expire":
            p = self.player(ev.player)
            assert ev.card is not None
            cards = {String(i.id) for i in self.instances(ev.card)}
            # "B lets Effect Veiler expire": the effect of that card, or the effect applied to that card
            evs = self._match("expire", is_([p]), lambda s: _mentions(s, cards), any_)
            evs += [e for e in self._match("expire", is_([p]), any_, is_(cards)) if e not in evs]
            if not evs:
                raise NotModelled(f"'{ev.text}': {ev.card.text} has no effect that lasts until the End Phase "
                                  "or the end of the turn in the card library")
            return facts("q_match", evs)
        raise NotModelled(f"the event '{ev.text or k}' ({k.replace('_', ' ')})")

    # ------------------------------------------------------------ what was paid and chosen (issue 14)
    def _paid_facts(self, tag: Symbol, ev: Event, effs: list[Symbol]) -> tuple[list[Symbol], list[Symbol]]:
        """The effects of ``effs`` that can have been activated the way the phrase
        says (the mode chosen, a cost of each kind named), and the facts that make
        the named costs part of the event (q_paid, q_paid_n)."""
        if not ev.paid:
            return effs, []
        assert ev.card is not None
        by_sym = {}
        for inst in self.instances(ev.card):
            for pos, eff in enumerate(inst.card.effects, start=1):
                by_sym[Function("eff", [String(inst.id), _num(eff.index)])] = (inst, pos, eff)
        said = shorten(phrase(ev))
        keep = list(effs)
        for item in ev.paid:
            if item.kind == "mode":
                n = item.number or 0
                most = max((by_sym[e][1] for e in effs), default=0)
                keep = [e for e in keep if by_sym[e][1] == n]
                if not keep:
                    raise InputError(f"{said}: {ev.card.text} has no {_ordinal(n)} effect to choose "
                                     f"(it has {most} effect{'s' if most != 1 else ''} that can be activated)",
                                     "question")
                continue
            kind_costs = _COST_KINDS[item.kind]
            fit = [e for e in keep if any(c[0] in kind_costs for c in by_sym[e][2].costs)]
            if item.kind == "lp" and item.number is not None:
                fit = [e for e in fit if any(c[0] == "pay_half_lp" or c == ("pay_lp", str(item.number))
                                             for c in by_sym[e][2].costs)]
            if item.kind == "detach":
                n = item.number if item.card is None else sum(1 for x in ev.paid if x.kind == "detach" and x.card)
                fit = [e for e in fit if any(c == ("detach", str(n)) for c in by_sym[e][2].costs)]
            if not fit:
                unread = [(by_sym[e][0], by_sym[e][2], u) for e in keep for u in by_sym[e][2].unmodelled
                          if u.startswith("cost")]
                if unread:
                    inst, eff, words = unread[0]
                    raise NotModelled(f"{inst.card.name}, effect {eff.index}, {words} (so '{said}' cannot be "
                                      "checked against what the effect costs)")
                have = sorted({_COST_WORDS.get(c[0], c[0]) + (f" ({c[1]})" if c[1] and c[0] != "tribute" else "")
                               for e in keep for c in by_sym[e][2].costs})
                costs = f"its cost{'s are' if len(have) > 1 else ' is'}: {', '.join(have)}" if have else "it has no cost"
                what = {"lp": f"paying {item.number} LP", "detach": "detaching materials"}.get(
                    item.kind, f"{_VERB_ING[item.kind]} a card")
                raise InputError(f"{said}: {ev.card.text}'s effect has no cost {what} ({costs})", "question")
            keep = fit
        out: list[Symbol] = []
        detached = [item for item in ev.paid if item.kind == "detach" and item.card is not None]
        if detached:
            # materials are counted, not told apart: "detaching Y, Z" is detaching 2
            out.append(Function("q_paid_n", [tag, _c("detach"), _num(len(detached))]))
        for i, item in enumerate(ev.paid):
            if item.kind == "mode" or item in detached:
                continue
            if item.kind in ("lp", "detach") and item.card is None:
                halves = any(c[0] == "pay_half_lp" for e in keep for c in by_sym[e][2].costs)
                if item.kind == "lp" and halves:
                    out.append(Function("q_paid_n", [tag, _c("lp"), _num(item.number or 0)]))
                elif item.kind == "detach":
                    out.append(Function("q_paid_n", [tag, _c("detach"), _num(item.number or 0)]))
                continue
            assert item.card is not None
            insts = self.instances(item.card)
            selfs = [e for e in keep if any(c[0] in _SELF_COSTS for c in by_sym[e][2].costs
                                            if c[0] in _COST_KINDS[item.kind])]
            others = [e for e in keep if any(c[0] not in _SELF_COSTS for c in by_sym[e][2].costs
                                             if c[0] in _COST_KINDS[item.kind])]
            if selfs and not others and not any(i_.id == by_sym[selfs[0]][0].id for i_ in insts):
                raise InputError(f"{said}: {ev.card.text}'s cost is {_VERB_ING[item.kind]} {ev.card.text} itself, "
                                 f"not {item.card.text}", "question")
            out += [Function("q_paid", [tag, _num(i), _c(item.kind), String(inst.id)]) for inst in insts]
        return keep, out

    def _summon_paid_facts(self, tag: Symbol, ev: Event) -> list[Symbol]:
        """A Tribute Summon's Tributes, as named ("tributing Y, Z")."""
        out: list[Symbol] = []
        said = shorten(phrase(ev))
        for i, item in enumerate(ev.paid):
            if item.kind != "tribute" or item.card is None:
                raise InputError(f"{said}: a Tribute Summon is paid for only by Tributing monsters "
                                 f"('tributing Y'), not by {_VERB_ING.get(item.kind, item.kind)}", "question")
            out += [Function("q_paid", [tag, _num(i), _c("tribute"), String(inst.id)])
                    for inst in self.instances(item.card)]
        if ev.paid and ev.card is not None:
            need = {_level_tributes(inst.card.level) for inst in self.instances(ev.card)}
            if need and max(need) < len(ev.paid):
                n = max(need)
                raise InputError(f"{said}: {ev.card.text} needs {n} Tribute{'s' if n != 1 else ''}, "
                                 f"not {len(ev.paid)}", "question")
        return out

    def paid_reason(self, ev: Event, zones: dict[str, str], ctrl: dict[str, str]) -> str:
        """Why what a phrase says was paid cannot be paid here ('' if nothing plain):
        the named card is not where that cost takes it from."""
        need = {"tribute": ("monster",), "discard": ("hand",), "send": ("hand", "monster", "spell_trap")}
        place = {"monster": "on the field", "hand": "in the hand"}
        for item in ev.paid:
            if item.card is None or item.kind not in need:
                continue
            try:
                insts = self.instances(item.card)
            except InputError:
                continue
            if not insts:
                continue
            zs = [zones.get(i.id, "") for i in insts]
            if all(z not in need[item.kind] for z in zs):
                z = zs[0] or "nowhere"
                want = " or ".join(place.get(n, n) for n in need[item.kind][:1])
                what = {"tribute": "Tributed", "discard": "discarded", "send": "sent to the GY"}[item.kind]
                thing = "a monster" if item.kind == "tribute" else "a card"
                return (f"{item.card.text} is in the {z.replace('_', '/').replace('graveyard', 'GY')}, "
                        f"not {want}: only {thing} {want} can be {what}")
            if item.kind == "tribute" and ev.player and all(ctrl.get(i.id) not in (None, ev.player) for i in insts):
                return f"{item.card.text} is controlled by {ctrl.get(insts[0].id)}: {ev.player} can only Tribute a monster {ev.player} controls"
        return ""

    # ------------------------------------------------------------ Magic events (issue 6)
    def mtg_effects(self, ref: Ref, cast: bool) -> list[Symbol]:
        """Magic: "casts X" names the card's spell; "activates X" its activated,
        mana and loyalty abilities (never its triggered ones)."""
        out = []
        for inst in self.instances(ref):
            for eff in inst.card.effects:
                if (eff.kind == "card") == cast and eff.kind != "triggered" and \
                        (ref.ability is None or eff in self._ability(inst, ref.ability)):
                    out.append(Function("eff", [String(inst.id), _num(eff.index)]))
        if not out and ref.ability is not None:
            raise InputError(f"{shorten(ref.text)} has no {ref.ability} ability that can be activated", "question")
        if not out:
            what = "spell" if cast else "ability that can be activated"
            raise NotModelled(f"{ref.text} has no {what} in the card library")
        return out

    def _mtg_event_facts(self, tag: Symbol, ev: Event,
                         facts: Callable[[str, list[Symbol]], list[Symbol]]) -> list[Symbol] | None:
        """Facts for Magic's event phrases; None: the generic compilation applies."""
        k = ev.kind

        def is_(values: Iterable[Symbol]) -> Callable[[Symbol], bool]:
            vs = set(values)
            return lambda s: s in vs

        def cards(ref: Ref | None) -> list[Symbol]:
            assert ref is not None
            return [String(i.id) for i in self.instances(ref)]

        if k in ("activate", "chain", "cast"):
            p = self.player(ev.player)
            assert ev.card is not None
            effs = self.mtg_effects(ev.card, cast=(k == "cast"))
            targets: Callable[[Symbol], bool] = lambda s: True  # noqa: E731
            if ev.targets:
                allowed: list[Symbol] = []
                for t in ev.targets:
                    if isinstance(t, Ref):
                        allowed += [String(i.id) for i in self.instances(t)]
                        allowed += [Function("eff", [String(i.id), _num(e.index)])
                                    for i in self.instances(t) for e in i.card.effects]
                    else:
                        allowed.append(self.player(t))
                targets = is_(allowed)
            evs = self._match("activate", is_([p]), is_(effs), targets)
            return facts("q_match_chained" if k == "chain" or ev.chained else "q_match", evs)
        if k == "play":
            p = self.player(ev.player)
            return facts("q_match", self._match("play_land", is_([p]), is_(cards(ev.card))))
        if k == "turn_face_up":
            p = self.player(ev.player)
            return facts("q_match", self._match("turn_face_up", is_([p]), is_(cards(ev.card))))
        if k == "discard_hand_size":
            p = self.player(ev.player)
            return facts("q_match", self._match("discard_hand_size", is_([p]), is_(cards(ev.card))))
        if k == "discard":
            p = self.player(ev.player)
            return [Function("q_outcome", [tag, Function("discards", [p, c])]) for c in cards(ev.card)]
        if k == "draw":
            p = self.player(ev.player)
            return [Function("q_outcome", [tag, Function("draws", [p])])]
        if k == "concede":
            p = self.player(ev.player)
            return [Function("q_match", [tag, Function("concede", [p])])]
        if k == "combat_damage":
            return facts("q_match", self._match("combat_damage", is_([_c("regular")])))
        if k == "first_strike_damage":
            return facts("q_match", self._match("combat_damage", is_([_c("first_strike")])))
        if k in ("declare_attackers", "declare_blockers", "declare_none"):
            p = self.player(ev.player)
            blockers = k == "declare_blockers" or (k == "declare_none" and "blocker" in ev.text.lower())
            out = [Function("q_outcome", [tag, Function("blockers" if blockers else "attackers", [p])])]
            if k == "declare_attackers":
                for ref in ev.cards:
                    out += [Function("q_attacker", [tag, c]) for c in cards(ref)]
            if k == "declare_blockers":
                for b, a in ev.blocks:
                    for cb in cards(b):
                        for ca in cards(a):
                            out.append(Function("q_block", [tag, cb, ca]))
            return out
        if k in ("normal_summon", "set", "flip_summon", "special_summon", "attack", "expire", "declare_end"):
            raise NotModelled(f"'{ev.text or k}' is not a Magic event")
        return None

    def _no_event(self, ev: Event) -> NoSuchEvent:
        """Why no event of the position matches a phrase (the phrase names
        things that exist, but they can never fit together here)."""
        said = shorten(phrase(ev))
        k = ev.kind
        tp = self.sc.turn_player
        reason = ""
        insts = self.instances(ev.card) if ev.card is not None else []
        if k in ("draw", "normal_summon", "set", "attack") and self.sc.game == "ygo" and ev.player != tp:
            verb = {"draw": "draw for the turn", "normal_summon": "Normal Summon", "set": "Set a card",
                    "attack": "declare an attack"}[k]
            reason = f"only the turn player ({tp}) can {verb}"
        elif k == "normal_summon" and insts and all(i.card.card_type != "monster" for i in insts):
            reason = f"{insts[0].id} is not a monster"
        elif k == "attack" and insts and all(i.card.card_type != "monster" for i in insts):
            reason = f"{insts[0].id} is not a monster"
        elif k in ("activate", "chain", "cast") and insts:
            effs = [e for i in insts for e in i.card.effects if e.kind != "continuous"]
            if ev.targets:
                reason = "what it names as the target can never be a target of that effect here"
            elif effs and all(e.target for e in effs) and len(self.sc.cards) <= 1:
                reason = f"{insts[0].card.name}'s effect needs a target and there is no other card in the scenario"
        if not reason:
            reason = "nothing in this position fits it (check the names, the zones and who controls the cards)"
        return NoSuchEvent(f"{said} can never happen in this position: {reason}", "question", reason=reason)

    # ------------------------------------------------------------ scopes
    def during_facts(self, text: str) -> list[Symbol]:
        span = self.span(text)
        out = [Function("q_during", [_c(k)]) for k in span.keys]
        out += [Function("q_beyond", [_c(k)]) for k in self.turn.keys_after(span.name)]
        return out

    def before_point_facts(self, text: str) -> list[Symbol]:
        span = self.span(text)
        return [Function("q_beyond", [_c(k)]) for k in span.keys]

    def scope_facts(self, when: When, asked: Event | None) -> list[Symbol]:
        if self.sc.game == "mtg" and when.kind == "after" and asked is None:
            # Magic: "does <outcome> after <event>" -- does the event bring it
            # about by itself, with only the game's procedures between
            return [q_scope("consequence")]
        immediate = asked is not None and asked.kind == "pass"
        if when.kind in ("now", "after"):
            return [q_scope("immediate" if immediate else "now")]
        if when.kind == "in_response":
            # the response window the event opened: passes only, and over once it closes
            return [q_scope("immediate" if immediate else "response")]
        if when.kind == "while_resolves":
            # the moment the resolution is due: only what happens right then
            return [q_scope("immediate")]
        if when.kind == "during":
            return self.during_facts(when.point or "")
        if when.kind == "before_point":
            return self.before_point_facts(when.point or "")
        if when.kind == "before_event":
            assert when.event is not None
            return self.event_facts(UNTIL, when.event)
        if when.kind == "none":
            return []
        raise NotModelled(f"questions asked '{when.kind.replace('_', ' ')}'")


def phrase(ev: Event) -> str:
    """An event as the user wrote it, or rebuilt from its parts ('B normal summon Sangan')."""
    if ev.text:
        return ev.text
    return " ".join(x for x in (ev.player, ev.kind.replace("_", " "), ev.card.text if ev.card else None) if x)


def _raise(exc: Exception) -> Symbol:
    raise exc


# the costs each word of "tributing|discarding|banishing|detaching|sending|paying" names
_COST_KINDS = {
    "tribute": ("tribute", "tribute_self"),
    "discard": ("discard", "discard_self"),
    "banish": ("banish_from_graveyard", "banish_self"),
    "send": ("send_from_hand", "send_self_to_gy"),
    "detach": ("detach",),
    "lp": ("pay_lp", "pay_half_lp"),
}
_SELF_COSTS = ("tribute_self", "discard_self", "banish_self", "send_self_to_gy")
_VERB_ING = {"tribute": "Tributing", "discard": "discarding", "banish": "banishing", "send": "sending",
             "detach": "detaching", "lp": "paying LP", "material": "using materials", "mode": "choosing"}
_COST_WORDS = {"tribute": "Tribute 1 monster", "tribute_self": "Tribute this card", "discard": "discard 1 card",
               "discard_self": "discard this card", "banish_from_graveyard": "banish 1 card from the GY",
               "banish_self": "banish this card", "send_from_hand": "send 1 card from the hand to the GY",
               "send_self_to_gy": "send this card to the GY", "detach": "detach", "pay_lp": "pay LP",
               "pay_half_lp": "pay half your LP", "remove_counter": "remove a counter"}


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def _level_tributes(level: int | None) -> int:
    if level is None or level <= 4:
        return 0
    return 1 if level <= 6 else 2


def _num(n: int) -> Symbol:
    from solver.terms import Number

    return Number(n)


def _mentions(sym: Symbol, values: set[Symbol]) -> bool:
    if sym in values:
        return True
    return any(_mentions(a, values) for a in getattr(sym, "arguments", []))
