"""Fuzzing the parts that read what people type: the scenario loader (YAML
text, mutated scenarios, structured data with wrong types and unknown names),
the question and event-phrase parser, and the compilation of parsed phrases
against a position.  Property: no input makes them raise anything but the
two documented errors -- :class:`InputError` (exit 2) and
:class:`NotModelled` (exit 4).

The card-text reader (logic/textreader.py) is fuzzed too.

About 11,000 inputs with the ``ci`` profile (tests/conftest.py), in well
under a minute; ``FUZZ_SCALE=10 HYPOTHESIS_PROFILE=dev`` for a long run.
"""

from __future__ import annotations

import os
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logic import vocabulary as V
from logic.errors import InputError, NotModelled
from logic.facts import card_facts, initial_state
from logic.scenario import CARD_KEYS, SCENARIO_KEYS, from_data, load_text
from queries.answer import names_of
from queries.ast import Event
from queries.parser import parse_event, parse_question
from solver.terms import parse_term
from tests.messages import INPUTS

SCALE = float(os.environ.get("FUZZ_SCALE", "1"))
ALLOWED = (InputError, NotModelled)


def n(k: int) -> int:
    return max(10, int(k * SCALE))


BASE_TEXT = (INPUTS / "base.yaml").read_text(encoding="utf-8")
PLAYERS = ["A", "B"]
CARDS = ["Judgment Dragon", "Mystical Space Typhoon", "Effect Veiler", "Mind Crush", "Sangan", "Reborn Tengu",
         "Stardust Dragon", "Mirror Force", "Dark Hole", "Marshmallon", "Lava Golem", "Waboku", "Kuriboh",
         'Maxx "C"', "Lyla, Lightsworn Sorceress", "Number 39: Utopia", "Spell Reactor・RE"]
ZONES = ["hand", "deck", "monster", "spell_trap", "graveyard", "banished", "field", "extra", "library",
         "battlefield"]
POSITIONS = ["face_up_attack", "face_up_defense", "face_down_defense", "face_up", "face_down", "tapped"]
POINTS = ["draw", "standby", "main1", "battle.start", "battle.attack", "battle.damage.start",
          "battle.damage.calculation", "battle.end", "main2", "end", "the end phase", "damage step", "upkeep"]
WORDS = ("a act activate activates activating after all an and are at attack attackers before begins blockers "
         "blocks can cast casting casts chain chaining chains chooses combat comes concede concedes damage dealt "
         "declare declares declaring directly discard discards do does draw draws during effect end ends enter "
         "enters every expire face first first-strike flip for go hand has how in is legal let lets limit list "
         "many may miss must negated next no normal normally now occur of on order pass passes play plays point "
         "priority receives replay resolve resolves respond response set sets setting size special stack stacks "
         "strike summon summoning summons targeting the there timing to tribute turn turns unnegated up use what "
         "when which while who with main phase 1 battle phase damage calculation step 's ? , :").split()
ODD = ["", " ", "§", "%", '"', "'", "a). #script (python)", "#end.", ":- a.", "\x00", "\u200b", "\u202e",
       "\udcff", "🐉", "ｃａｎ", "İ", "ß", "\n", "\t", "x" * 300, "{", "[", "&a", "*a", "!!python/object:os.system",
       "---", "..."]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**12), 10**12), st.floats(allow_nan=True),
    st.text(max_size=20), st.sampled_from(PLAYERS + CARDS + ZONES + POSITIONS + POINTS + ODD),
)
values = st.recursive(scalars, lambda ch: st.lists(ch, max_size=3) | st.dictionaries(
    st.text(max_size=8) | st.sampled_from(sorted(CARD_KEYS)), ch, max_size=3), max_leaves=5)


def plausible(good: st.SearchStrategy, odds: int = 4) -> st.SearchStrategy:
    """Mostly a plausible value (``odds`` to 1), sometimes anything.  (``one_of``
    would merge repeated branches: the odds are drawn explicitly.)"""
    return st.integers(0, odds).flatmap(lambda i: values if i == 0 else good)


def rarely_bad(good: st.SearchStrategy) -> st.SearchStrategy:
    return plausible(good, 12)


card_entry = st.fixed_dictionaries({}, optional={
    "card": plausible(st.sampled_from(CARDS)),
    "controller": plausible(st.sampled_from(PLAYERS)),
    "owner": plausible(st.sampled_from(PLAYERS)),
    "zone": plausible(st.sampled_from(ZONES)),
    "position": plausible(st.sampled_from(POSITIONS)),
    "id": plausible(st.sampled_from(["c1", "c2", "a). #script", 'x"y', "%"])),
    "set_this_turn": plausible(st.booleans()),
    "special_summoned": plausible(st.booleans()),
    "summoned_this_turn": plausible(st.booleans()),
    "counters": values,
}) | values

event_phrases = st.sampled_from([
    "A passes", "B passes", "A activates Mystical Space Typhoon targeting Mind Crush", "B chains Mind Crush",
    "A normal summons Sangan", "A declares the end of main phase 1", "the chain resolves", "A sets Mirror Force",
    "B activates Effect Veiler targeting Judgment Dragon", "A declares an attack with Reborn Tengu directly",
])

scenario_data = st.fixed_dictionaries({}, optional={
    "game": plausible(st.sampled_from(["ygo", "ygo", "ygo", "mtg", "yugioh"])),
    "players": plausible(st.sampled_from([PLAYERS, ["A"], ["A", "B", "C"], ["A", "A"], ['x"', "%y"]])),
    "turn_player": plausible(st.sampled_from(PLAYERS)),
    "active_player": values,
    "phase": plausible(st.sampled_from(POINTS)),
    "date": plausible(st.sampled_from(["2013-05-01", "2014-07-10", "2099-01-01", "not a date"])),
    "life": plausible(st.dictionaries(st.sampled_from(PLAYERS + ["C"]), st.integers(-5, 10**8), max_size=2)),
    "cards": plausible(st.lists(card_entry, max_size=7)),
    "history": plausible(st.lists(event_phrases | st.text(max_size=30) | values, max_size=3)),
    "attack": plausible(st.fixed_dictionaries({}, optional={
        "attacker": plausible(st.sampled_from(CARDS)), "target": plausible(st.sampled_from(CARDS + ["direct"]))})),
    "custom_cards": st.lists(values, max_size=2),
    "variants": values,
    "teams": values,
    "turn": values,
    "description": values,
}) | st.dictionaries(st.text(max_size=10) | st.sampled_from(sorted(SCENARIO_KEYS)), values, max_size=4) | values


effect_def = st.fixed_dictionaries({"kind": rarely_bad(st.sampled_from(["card", "card", "quick", "ignition", "trigger", "continuous"]))}, optional={
    "speed": rarely_bad(st.integers(0, 4)),
    "mandatory": rarely_bad(st.booleans()),
    "from": rarely_bad(st.lists(st.sampled_from(V.YGO_ACT_ZONES), max_size=2)),
    "conditions": rarely_bad(st.lists(st.sampled_from(["turn(own)", "phase(battle)", "responds", "turn(Own)",
                                                     "x(y)", "attack_declared(opponent)"]), max_size=2)),
    "cost": rarely_bad(st.lists(st.sampled_from(["pay_lp(1000)", "discard_self", "pay_lp(Abc)", "pay_lp(x y)"]),
                               max_size=2)),
    "target": rarely_bad(st.dictionaries(st.sampled_from(sorted(V.YGO_TARGET_KEYS) + ["zone"]),
                                        st.sampled_from(["monster", "spell_trap", "own", "up", "any", "yes"]),
                                        max_size=3)),
    "actions": rarely_bad(st.lists(st.sampled_from(sorted(V.YGO_ACTIONS)[:6]), max_size=2)),
    "trigger": rarely_bad(st.lists(st.sampled_from(sorted(V.YGO_TRIGGERS)[:6]), max_size=1)),
    "timing": rarely_bad(st.sampled_from(["when", "if"])),
    "duration": rarely_bad(st.sampled_from(V.YGO_DURATIONS)),
    "index": rarely_bad(st.integers(0, 3)),
    "amount": rarely_bad(st.integers(-100, 5000)),
})
card_def = st.fixed_dictionaries({
    "name": rarely_bad(st.sampled_from(["Test Card", "Sangan", "a). #script", "", 'x"y%'])),
    "card_type": rarely_bad(st.sampled_from(["monster", "spell", "trap", "Spell"])),
    "effects": rarely_bad(st.lists(effect_def, min_size=1, max_size=2)),
}, optional={
    "property": rarely_bad(st.sampled_from(["normal", "quick-play", "field", "counter", "continuous"])),
    "attribute": rarely_bad(st.sampled_from(["dark", "LIGHT", "Winged Beast", "{'a': 1}", "a). b"])),
    "race": rarely_bad(st.sampled_from(["spellcaster", "winged-beast", "Sea Serpent", "X Y(Z)"])),
    "kinds": rarely_bad(st.lists(st.sampled_from(["effect", "tuner", "synchro", "Xyz", "a b"]), max_size=2)),
    "level": rarely_bad(st.integers(0, 12)),
    "atk": rarely_bad(st.integers(-1, 5000)),
    "def": rarely_bad(st.integers(0, 5000)),
    "text": rarely_bad(st.text(max_size=40)),
})


@settings(max_examples=n(800))
@given(card_def, st.sampled_from(ZONES[:8]))
def test_custom_cards(card, zone):
    """A custom card is refused with a message, or becomes facts whose every
    term is well formed: it reads back from its own text (solver/probe.py relies on it)."""
    name = card.get("name") if isinstance(card.get("name"), str) and card.get("name") else "Sangan"
    data = {"game": "ygo", "players": PLAYERS, "turn_player": "A", "phase": "main1", "custom_cards": [card],
            "cards": [{"card": name, "controller": "A", "zone": zone}]}
    try:
        sc = from_data(data, "<fuzz>")
    except ALLOWED:
        return
    for inst in sc.cards:
        for fact in card_facts(inst.id, inst.card):
            assert parse_term(str(fact.raw)) == fact.raw, fact.raw
    for fact in initial_state(sc):
        assert parse_term(str(fact.raw)) == fact.raw, fact.raw


def _load(text: str) -> None:
    try:
        load_text(text, "<fuzz>")
    except ALLOWED:
        pass


@settings(max_examples=n(2000))
@given(st.text(max_size=400))
def test_loader_random_text(text):
    _load(text)


@settings(max_examples=n(1500))
@given(st.lists(st.tuples(st.integers(0, len(BASE_TEXT)), st.sampled_from(["del", "ins", "dup"]),
                          st.sampled_from(ODD + list(":-[]{}#&*!|>'\"\n ") + CARDS)), min_size=1, max_size=4))
def test_loader_mutated_scenario(edits):
    text = BASE_TEXT
    for pos, op, s in edits:
        pos = min(pos, len(text))
        if op == "del":
            text = text[:pos] + text[pos + len(s):]
        elif op == "ins":
            text = text[:pos] + s + text[pos:]
        else:
            text = text[:pos] + text[pos:pos + 20] * 2 + text[pos + 20:]
    _load(text)


@settings(max_examples=n(1200))
@given(scenario_data)
def test_loader_structured(data):
    try:
        from_data(data, "<fuzz>")
    except ALLOWED:
        pass


@cache
def _names():
    return names_of(load_text(BASE_TEXT, "base"))


tokens = st.lists(st.sampled_from(WORDS) | st.sampled_from(PLAYERS + CARDS + ["C", "X"]) | st.sampled_from(ODD),
                  max_size=16).map(" ".join)


@settings(max_examples=n(2000))
@given(st.text(max_size=300))
def test_question_random_text(text):
    try:
        parse_question(text, _names())
    except InputError:
        pass


@settings(max_examples=n(2000))
@given(tokens)
def test_question_tokens(text):
    try:
        parse_question(text, _names())
    except InputError:
        pass


@settings(max_examples=n(1000))
@given(tokens | st.text(max_size=200))
def test_event_tokens(text):
    try:
        parse_event(text, _names())
    except InputError:
        pass


@cache
def _asker():
    from queries.answer import Asker

    asker = Asker(load_text(BASE_TEXT, "base"), time_limit=None)
    asker.engine.events()  # ground the event domain once
    return asker


question_starts = st.sampled_from([
    "can A activate", "can B activate", "can A normal summon", "can B pass", "must A activate", "can A set",
    "who has priority after A activates", "can B activate Effect Veiler after", "can A declare an attack with",
    "does", "can B let", "can B activate Effect Veiler before", "can A activate Mystical Space Typhoon during",
])


@settings(max_examples=n(500))
@given(question_starts, tokens)
def test_compile_parsed_questions(start, rest):
    """Whatever parses compiles to facts or fails with a documented error."""
    try:
        q = parse_question(f"{start} {rest}", _names())
    except InputError:
        return
    asker = _asker()
    try:
        if q.kind in ("can", "must", "does"):
            asker._goal_facts(q)
        for ev in (q.event, q.when.event):
            if isinstance(ev, Event):
                asker.compiler.event_facts(asker.compiler.__class__.__module__ and _goal(), ev)
    except ALLOWED:
        pass


def _goal():
    from queries.compile import GOAL

    return GOAL


# phrases of Problem-Solving Card Text, to build texts that come close to real ones
PSCT = ["When", "If", "this card", "is Normal Summoned", "is destroyed by battle", "You can", "Target 1",
        "monster", "your opponent controls", ":", ";", ".", ",", "(Quick Effect)", "once per turn",
        "During the End Phase", "until the end of this turn", "Tribute this card", "discard 1 card",
        "negate the activation", "and if you do", "destroy it", "Special Summon", "from your hand",
        "gains 1000 ATK", "during damage calculation", "during the Damage Step", "\"Sangan\"", "\u2460", "\n"]
psct_text = st.lists(st.sampled_from(PSCT), max_size=40).map(" ".join)


def test_card_text_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """The card-text reader on arbitrary and near-PSCT texts of every card type:
    it never raises, and (with its own error guard switched off) no reader bug
    is hidden behind an "unclassified" report."""
    from logic import textreader

    monkeypatch.setenv("CHAINJUDGE_READER_DEBUG", "1")
    kinds = st.sampled_from(["Spell", "Trap", "Monster", "", "Token"])
    props = st.sampled_from([None, "Normal", "Quick-Play", "Counter", "Continuous", "Field", "Equip", "Ritual", "x"])
    lines = st.sampled_from(["", "Spellcaster / Effect", "Dragon / Synchro / Effect", "Fiend / Flip / Effect",
                             "Warrior / Pendulum / Effect", "Cyberse / Link / Effect", "Beast / Normal"])

    @settings(max_examples=n(1000))
    @given(st.text(max_size=300) | psct_text | tokens, kinds, props, lines, st.text(max_size=60) | psct_text)
    def run(text, card_type, prop, line, pend):
        rec = {"name": "Fuzz", "card_type": card_type, "property": prop, "monster_type_line": line,
               "text": text, "pendulum_effect": pend}
        derived = textreader.derive(rec)
        assert derived.card.name == "Fuzz"

    run()


# ---------------------------------------------------------------- rule files (--rules)

RULE_HEAD = "#program step(t).\n%@rule house.fuzz\n%@text A rule for fuzzing.\n%@source chainjudge tests\n"
RULE_ATOMS = ["occurs(pass(P),t)", "holds(F,t)", "_at(main1,t-1)", "card_type(C,spell)", "effect_card(E,C)",
              "q_alive(t)", "rule(house_fuzz)", "p(X)", "not occurs(E,t)", "X = 1..3", "#count { E : occurs(E,t) } > 2",
              '"a \u201cquoted\u201d string"', "\u201cspell\u201d", "caf\u00e9", "\u00a0", "\u2013", "%* c *%", "% c"]
rule_texts = st.one_of(
    st.text(max_size=300),
    st.lists(st.sampled_from(RULE_ATOMS + [",", ".", ":-", "(", ")", "{", "}", "1+", "\n"] + ODD), max_size=40)
    .map(lambda parts: RULE_HEAD + ":- " + " ".join(parts) + ", rule(house_fuzz)."),
    st.tuples(st.integers(1, 3000), st.sampled_from(["1+", "f(", "(", "-", "{", "["]))
    .map(lambda k: RULE_HEAD + ":- player(" + k[1] * k[0] + "1" + ")" * (k[0] if k[1] in ("f(", "(") else 0)
         + "), rule(house_fuzz)."),
)


@settings(max_examples=n(600))
@given(rule_texts)
def test_rule_files(text):
    """A rule file's text, with text outside ASCII anywhere, deep nesting and
    long operator chains: only InputError (no clingo crash, no RecursionError)."""
    from logic.userrules import check_text

    try:
        check_text(text, "fuzz.lp", "ygo")
    except InputError:
        pass


# ---------------------------------------------------------------- YAML aliases

@settings(max_examples=n(400))
@given(st.integers(1, 12), st.integers(1, 12), st.sampled_from(["cards", "history", "players", "variants", "life"]),
       st.sampled_from(["x", "'" + "y" * 500 + "'", "{card: Sangan, controller: A, zone: hand}", "[*a0]"]))
def test_yaml_aliases(width, levels, field, leaf):
    """A document of nested aliases ("billion laughs") in any field: refused
    before the values are built, quickly, with an InputError."""
    import time

    lines = ["game: ygo", "players: [A, B]", "turn_player: A", "phase: main1"]
    lines.append(f"a0: &a0 [{', '.join([leaf] * width)}]")
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    lines.append(f"{field}: *a{levels - 1}")
    start = time.perf_counter()
    try:
        load_text("\n".join(lines) + "\n", "fuzz.yaml")
    except ALLOWED:
        pass
    assert time.perf_counter() - start < 5


def test_fuzz_budget():
    """At least 10,000 inputs per run (FUZZ_SCALE=1)."""
    tests = [v for k, v in globals().items() if k.startswith("test_") and hasattr(v, "_hypothesis_internal_use_settings")]
    total = sum(t._hypothesis_internal_use_settings.max_examples for t in tests)
    assert total >= 10_000 * min(SCALE, 1), total
