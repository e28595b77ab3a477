"""Timing attributes derived from official Yu-Gi-Oh! card text (Problem-Solving Card Text).

The reader is a grammar (``logic/psct.lark``) plus a lexicon, in three steps:

1. **Card structure** (the `card` rule): the text is split into lines, bullets and
   sentences; quoted card names and parentheticals are single tokens, and each
   sentence keeps the ":" (activation condition) and ";" (cost / targets)
   separators that PSCT uses to mark an activated effect.
2. **Units**: each sentence is an effect, a part of the previous effect (a
   rider, a bulleted mode, the rest of a Spell/Trap's resolution), a
   summoning condition or procedure, a material list, a note, or a
   restriction ("You can only use each effect of X once per turn") that is
   attached to the effects it names.
3. **Effect attributes** (LALR ``head`` and ``cost`` rules over the lexicon
   below, which marks the few places that need more than one token of
   lookahead): the activation
   condition is parsed into frequencies, windows, labels and clauses whose
   predicates are events or states; the cost clause into costs and targets.
   From these the reader derives kind, spell speed, mandatory/optional, "when"
   versus "if", conditions and windows in the closed vocabulary
   (:mod:`logic.vocabulary`), costs, targets, activation zones and duration.

Nothing is guessed.  Every effect gets a status -- ``classified`` (its timing
attributes are fully determined), ``partial`` (its kind is known, something
else is not) or ``unclassified`` (not even the kind) -- with the reasons, and a
list of what it says that the vocabulary cannot express (``unmodelled``: an
event or a condition the encodings do not model).  A question that depends on
a partial or unclassified effect, or on an unmodelled part, must be answered
"not modelled".

Derivations are cached on disk (``~/.cache/chainjudge`` or ``$CHAINJUDGE_CACHE``),
keyed by the SHA-256 of the card file and of the reader's code, grammar and
vocabulary, as JSON (no pickle).

``python -m logic.textreader coverage [FILE]`` prints the coverage report and
the agreement with the hand-checked library.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from lark import Lark, Token, Tree
from lark.exceptions import LarkError
from lark.lexer import Lexer

import logic.cards as _cards_module
from logic import vocabulary as V
from logic.cards import Card, Effect, parse_ygo_card
from logic.errors import InputError

# the code derivations depend on, as imported (see grammar_digest)
_SOURCES = tuple(Path(m).read_bytes() for m in (__file__, V.__file__, _cards_module.__file__))

READER_VERSION = "1.5"  # 1.5: coarse self triggers, Damage Step from battle trigger events, old battle wordings. 1.3: Spell/Trap targets include the Field Zone; "up to N" targets. 1.2: every sentence read or listed. 1.1: ATK/DEF changes read as atk_change
# 1.2: unmodelled parts of effects and cards, older mandatory wording, hard once per turn groups

CLASSIFIED, PARTIAL, UNCLASSIFIED = "classified", "partial", "unclassified"
STATUSES = (CLASSIFIED, PARTIAL, UNCLASSIFIED)

# ====================================================================== grammar


@cache
def _grammar_text() -> str:
    # `logic` is a namespace package: read the grammar from beside this module
    return (Path(__file__).resolve().parent / "psct.lark").read_text(encoding="utf-8")


class _ListLexer(Lexer):
    """Feeds lark a list of already categorised tokens (see :func:`_lex_words`)."""

    def __init__(self, conf: Any) -> None:  # noqa: D107 - lark's interface
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        yield from data


@cache
def _parser(start: str) -> Lark:
    """The LALR parser of one start rule of the grammar (strict: no conflicts)."""
    if start == "card":
        return Lark(_grammar_text(), start="card", parser="lalr", lexer="contextual")
    return Lark(_grammar_text(), start=start, parser="lalr", lexer=_ListLexer, strict=True)


def _card_parser() -> Lark:
    return _parser("card")


@cache
def grammar_digest() -> str:
    """Digest of what derivations depend on: the grammar, this module, the vocabulary
    and the card schema that reads the cached cards back (logic/cards.py).

    The sources are the ones read when this module was imported (``_SOURCES``), so
    that a process never files derivations of the code it runs under the key of a
    file edited since."""
    h = hashlib.sha256(_grammar_text().encode("utf-8"))
    for src in _SOURCES:
        h.update(src)
    return h.hexdigest()[:16]


# ====================================================================== lexicon
# Words of an activation condition (the `head` rule) and their terminals.  Any
# other word is a WORD; quoted names are QNAME and numbers NUM.

def _entries(terminal: str, words: str) -> dict[str, str]:
    return {w: terminal for w in words.split()}


HEAD_LEXICON: dict[str, str] = {
    **_entries("ONCE", "once"),
    **_entries("TWICE", "twice thrice"),
    **_entries("PER", "per"),
    **_entries("UP", "up"),
    **_entries("TO", "to"),
    **_entries("TURN", "turn turns"),
    **_entries("CHAIN", "chain"),
    **_entries("BATTLE", "battle"),
    **_entries("DUEL", "duel"),
    **_entries("DURING", "during"),
    **_entries("AT", "at"),
    **_entries("START", "start"),
    **_entries("END", "end"),
    **_entries("OF", "of"),
    **_entries("THE", "the"),
    **_entries("BEFORE", "before"),
    **_entries("AFTER", "after"),
    **_entries("DAMAGE", "damage"),
    **_entries("STEP", "step"),
    **_entries("CALCULATION", "calculation"),
    **_entries("PHASE", "phase phases"),
    **_entries("DRAW", "draw"),
    **_entries("STANDBY", "standby"),
    **_entries("MAIN", "main"),
    **_entries("YOUR", "your"),
    **_entries("OPPS", "opponent's opponents'"),
    **_entries("OPPONENT", "opponent"),
    **_entries("EITHER", "either"),
    **_entries("EACH", "each"),
    **_entries("PLAYERS", "player's players'"),
    **_entries("THEIR", "their"),
    **_entries("NEXT", "next"),
    **_entries("THIS", "this"),
    **_entries("THAT", "that"),
    **_entries("ANY", "any"),
    **_entries("FLIP", "flip"),
    **_entries("WHEN", "when"),
    **_entries("IF", "if"),
    **_entries("WHILE", "while"),
    **_entries("TIME", "time"),
    **_entries("EXCEPT", "except"),
    **_entries("EVEN", "even"),
    **_entries("YOU", "you they"),
    **_entries("CAN", "can"),
    **_entries("DO", "do"),
    **_entries("AND", "and"),
    **_entries("OR", "or and/or"),
    **_entries("IT", "it"),
    **_entries("CARD", "card"),
    **_entries("MONSTER", "monster"),
    **_entries("IN", "in"),
    **_entries("ON", "on"),
    **_entries("IS", "is are"),
    **_entries("WOULD", "would"),
    **_entries("BEPAST", "was were"),
    **_entries("BEEN", "been"),
    **_entries("HAVE", "have has had"),
    **_entries("STATEV", "control controls own owns"),
    **_entries("NOT", "not"),
    **_entries("NO", "no"),
    **_entries("EXACTLY", "exactly"),
    **_entries("A", "a"),
    **_entries("AN", "an"),
    **_entries("FACE", "face-up face-down"),
    **_entries("STYPE", "normal special tribute fusion synchro xyz link ritual pendulum normal/special"),
    **_entries(
        "PART",
        "summoned sent destroyed banished returned added flipped tributed discarded detached "
        "attached excavated revealed removed used changed shuffled placed attacked negated "
        "equipped unequipped activated drawn set declared inflicted dealt selected chosen moved "
        "milled released resolved turned switched gained taken applied paid destroyed/banished "
        "summoned/set sent/banished looked reduced increased decreased given battled "
        "flip-summoned targeted/destroyed",
    ),
    **_entries(
        "EVT",
        "activates activate summons summon declare attacks attack battles destroys destroy sends send "
        "draws takes take inflicts inflict gains gain loses lose adds add discards discard "
        "banishes banish tributes returns return changes change resolves resolve targets sets "
        "flips leave pays pay uses use applies apply shuffles reveals excavates detaches removes "
        "receives conducts performs places equips negates moves switches chains responds "
        "becomes become mills passes enters starts begins ends skips summons/sets excavate reveal shuffle "
        "detach remove place equip negate move switch conduct perform receive mill skip",
    ),
    **_entries("PAST", "took drew lost received controlled called chose"),
    **_entries("AS", "as"),
    **_entries("INSTEAD", "instead"),
    **_entries("MODAL", "cannot could must does did may can't"),
    **_entries("ADV", "successfully only"),
    **_entries("WHICH", "which"),
    **_entries("WHO", "who whose"),
    **_entries("GY", "gy graveyard"),
    **_entries("HAND", "hand"),
    **_entries("FIELD", "field"),
    **_entries("LEAVES", "leaves"),
    **_entries("DECLARES", "declares"),
    **_entries("TARGETED", "targeted"),
    **_entries("FOR", "for"),
    **_entries("BY", "by"),
    **_entries("FROM", "from"),
}
# "attack" is a noun in "declares an attack", a verb in "if this card attacks"
HEAD_LEXICON["attack"] = "ATTACK"

# Words of a cost clause (the `cost` rule).
COST_LEXICON: dict[str, str] = {
    **_entries("LEAD_TARGET", "target"),
    **_entries("LEAD_DISCARD", "discard"),
    **_entries("LEAD_SEND", "send"),
    **_entries("LEAD_TRIBUTE", "tribute"),
    **_entries("LEAD_BANISH", "banish"),
    **_entries("LEAD_PAY", "pay"),
    **_entries("LEAD_REVEAL", "reveal"),
    **_entries("LEAD_DETACH", "detach"),
    **_entries("LEAD_ACTIVATE", "activate"),
    **_entries(
        "VERB",
        "remove return shuffle place declare excavate equip change add destroy flip take reduce show "
        "turn use let give look choose select roll toss call attach move negate apply set gain draw "
        "put excavate shuffle",
    ),
    **_entries("YOU", "you"),
    **_entries("CAN", "can"),
    **_entries("HALF", "half"),
    **_entries("LP", "lp"),
    **_entries("THIS", "this"),
    **_entries("CARD", "card"),
    **_entries("TO", "to"),
    **_entries("THE", "the"),
    **_entries("GY", "gy graveyard"),
    **_entries("FROM", "from"),
    **_entries("YOUR", "your"),
    **_entries("HAND", "hand"),
    **_entries("IN", "in"),
    **_entries("FACE", "face-up face-down"),
    **_entries("STATEV", "control controls"),
    **_entries("AND", "and"),
    **_entries("OR", "or and/or"),
    **_entries("MONSTER", "monster"),
    **_entries("FIELD", "field"),
    **_entries("OPPS", "opponent's"),
    **_entries("OPPONENT", "opponent"),
    **_entries("A", "a"),
    **_entries("AN", "an"),
    **_entries("ON", "on"),
    **_entries("OF", "of"),
    **_entries("EITHER", "either"),
    **_entries("BY", "by"),
    **_entries("FOR", "for"),
    **_entries("THAT", "that"),
    **_entries("IT", "it"),
    **_entries("STYPE", "normal special fusion synchro xyz link ritual pendulum"),
}

QNAME = "qname"
_NUMBER = re.compile(r"^\d+$")
_RUBY = re.compile(r"<ruby>(.*?)<rt>.*?</rt></ruby>")

RACES = {
    "aqua", "beast", "beast-warrior", "creator-god", "cyberse", "dinosaur", "divine-beast", "dragon",
    "fairy", "fiend", "fish", "illusion", "insect", "machine", "plant", "psychic", "pyro", "reptile",
    "rock", "sea", "serpent", "spellcaster", "thunder", "warrior", "winged", "wyrm", "zombie",
}

# ====================================================================== card structure


class Tok(NamedTuple):
    """A token of the `card` rule (lighter than lark's Token: 14,000 cards make ~400,000)."""

    type: str
    value: str


@dataclass(frozen=True)
class Sentence:
    """A sentence of card text as tokens of the card grammar."""

    tokens: tuple[Tok, ...]
    line: int
    bullet: bool
    terminated: bool

    @property
    def text(self) -> str:
        return _join(self.tokens) + ("." if self.terminated else "")

    def words(self) -> list[str]:
        """Lower-case words (quoted names as 'qname', parentheticals dropped)."""
        cached = self.__dict__.get("_words")
        if cached is not None:
            return list(cached)
        out: list[str] = []
        for t in self.tokens:
            if t.type == "WORD":
                out.append(t.value.lower())
            elif t.type == "QUOTED":
                out.append(QNAME)
            elif t.type in ("COLON", "SEMI", "COMMA"):
                out.append(t.value)
        self.__dict__["_words"] = tuple(out)
        return out


def _join(tokens: Iterable[Tok]) -> str:
    out = ""
    for t in tokens:
        if t.type in ("COLON", "SEMI", "COMMA", "DOT") or not out:
            out += t.value
        else:
            out += " " + t.value
    return out


def split_text(text: str, use_lark: bool = False) -> list[Sentence]:
    """Split card text into sentences by the `card` rule of the grammar.

    Never raises on odd input: a text that does not fit the grammar yields no
    sentences (the caller reports it as unclassified).

    The `card` rule is regular (lines, an optional leading bullet, sentences
    ending in ".", an unterminated tail), and lark's per-token overhead made it
    the slowest step of reading 14,000 cards, so by default it is run by
    :func:`_split_fast`: the grammar's own terminals (compiled into one regular
    expression in lark's order of precedence) and a loop that follows the rule.
    ``use_lark=True`` runs lark's LALR parser instead; the tests check that
    both give the same sentences."""
    clean = _clean(text)
    if not clean.strip():
        return []
    if not use_lark:
        return _split_fast(clean)
    try:
        tree = _card_parser().parse(clean)
    except LarkError:
        return []
    out: list[Sentence] = []
    for lineno, line in enumerate(tree.children):
        if not isinstance(line, Tree):
            continue
        for child in line.children:
            if isinstance(child, Tree):
                toks = [Tok(t.type, str(t)) for t in child.children if isinstance(t, Token) and t.type != "DOT"]
                out.extend(_sentences_of(toks, lineno, child.data == "sentence"))
    return out


def _sentences_of(toks: list[Tok], lineno: int, terminated: bool) -> list[Sentence]:
    """A parsed sentence, split before each bullet ("● Draw 1 card." is a sentence of its own)."""
    out: list[Sentence] = []
    cur: list[Tok] = []
    bullet = False
    for t in toks:
        if t.type == "BULLET":
            if cur:
                out.append(Sentence(tuple(cur), lineno, bullet, False))
            cur, bullet = [], True
        else:
            cur.append(t)
    if cur:
        out.append(Sentence(tuple(cur), lineno, bullet, terminated))
    return out


@cache
def _card_lexer() -> tuple[re.Pattern[str], tuple[str, ...]]:
    """One regular expression for the `card` rule's terminals, in lark's order."""
    terms = list(_card_parser().terminals)
    terms.sort(key=lambda x: (-x.priority, -x.pattern.max_width, -len(x.pattern.value), x.name))
    names = tuple(t.name for t in terms)
    alts = [f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terms]
    # the grammar ignores spaces and tabs between tokens (%ignore)
    return re.compile(r"[ \t]*(?:" + "|".join(alts) + ")"), names




def _split_fast(clean: str) -> list[Sentence]:
    rx, _names = _card_lexer()
    pos = 0
    n = len(clean)
    lines: list[list[Tok]] = [[]]
    match = rx.match
    while pos < n:
        m = match(clean, pos)
        if m is None:
            if not clean[pos:].strip(" \t"):
                break  # trailing spaces
            return []  # a character the grammar does not know
        kind = m.lastgroup or ""
        pos = m.end()
        if kind == "_NL":
            lines.append([])
        elif not kind.startswith("__"):
            lines[-1].append(Tok(kind, m.group(kind)))
    out: list[Sentence] = []
    lineno = -1
    for toks in lines:
        if not toks:
            continue  # _NL matches runs of newlines: an empty line is never a line
        lineno += 1
        cur: list[Tok] = []
        for t in toks:
            if t.type == "DOT":
                if not cur:
                    return []  # "." without a part before it does not fit `sentence`
                out.extend(_sentences_of(cur, lineno, True))
                cur = []
            else:
                cur.append(t)
        if cur:
            out.extend(_sentences_of(cur, lineno, False))
    return out


_CLEAN = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _clean(text: str) -> str:
    text = str(text).replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'")
    text = _CLEAN.sub(" ", text)
    # unbalanced quotes or parentheses would swallow the rest of the text
    if text.count('"') % 2:
        text = text.replace('"', "")
    if "(" not in text and ")" not in text:
        return text
    # drop a ")" that closes nothing; if a "(" is never closed, drop every parenthesis
    depth = 0
    drop: list[int] = []
    for m in _PARENS.finditer(text):
        if m.group() == "(":
            depth += 1
        elif depth == 0:
            drop.append(m.start())
        else:
            depth -= 1
    if drop:
        for i in reversed(drop):
            text = text[:i] + text[i + 1 :]
    if depth:
        text = text.replace("(", " ").replace(")", " ")
    return text


_PARENS = re.compile(r"[()]")


# ====================================================================== head and cost parsing


def _paren_words(tok: Tok) -> list[str]:
    inner = tok.value[1:-1].strip().lower()
    inner = re.sub(r'"[^"]*"', " qname ", inner)
    return [w for w in re.split(r"[\s]+", inner.replace(",", " , ").replace(".", " ")) if w]


def head_words(tokens: Iterable[Tok]) -> list[str]:
    """Normalise the tokens of an activation condition for the head grammar."""
    out: list[str] = []
    for t in tokens:
        if t.type == "WORD":
            w = t.value.lower()
            out.append("gy" if w == "graveyard" else w)  # numbers stay: "Main Phase 1", "1500 or more ATK"
        elif t.type == "QUOTED":
            out.append(QNAME)
        elif t.type == "COMMA":
            out.append(",")
        elif t.type == "PAREN":
            inner = _paren_words(t)
            if inner == ["quick", "effect"]:
                out.append("(quick effect)")
            elif inner and inner[0] in ("except", "even"):
                out.extend([","] + inner)
            # other parentheticals ("(s)", "(min. 1)", rulings reminders) carry no timing
    # collapse doubled or leading commas
    norm: list[str] = []
    for w in out:
        if w == "," and (not norm or norm[-1] == ","):
            continue
        norm.append(w)
    while norm and norm[-1] == ",":
        norm.pop()
    return norm


def _base_tokens(words: Iterable[str], lexicon: Mapping[str, str]) -> list[Token]:
    toks: list[Token] = []
    for w in words:
        if w == ",":
            toks.append(Token("COMMA", w))
        elif w == "(quick effect)":
            toks.append(Token("QUICK", w))
        elif w == QNAME:
            toks.append(Token("QNAME", w))
        elif w == "n" or _NUMBER.match(w):
            toks.append(Token("NUM", w))
        else:
            toks.append(Token(lexicon.get(w, "WORD"), w))
    return toks


def _tok(type_: str, like: Token | str) -> Token:
    return Token(type_, like.value if isinstance(like, Token) else like)


# ---- the head lexer: categorised words plus the marks ISEP, CSEP, PCONJ, REL, ADJ

_CLAUSE_LEADS = {"WHEN", "IF", "WHILE"}
_VERBISH = {"IS", "EVT", "LEAVES", "DECLARES", "WOULD", "STATEV", "HAVE", "BEPAST", "PAST", "MODAL",
            "CAN", "DO", "PART"}
_PRED_START = {"IS", "EVT", "LEAVES", "DECLARES", "WOULD", "STATEV", "HAVE", "BEPAST", "PAST", "MODAL", "CAN"}
_DETERMINERS = {"A", "AN", "YOUR", "THE", "THIS", "YOU", "IT"}
_NOUNS = {"CARD", "MONSTER"}
_SEPS = {"COMMA", "AND", "OR"}


def _is_lead(toks: list[Token], i: int) -> bool:
    """Does an item (frequency, window, label or clause) start at toks[i]?"""
    t = toks[i].type
    nxt = toks[i + 1].type if i + 1 < len(toks) else None
    nxt2 = toks[i + 2].value if i + 2 < len(toks) else None
    if t in ("ONCE", "TWICE", "DURING", "WHEN", "IF", "WHILE", "EXCEPT", "EVEN", "QUICK", "AFTER"):
        return True
    if t == "UP":
        return nxt == "TO"
    if t == "EACH":
        return nxt == "TIME"
    if t == "AT":
        return nxt == "THE" and nxt2 in ("start", "end")
    if t == "BEFORE":
        return nxt in ("DAMAGE", "YOU", "THEIR", "YOUR")
    if t in ("AS", "INSTEAD"):
        return True
    if t == "IN":
        return any(x.type == "TURN" for x in toks[i + 1 : i + 5]) and nxt in ("YOUR", "EITHER", "EACH", "THE", "THEIR")
    if t == "FLIP":
        return nxt is None
    if t == "YOU":
        return nxt == "CAN"
    return False


def head_tokens(words: Iterable[str]) -> list[Token]:
    """The token stream of an activation condition for the `head` rule."""
    toks = _base_tokens(words, HEAD_LEXICON)
    # "Special Summons", "Tribute Summon": a summon verb with its kind;
    # "Main Phase 1 or 2": one phase; "the control of": a noun
    merged: list[Token] = []
    for t in toks:
        if t.type == "EVT" and merged and merged[-1].type == "STYPE":
            prev = merged.pop()
            t = Token("EVT", f"{prev.value} {t.value}")
        elif t.type == "NUM" and len(merged) >= 2 and merged[-1].type == "OR" and merged[-2].type == "NUM":
            merged.pop()
            prev = merged.pop()
            t = Token("NUM", f"{prev.value} or {t.value}")
        elif t.type == "STATEV" and merged and merged[-1].type in ("THE", "A", "AN", "OF"):
            t = _tok("WORD", t)
        merged.append(t)
    toks = merged
    # items: a separator followed by a lead word becomes ISEP; "(Quick Effect)" is an item
    items: list[list[Token]] = [[]]
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.type in _SEPS and items[-1]:
            j = i
            while j < len(toks) and toks[j].type in _SEPS:
                j += 1
            if j < len(toks) and _is_lead(toks, j):
                items.append([])
                if any(x.type == "OR" for x in toks[i:j]):
                    items[-1].append(Token("ALT", "or"))
                i = j
                continue
        if t.type == "QUICK" and items[-1]:
            items.append([])
        elif t.type == "WHILE" and items[-1] and items[-1][-1].type != "ONCE":
            items.append([])  # "... is destroyed while this card is in your GY": a state of its own
        elif t.type in ("IF", "WHEN") and items[-1] and items[-1][0].type in ("AT", "DURING", "BEFORE", "AFTER", "ONCE"):
            items.append([])  # "at the start of the Damage Step if this card battles"
        items[-1].append(t)
        if t.type == "QUICK" and i + 1 < len(toks):
            items.append([])
        i += 1
    items = [it for it in items if it and not (len(it) == 1 and it[0].type == "ALT")]
    out: list[Token] = []
    for n, it in enumerate(items):
        sep = ","
        if it[0].type == "ALT":
            it, sep = it[1:], "or"
        if n:
            out.append(Token("ISEP", sep))
        out.extend(_mark_clause(it) if _is_clause_item(it) else it)
    return out


def _is_clause_item(it: list[Token]) -> bool:
    t = it[0].type
    if t in _CLAUSE_LEADS:
        return True
    if t == "EACH" and len(it) > 1 and it[1].type == "TIME":
        return True
    if t in ("AFTER", "BEFORE"):
        return not (len(it) > 1 and it[1].type == "DAMAGE")
    return False


def _mark_clause(it: list[Token]) -> list[Token]:
    """Mark relative clauses, adjectives and conjunctions inside a clause item."""
    lead = 2 if it[0].type == "EACH" else 1
    out = list(it[:lead])
    toks = it[lead:]
    in_subject = True
    subject_len = 0
    noun_seen = False
    rel = False
    whose = False
    after_is = False  # inside "is [adverbs] [Normal or Special] <participle>"
    i = 0
    while i < len(toks):
        t = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        typ = t.type
        if typ == "DRAW" and not (nxt is not None and nxt.type == "PHASE"):
            t = typ_t = _tok("EVT", t)
            typ = typ_t.type
        if in_subject:
            if subject_len == 0 and (typ == "PART" or typ == "STYPE" and _ptcp_follows(toks, i)):
                # "If Summoned this way", "if destroyed by battle": "(this card) is" is understood
                out.extend([Token("IT", "it"), Token("IS", "is")])
                in_subject, after_is = False, True
                out.append(t)
                i += 1
                continue
            elif subject_len == 0 and typ in ("IN", "ON", "FACE"):
                # "while in Attack Position", "while face-up": "(this card) is" is understood
                out.extend([Token("IT", "it"), Token("IS", "is")])
                in_subject, after_is = False, False
                out.append(t)
                i += 1
                continue
            if whose and typ in _VERBISH:
                rel, whose = True, False
            if rel:
                if typ in _VERBISH or typ in ("BEEN", "TARGETED", "LEAVES", "DECLARES", "ADV"):
                    out.append(_tok("REL", t))
                    i += 1
                    continue
                if typ == "STYPE":
                    out.append(t)
                    i += 1
                    continue
                rel = False
            if typ == "WHO" and t.value == "whose" and subject_len > 0:
                whose = True  # "whose original Level is 7": the next verb is the relative clause's
                out.append(t)
                subject_len += 1
                i += 1
                continue
            if typ in ("THAT", "WHICH", "WHO") and subject_len > 0 and nxt is not None and nxt.type in _VERBISH | {"BEEN"}:
                rel = True
                out.append(t)
                subject_len += 1
                i += 1
                continue
            if typ == "STATEV" and noun_seen and out and out[-1].type in ("YOU", "OPPONENT", "OPPS"):
                out.append(_tok("REL", t))
                subject_len += 1
                i += 1
                continue
            if typ == "PART" and subject_len > 0 and nxt is not None and (nxt.type in _NOUNS or nxt.type == "WORD" and nxt.value in ("monsters", "cards")):
                out.append(_tok("ADJ", t))
                subject_len += 1
                i += 1
                continue
            if typ in _VERBISH and subject_len > 0:
                in_subject = False
                after_is = typ == "IS"
                out.append(t)
                i += 1
                continue
            if typ in _NOUNS or typ in ("WORD", "QNAME", "NUM"):
                noun_seen = True
            out.append(t)
            subject_len += 1
            i += 1
            continue
        # --- in a predicate
        if after_is:
            if typ == "EITHER":
                out.append(_tok("ADV", t))
                i += 1
                continue
            if typ == "STYPE" and out and out[-1].type == "IS" and not _ptcp_follows(toks, i):
                out.append(_tok("WORD", t))
                after_is = False
                i += 1
                continue
            if typ == "PART":
                after_is = False
            elif typ not in ("ADV", "STYPE", "FLIP", "OR", "AND", "COMMA"):
                after_is = False
        if typ in _SEPS:
            j = i
            while j < len(toks) and toks[j].type in _SEPS:
                j += 1
            nxt_t = toks[j] if j < len(toks) else None
            seps = toks[i:j]
            if nxt_t is not None and not after_is:
                if nxt_t.type in _PRED_START or nxt_t.type == "PART" or (
                    nxt_t.type == "STYPE" and _ptcp_follows(toks, j)
                ):
                    out.append(Token("PCONJ", " ".join(x.value for x in seps)))
                    after_is = False
                    i = j
                    continue
                if nxt_t.type in _DETERMINERS and (len(seps) > 1 or seps[0].type == "COMMA" or _clause_follows(toks, j)):
                    out.append(Token("CSEP", " ".join(x.value for x in seps)))
                    in_subject, subject_len, noun_seen, rel, whose = True, 0, False, False, False
                    i = j
                    continue
        out.append(t)
        i += 1
    return out


def _ptcp_follows(toks: list[Token], j: int) -> bool:
    while j < len(toks) and toks[j].type in ("STYPE", "FLIP", "OR", "COMMA", "AND"):
        j += 1
    return j < len(toks) and toks[j].type == "PART"


def _clause_follows(toks: list[Token], j: int) -> bool:
    """After "and"/"or": does a subject with its own verb follow?"""
    for t in toks[j:]:
        if t.type in _PRED_START:
            return True
        if t.type in _SEPS or t.type in ("WHILE", "IF", "WHEN"):
            return False
    return False


@dataclass(frozen=True)
class Clause:
    lead: str  # when if while each_time after
    subject: str  # self | other
    subject_words: tuple[str, ...]
    predicates: tuple[tuple[str, tuple[str, ...]], ...]  # (rule name, words)

    @property
    def words(self) -> tuple[str, ...]:
        out: list[str] = list(self.subject_words)
        for _, ws in self.predicates:
            out.extend(ws)
        return tuple(out)

    @property
    def is_event(self) -> bool:
        return any(p.startswith("ev_") for p, _ in self.predicates)

    @property
    def understood(self) -> bool:
        return bool(self.predicates)

    def pred_text(self) -> str:
        return " ".join(" ".join(ws) for _, ws in self.predicates)

    @property
    def text(self) -> str:
        lead = {"each_time": "each time"}.get(self.lead, self.lead)
        return f"{lead} {' '.join(self.words)}"


@dataclass(frozen=True)
class Item:
    """One item of an activation condition."""

    rule: str
    words: tuple[str, ...]
    owner: str | None = None
    phase: str | None = None
    clause: Clause | None = None
    alt: bool = False  # joined to the item before it by "or": an alternative, not a further condition

    @property
    def text(self) -> str:
        return " ".join(self.words)


def _leaves(tree: Tree | Token) -> list[str]:
    if isinstance(tree, Token):
        return tree.value.split() if tree.type not in ("ISEP",) else []
    out: list[str] = []
    for c in tree.children:
        out.extend(_leaves(c))
    return out


_OWNER_RULES = {"own", "opp", "their", "either", "this", "own_next", "opp_next", "next"}
_PHASE_RULES = {"draw", "standby", "main", "main_numbered", "battle", "end", "damage_step", "battle_step"}


def _subject_kind(words: tuple[str, ...]) -> str:
    if words == ("it",):
        return "self"
    if words[:1] == ("this",) and any(w in ("card", "monster") for w in words[1:4]):
        return "self"
    return "other"


def _items_from_tree(t: Tree, alt: bool = False) -> list[Item]:
    words = tuple(_leaves(t))
    owner = phase = None
    for sub in t.iter_subtrees_topdown():
        if sub.data in _OWNER_RULES and owner is None:
            owner = str(sub.data)
        if sub.data in _PHASE_RULES and phase is None:
            phase = str(sub.data)
            if phase == "main_numbered":  # "Main Phase 1" / "Main Phase 2"
                num = [c.value for c in sub.children if isinstance(c, Token) and c.type == "NUM"]
                phase = f"main{num[0]}" if num and num[0] in ("1", "2") else "main"
    if t.data not in ("when_item", "if_item", "while_item", "each_time_item", "after_item"):
        return [Item(str(t.data), words, owner, phase, alt=alt)]
    # one item per clause: "When A, or B" is two activation conditions; a
    # continuation without a verb ("..., or a monster effect") extends the last
    lead = str(t.data).removesuffix("_item")
    out: list[Item] = []
    next_alt = alt
    for ct in t.children:
        if isinstance(ct, Token):
            if ct.type == "CSEP":
                next_alt = "or" in ct.value.split()
            continue
        subj = tuple(_leaves(ct.children[0]))
        preds = tuple((str(c.data), tuple(_leaves(c))) for c in ct.children[1:] if isinstance(c, Tree))
        if ct.data == "cont" and not preds and out:
            last = out[-1].clause
            assert last is not None
            pr = list(last.predicates)
            name, ws = pr[-1]
            pr[-1] = (name, ws + ("or",) + subj)
            c = Clause(last.lead, last.subject, last.subject_words, tuple(pr))
            out[-1] = Item(out[-1].rule, tuple(c.text.split()), owner, phase, c, out[-1].alt)
            continue
        c = Clause(lead, _subject_kind(subj), subj, preds)
        out.append(Item(str(t.data), tuple(c.text.split()), owner, phase, c, next_alt))
        next_alt = False
    return out


def _tree_items(tree: Tree) -> list[Item]:
    items: list[Item] = []
    alt = False
    for c in tree.children:
        if isinstance(c, Token):
            alt = c.type == "ISEP" and c.value == "or"
        elif isinstance(c, Tree):
            items.extend(_items_from_tree(c, alt))
            alt = False
    return items


@cache
def parse_head(words: tuple[str, ...]) -> tuple[Item, ...]:
    """The items of an activation condition.

    An item the grammar does not accept is kept as an ``other_item`` (with its
    words) so that the reader can report what it did not understand."""
    if not words:
        return ()
    toks = head_tokens(words)
    try:
        return tuple(_tree_items(_parser("head").parse(toks)))
    except LarkError:
        pass
    # parse item by item to find the ones that do not fit
    items: list[Item] = []
    chunk: list[Token] = []
    alt = False
    for t in toks + [Token("ISEP", ",")]:
        if t.type != "ISEP":
            chunk.append(t)
            continue
        if chunk:
            try:
                tree = _parser("head").parse(chunk)
                got = _tree_items(tree)
                if got and alt:
                    got[0] = Item(got[0].rule, got[0].words, got[0].owner, got[0].phase, got[0].clause, True)
                items.extend(got)
            except LarkError:
                items.append(Item("other_item", tuple(x.value for x in chunk), alt=alt))
        chunk = []
        alt = t.value == "or"
    return tuple(items)


@dataclass(frozen=True)
class Act:
    rule: str
    words: tuple[str, ...]


def cost_words(tokens: Iterable[Tok]) -> list[str]:
    out: list[str] = []
    for t in tokens:
        if t.type == "WORD":
            w = t.value.lower()
            if w == "points" and out and out[-1] == "life":
                out[-1] = "lp"
                continue
            out.append("gy" if w == "graveyard" else w)
        elif t.type == "QUOTED":
            out.append(QNAME)
        elif t.type == "COMMA":
            out.append(",")
    while out and out[-1] == ",":
        out.pop()
    return out


_ACT_LEADS = {"LEAD_TARGET", "LEAD_DISCARD", "LEAD_SEND", "LEAD_TRIBUTE", "LEAD_BANISH", "LEAD_PAY",
              "LEAD_REVEAL", "LEAD_DETACH", "LEAD_ACTIVATE", "VERB"}
_ACT_SEPS = {"COMMA", "AND", "THEN", "ALSO"}


def cost_tokens(words: Iterable[str]) -> list[Token]:
    """The token stream of a cost clause: a separator before an act's verb becomes ASEP."""
    toks = _base_tokens(words, {**COST_LEXICON, "then": "THEN", "also": "ALSO", "to": "TO"})
    # "... to activate this card/effect" says what the cost is for
    for i in range(len(toks) - 1):
        if toks[i].type == "TO" and toks[i + 1].type == "LEAD_ACTIVATE":
            toks = toks[:i]
            break
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.type == "TO" and out and i + 1 < len(toks) and toks[i + 1].type == "LEAD_TARGET":
            out.append(Token("ASEP", "to"))  # older wording: "send X to the GY to target Y"
            i += 1
            continue
        if t.type in _ACT_SEPS and out:
            j = i
            while j < len(toks) and toks[j].type in _ACT_SEPS:
                j += 1
            if j < len(toks) and toks[j].type in _ACT_LEADS:
                out.append(Token("ASEP", " ".join(x.value for x in toks[i:j])))
                i = j
                continue
        if t.type in ("THEN", "ALSO"):
            t = _tok("WORD", t)
        out.append(t)
        i += 1
    return out


@cache
def parse_cost(words: tuple[str, ...]) -> tuple[bool, tuple[Act, ...]] | None:
    """(starts with "You can", the acts) of a cost clause, or None."""
    if not words:
        return (False, ())
    try:
        tree = _parser("cost").parse(cost_tokens(words))
    except LarkError:
        return None
    you_can = False
    acts: list[Act] = []
    for c in tree.children:
        if isinstance(c, Tree):
            if c.data == "you_can":
                you_can = True
            else:
                acts.append(Act(str(c.data), tuple(_leaves(c))))
    return you_can, tuple(acts)


# ====================================================================== units

# Sentence openers (lower-case word prefixes) that are not effects.
SUMMON_CONDITION_OPENERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(s.split())
    for s in (
        "cannot be normal summoned", "cannot be special summoned", "cannot be normal summoned/set",
        "must be special summoned", "must first be", "must be ritual summoned", "must be fusion summoned",
        "must be synchro summoned", "must be xyz summoned", "must be link summoned",
        "this card cannot be normal summoned", "this card cannot be special summoned",
        "this card can only be special summoned", "can only be special summoned",
        "this card must be special summoned", "this card must first be",
        "you can ritual summon this card", "you cannot normal summon/set the turn",
        "you cannot special summon the turn", "cannot be special summoned except",
        "this card can only be ritual summoned", "can only be ritual summoned",
        "this card can only be fusion summoned", "this card is always treated",
        "this card cannot be used as material", "you can only special summon",
        "you can only ritual summon", "you can only fusion summon", "you can only synchro summon",
        "you can only xyz summon", "you can only link summon", "you can only pendulum summon",
        "this card can be ritual summoned", "must be normal summoned", "cannot be pendulum summoned",
        "this card cannot be pendulum summoned", "cannot be summoned", "this card cannot be summoned",
        "cannot be used as material", "cannot be used as link material", "cannot be used as synchro material",
        "cannot be used as xyz material", "cannot be used as fusion material", "cannot be used as an xyz material",
        "cannot be used as a synchro material", "cannot be used as a fusion material",
        "cannot be used as a link material", "this card cannot be used as", "you can also xyz summon",
        "you can also xyz summon this card", "you can tribute summon this card by",
        "you can also link summon", "you can also synchro summon", "you can also fusion summon",
        "you can only control 1",
    )
)

RIDER_OPENERS: tuple[tuple[str, ...], ...] = tuple(
    tuple(s.split())
    for s in (
        "this card must be face-up on the field to activate",
        "this card must be face-up on the field to activate and to resolve",
        "if summoned this way", "if special summoned this way", "if this card was special summoned this way",
        "this is a quick effect if", "this effect can be activated", "this effect cannot be activated",
        "you can activate this effect", "this effect can only be used", "this effect can also be used",
        "this effect's activation and effect cannot be negated",
        "this card's activation and effect cannot be negated",
        "the monster special summoned by this effect", "monsters special summoned by this effect",
        "the monster(s) special summoned by this effect", "the monsters special summoned by this effect",
        "the monster added to your hand", "the monster added by this effect",
        "that monster", "that monster's", "those monsters", "it cannot", "it can", "it gains",
        "it loses", "they cannot", "they gain", "also", "then", "otherwise", "after that",
        "for the rest of this turn after this card resolves",
        "for the rest of this turn after this effect resolves",
        "for the rest of this turn after this card resolved",
        "for the rest of this turn after this effect resolved",
        "for the rest of this duel after this card resolves", "until the end of your next turn after this card resolves",
        "during the end phase of this turn", "if you activated this card", "if you activate this card",
        "you cannot special summon for the rest of this turn",
        "you cannot conduct your battle phase the turn you activate this card",
        "you cannot conduct your battle phase the turn you activate this effect",
        "you cannot activate this card", "you cannot activate this effect",
        "you can only activate this card", "you can only activate this effect",
        "this effect", "these effects", "if summoning", "when you do", "if you do", "if it does",
        "the turn you activate this effect", "the turn you activate this card",
        "when this card leaves the field", "when that monster leaves the field", "when that target leaves the field",
        "when that monster is destroyed", "when that target is destroyed", "when it leaves the field",
        "when the equipped monster leaves the field", "for the rest of this turn", "while that token",
        "that token", "while equipped by this effect", "if the targeted monster", "when the targeted monster",
        "if that monster leaves the field", "if that target leaves the field", "when that target leaves",
        "during the end phase, banish the", "during the end phase of this turn",
        # older wording: what the effect before chose ("select 1 monster ... . The selected monster ...")
        "the selected", "the chosen", "if you call it", "if you guess", "if the result",
    )
)

# Sentences that say something about the activation or resolution of the effect
# before them ("... in response to this effect's activation", "... to activate and
# to resolve this effect").
RIDER_PHRASES = ("in response to this effect's activation", "in response to this card's activation",
                 "to activate and to resolve this effect", "to activate and to resolve this card",
                 "in response to this effect's activation", "to activate and resolve this effect",
                 "in response to the activation of this effect", "in response to this card's effect activation",
                 "the turn you activate this effect", "the turn you activate this card",
                 "special summoned by this effect", "summoned by this effect", "added by this effect",
                 "added to your hand by this effect", "equipped by this effect")

_OPT_OPENERS = (("you", "can", "only", "use"), ("you", "can", "only", "activate"))


def _starts(words: list[str] | tuple[str, ...], prefixes: Iterable[tuple[str, ...]]) -> bool:
    for p in prefixes:
        if tuple(words[: len(p)]) == p:
            return True
    return False


@dataclass
class Unit:
    """An effect (or a non-effect) as a group of sentences."""

    role: str  # effect | material | summon_condition | procedure | restriction | note
    sentences: list[Sentence]
    block: str  # monster | pendulum | spell | trap
    activation: bool = False  # the activation of a Spell/Trap Card
    modes: list[Sentence] = field(default_factory=list)
    under_grant: bool = False  # a bulleted effect this card gains ("This card gains these effects")
    implied_you_can: bool = False  # a bullet under "You can only use each of the following effects"
    old_wording: bool = False  # the text predates PSCT: no ':' or ';' marks an activated effect

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences + self.modes)


def _has_structure(s: Sentence) -> bool:
    return any(t.type in ("COLON", "SEMI") for t in s.tokens)


def _is_material_line(s: Sentence, first_line: bool, extra_deck: bool) -> bool:
    if not (extra_deck and first_line and s.line == 0) or _has_structure(s):
        return False
    return not s.terminated or "+" in s.text or " monsters" in s.text.lower()


def _note_only(s: Sentence) -> bool:
    return all(t.type == "PAREN" for t in s.tokens)


def _strip_leading_notes(s: Sentence) -> tuple[list[Sentence], Sentence | None]:
    toks = list(s.tokens)
    notes: list[Sentence] = []
    while toks and toks[0].type == "PAREN" and _paren_words(toks[0]) != ["quick", "effect"]:
        notes.append(Sentence((toks[0],), s.line, s.bullet, False))
        toks.pop(0)
    rest = Sentence(tuple(toks), s.line, s.bullet, s.terminated) if toks else None
    return notes, rest


_GRANT_CUES = ("gains this effect", "gains these effects", "gains the following effect", "gain this effect",
               "gain these effects", "gain the following effect", "gets this effect", "gains effects based",
               "gains the following effects", "gains 1 of these effects")


def _grant(s: Sentence) -> str | None:
    """"self" / "other" if the sentence grants the bulleted effects after it (to this card or another)."""
    txt = " ".join(s.words())
    cue = next((c for c in _GRANT_CUES if c in txt), None)
    if cue is None:
        return None
    before = txt[: txt.index(cue)]
    other_markers = ("using this card", "has this card", "this card as", "summoned using", "equipped monster",
                     "that used this card", "with this card as", "this card attached")
    if "this card" in before and not any(m in before for m in other_markers) or before.strip() in ("it", ""):
        return "self"
    if before.startswith("if this card") or before.startswith("while this card") or ", it " in before + " ":
        return "self"
    return "other"


def _is_equip_only(u: Unit) -> bool:
    return bool(u.sentences) and _starts(u.sentences[0].words(), (("equip", "only", "to"),))


_CHOICE_CUES = ("1 of these", "1 of the following", "one of these", "one of the following", "in sequence",
                "activate 1", "apply 1", "either", "any number of", "up to")

_MODE_CUES = ("apply this effect", "this effect.", "of these effects", "of the following effects", "the following effect", "these effects",
              "the following effects", "1 of these", "following effects", "apply these effects",
              "this effect:")


_SINGLE_ACTIVATION = ("normal", "quickplay", "counter", "ritual")


def units_of(text: str, block: str, card_type: str, prop: str | None, extra_deck: bool) -> list[Unit]:
    """Group the sentences of one text block into units."""
    sentences = split_text(text)
    old = _pre_psct(sentences)
    units: list[Unit] = []
    opt_bullets = False  # bullets after "You can only use each of the following effects"
    last_effect: Unit | None = None
    single = block in ("spell", "trap") and prop in _SINGLE_ACTIVATION
    for raw in sentences:
        notes, s = _strip_leading_notes(raw)
        for n in notes:
            units.append(Unit("note", [n], block))
        if s is None:
            continue
        words = s.words()
        if _is_material_line(s, True, extra_deck):
            units.append(Unit("material", [s], block))
            continue
        if s.bullet and last_effect is not None and not opt_bullets:
            prev = " ".join(x.text.lower() for x in last_effect.sentences)
            grant = _grant(last_effect.sentences[-1]) if last_effect.sentences else None
            if grant == "self":
                unit = Unit("effect", [s], block, under_grant=True)
                units.append(unit)
                continue  # an effect of this card; the grant sentence stays the last effect
            cued = any(cue in prev for cue in _MODE_CUES) or prev.rstrip(".").endswith(";")
            choice = any(c in prev for c in _CHOICE_CUES)
            if cued and not choice and _has_structure(s) and not any(_has_structure(x) for x in last_effect.sentences):
                # "You must have ... to activate these effects. ● 3+: When ...: ..." -- effects of their own
                units.append(Unit("effect", [s], block, under_grant=True))
                continue
            if grant == "other" or cued:
                last_effect.modes.append(s)
                continue
        if s.bullet and opt_bullets:
            unit = Unit("effect", [s], block, implied_you_can=True)
            units.append(unit)
            last_effect = unit
            continue
        if _starts(words, _OPT_OPENERS) and ("once" in words or "per" in words):
            if not _starts(words, (("you", "can", "only", "activate", "this"),)):
                units.append(Unit("restriction", [s], block))
                if "following" in words:
                    opt_bullets = True
                continue
        if _starts(words, SUMMON_CONDITION_OPENERS) and not _has_structure(s):
            units.append(Unit("summon_condition", [s], block))
            continue
        if _is_procedure(s) and not _has_structure(s):
            units.append(Unit("procedure", [s], block))
            continue
        if last_effect is not None and _head_is(s, _RIDER_HEADS):
            last_effect.sentences.append(s)
            continue
        if (last_effect is not None and not _is_equip_only(last_effect) and not _has_structure(s)
                and (_starts(words, RIDER_OPENERS) or any(_contains(words, p) for p in RIDER_PHRASES)
                     or _continues(words))):
            last_effect.sentences.append(s)
            continue
        # The activation of a Normal/Quick-Play/Counter/Ritual Spell or Trap runs
        # over every sentence that is not an effect of its own (one activated
        # with "You can", or from the GY).
        if single and last_effect is not None and last_effect.activation and not s.bullet and not _own_effect(s):
            last_effect.sentences.append(s)
            continue
        if _starts(words, (("activate", "only"), ("activate", "this", "card", "only"))) and last_effect is not None and last_effect.activation:
            last_effect.sentences.append(s)
            continue
        unit = Unit("effect", [s], block)
        if single and not any(x.activation for x in units):
            unit.activation = True
        units.append(unit)
        last_effect = unit
    # the activation of a Spell/Trap
    if block in ("spell", "trap") and not single:
        effects = [u for u in units if u.role == "effect"]
        # Continuous, Field and Equip cards: the activation itself is an effect
        # of its own ("When this card is activated: ..." is its resolution).
        head = next((u for u in effects if _is_activation_sentence(u.sentences[0])), None)
        if head is None and effects and _reads_as_activation(effects[0].sentences[0]):
            head = effects[0]  # "Target 1 monster in your GY; Special Summon it, and equip it with this card."
        if head is not None:
            head.activation = True
        else:
            units.insert(0, Unit("effect", [], block, activation=True))
    for u in units:
        u.old_wording = old
    return units


def _pre_psct(sentences: list[Sentence]) -> bool:
    """Does a text predate Problem-Solving Card Text?  PSCT marks every activated
    effect with ':' (and costs/targets with ';'); older texts write "When X, do Y"
    and use ':' only after "FLIP".  A text with no ';' and no ':' except after a
    leading FLIP, and without the words PSCT introduced ("banish", "GY", "LP",
    "Monster Zone", "Spell & Trap Zone"), is read as older wording: a PSCT text
    without ':' has only effects that are not activated ("Each time your opponent
    Special Summons a monster(s), send the top 3 cards ... to the GY")."""
    for s in sentences:
        for t in s.tokens:
            if t.type == "WORD" and (t.value in ("GY", "LP") or t.value.lower().startswith("banish")):
                return False
        txt = s.text
        if "Monster Zone" in txt or "Spell & Trap Zone" in txt:
            return False
    for s in sentences:
        for i, t in enumerate(s.tokens):
            if t.type == "SEMI":
                return False
            if t.type == "COLON" and not (i == 1 and s.tokens[0].type == "WORD" and s.tokens[0].value.upper() == "FLIP"):
                return False
    return bool(sentences)


_IMPERATIVES = {"return", "destroy", "send", "banish", "add", "special", "draw", "inflict", "shuffle", "place",
                "equip", "gain", "take", "negate", "change", "look", "reveal", "excavate", "discard", "attach"}
_ANAPHORA = ("those cards", "those monsters", "that card", "that monster", "them", "the selected", "it",
             "the revealed", "the excavated", "that target", "those targets")


def _continues(words: list[str]) -> bool:
    """A sentence about what the sentence before it chose ("Return those cards ...",
    "Until your opponent's next End Phase, that monster cannot be destroyed")."""
    if not words:
        return False
    if words[0] in _IMPERATIVES and any(_contains(words[:6], x) for x in _ANAPHORA):
        return True
    return words[0] == "until" and any(_contains(words, x) for x in ("that monster", "that target", "those monsters"))


_RIDER_HEADS = {("if", "you", "do"), ("when", "you", "do"), ("when", "special", "summoned", "this", "way"),
                ("if", "special", "summoned", "this", "way"), ("when", "summoned", "this", "way")}


def _head_is(s: Sentence, heads: set[tuple[str, ...]]) -> bool:
    w = s.words()
    return ":" in w and tuple(w[: w.index(":")]) in heads


def _own_effect(s: Sentence) -> bool:
    """In a Normal/Quick-Play/Counter Spell or Trap: is this sentence an effect of its own?

    The card's activation never says "You can"; an effect of its own does (in its
    condition, its cost, or right after the ":"), or is activated from the GY."""
    w = s.words()
    if not _has_structure(s):
        # a card that stays on the field (Swords of Revealing Light) has an effect
        # that applies while it is face-up; an older-wording activated effect says
        # "Once per turn, ..., you can ..." (Assault Spirits)
        return ((_is_replacement(w) and ("this card" in " ".join(w)))
                or _starts(w, (("while", "this", "card", "is", "face-up", "on", "the", "field"),
                               ("while", "this", "card", "is", "on", "the", "field")))
                or (_starts(w, (("once", "per", "turn", ","),)) and _contains(w, "you can")))
    semi = w.index(";") if ";" in w else None
    colon = w.index(":") if ":" in w else None
    upto = semi if semi is not None else (colon + 3 if colon is not None else len(w))
    txt = " ".join(w[:upto])
    return ("you can" in txt or "from your gy" in txt or "in your gy" in txt or "this set card" in txt
            or "from your graveyard" in txt or "in your graveyard" in txt or "is banished" in txt
            or "this card is sent" in txt or "this card is destroyed" in txt or "in your hand" in txt
            or "this card in" in txt)


def _reads_as_activation(s: Sentence) -> bool:
    """A Continuous/Field/Equip card's sentence that can only be its activation:
    it has a cost or target (";") with no "You can" and no condition of its own."""
    w = s.words()
    return ";" in w and ":" not in w and "can" not in w[: w.index(";")] and w[:1] != ["once"]


def _is_activation_sentence(s: Sentence) -> bool:
    w = s.words()
    return _starts(w, (("when", "this", "card", "is", "activated"), ("activate", "this", "card"),
                       ("activate", "only"), ("equip", "only"))) or _contains(w, "activate this card by")


def _is_procedure(s: Sentence) -> bool:
    """An inherent Special Summon: "(If ...,) you can Special Summon this card (from your hand)"."""
    w = s.words()
    txt = " ".join(w)
    if "you can special summon this card" not in txt and "you can special summon it" not in txt:
        return False
    parens = [_paren_words(t) for t in s.tokens if t.type == "PAREN"]
    return any(p[:1] == ["from"] for p in parens) or " by " in txt


# ====================================================================== effect analysis


@dataclass
class Analysis:
    """Attributes of one effect as the reader derives them (library schema)."""

    kind: str | None = None
    speed: int | None = None
    mandatory: bool = False
    zones: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    responds_to: list[dict[str, str]] = field(default_factory=list)
    costs: list[str] = field(default_factory=list)
    target: dict[str, str] = field(default_factory=dict)
    triggers: list[str] = field(default_factory=list)
    timing: str | None = None
    duration: str | None = None
    once_per_turn: bool = False
    damage_step: str | None = None
    reasons: list[str] = field(default_factory=list)  # why not classified
    unmodelled: list[str] = field(default_factory=list)  # understood, outside the vocabulary
    notes: list[str] = field(default_factory=list)
    # further activations of the same text, one per choice the activating player
    # makes ("Activate 1 of these effects", "When a monster would be Summoned, OR
    # a Spell/Trap Card is activated"): each is an effect entry of its own, as in
    # the library
    alternatives: list[Analysis] = field(default_factory=list)
    activation_from: list[str] = field(default_factory=list)  # a card activation from a place of its own (the hand)
    mode_words: list[str] | None = None  # the words of the mode this activation chose (its duration)
    body_text: str = ""  # the resolution part of the effect's main sentence (after ':' and ';')
    opt_group: str | None = None  # a hard once per turn ("You can only use this effect of X once per turn")

    def status(self) -> str:
        if self.kind is None:
            return UNCLASSIFIED
        return PARTIAL if self.reasons else CLASSIFIED

    def add_cond(self, c: str) -> None:
        if c not in self.conditions:
            self.conditions.append(c)

    def add_zone(self, z: str) -> None:
        if z not in self.zones:
            self.zones.append(z)


def _split_segments(s: Sentence) -> tuple[list[Tok] | None, list[Tok] | None, list[Tok], int, int]:
    """(head, cost, body, number of ':', number of ';') of a sentence."""
    toks = list(s.tokens)
    colons = [i for i, t in enumerate(toks) if t.type == "COLON"]
    semis = [i for i, t in enumerate(toks) if t.type == "SEMI"]
    head = cost = None
    start = 0
    if colons:
        head = toks[: colons[0]]
        start = colons[0] + 1
    rest_semis = [i for i in semis if i > start]
    if rest_semis:
        cost = toks[start : rest_semis[0]]
        body = toks[rest_semis[0] + 1 :]
    else:
        body = toks[start:]
    return head, cost, body, len(colons), len(semis)


def _words_of(tokens: Iterable[Tok]) -> list[str]:
    out = []
    for t in tokens:
        if t.type == "WORD":
            out.append(t.value.lower())
        elif t.type == "QUOTED":
            out.append(QNAME)
        elif t.type == "COMMA":
            out.append(",")
        elif t.type == "PAREN":
            out.extend(["("] + _paren_words(t) + [")"])
    return out


def _contains(words: list[str] | tuple[str, ...], phrase: str) -> bool:
    """Does the word sequence contain the phrase (whole words)?"""
    return f" {phrase} " in f" {' '.join(words)} "


_EVENT_WINDOWS = {"w_old_ds_before", "w_ds_start", "w_ds_after", "w_ds_end", "w_phase_start", "w_phase_end", "w_end_of_turn"}
# windows that make an effect without "(Quick Effect)" a trigger (it happens at that moment)
_MOMENT_WINDOWS = {"w_ds_before", "w_ds_calc"}
_PHASE_OF = {"draw": "draw", "standby": "standby", "main": "main", "main1": "main1", "main2": "main2", "battle": "battle", "end": "end",
             "damage_step": "damage_step", "battle_step": "battle_step"}


# Labels before ":" that select a sub-effect rather than state a condition:
# "Heads:", "1:", "2+:", "Attack Position:", "DARK:", "Fusion:", "LIGHT or DARK:".
LABEL_WORDS = {  # (documentation: typical label words)
    "while", "in", "heads", "tails", "attack", "defense", "position", "light", "dark", "earth", "water", "fire", "wind",
    "divine", "fusion", "synchro", "xyz", "link", "ritual", "pendulum", "or", "and", "monster", "spell",
    "trap", "card", "even", "odd", "n", "n+", "●",
}


_LABEL_STOP = {"ONCE", "TWICE", "DURING", "WHEN", "IF", "EACH", "EXCEPT", "EVEN", "AT", "BEFORE", "AFTER",
               "YOU", "IS", "EVT", "PART", "STATEV", "HAVE", "BEPAST", "PAST", "MODAL", "CAN", "WOULD", "LEAVES",
               "DECLARES", "TARGETED", "THIS", "IT", "QUICK"}


def _strip_label(toks: list[Tok]) -> tuple[list[str], list[Tok]]:
    """A leading "Label:" and the rest of the sentence.

    A label selects a sub-effect ("Heads:", "2+:", "Attack Position:", "DARK:",
    "Left:", "Field:", "While in Defense Position:"): at most six words, none
    of them a lead word or a verb of the head lexicon."""
    if not any(t.type == "COLON" for t in toks):
        return [], toks
    i = next(i for i, t in enumerate(toks) if t.type == "COLON")
    label = toks[:i]
    if not label or len(label) > 6 or i + 1 >= len(toks):
        return [], toks
    words = []
    for t in label:
        if t.type not in ("WORD", "COMMA", "QUOTED"):
            return [], toks
        words.append(t.value.lower() if t.type != "QUOTED" else QNAME)
    cats = [HEAD_LEXICON.get(w, "WORD") for w in words]
    if words[:2] == ["while", "in"]:
        cats = cats[2:]
    if any(c in _LABEL_STOP or c == "WHILE" for c in cats) or words == ["flip"]:
        return [], toks
    return words, toks[i + 1 :]


def _old_style_split(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """Pre-PSCT wording "When X, you can Y": the comma before "you can" ends the condition."""
    for i in range(1, len(toks) - 2):
        if (toks[i].type == "COMMA" and toks[i + 1].type == "WORD" and toks[i + 1].value.lower() == "you"
                and toks[i + 2].type == "WORD" and toks[i + 2].value.lower() == "can"):
            return toks[:i], toks[i + 1 :]
    return None


# Verbs that start the action of an older-wording mandatory effect ("..., inflict 300 damage").
_OLD_ACTIONS = {"inflict", "put", "place", "destroy", "draw", "add", "special", "select", "return", "banish",
                "send", "discard", "change", "gain", "increase", "decrease", "shuffle", "look", "reveal",
                "excavate", "negate", "remove", "toss", "roll", "equip", "flip", "take", "target", "tribute",
                "pay", "move", "declare", "switch", "halve", "double", "set"}
# an action that modifies battle or damage calculation while something applies: a Continuous Effect
_OLD_CONTINUOUS_CUES = ("piercing", "battle damage", "damage calculation", "instead", "during the damage step",
                        "until this card", "as long as", "while this card",
                        # applied "immediately after it resolves", outside any Chain (Bountiful Artemis,
                        # Yugipedia "Continuous Effect": one that applies only when its requirement is met)
                        "immediately after it resolves")


def _old_mandatory_split(toks: list[Tok]) -> tuple[list[Tok], list[Tok]] | None:
    """Older wording of a mandatory Trigger Effect: "When/If/Each time <event>, <do>".

    The condition must be a clause about an event (read by the `head` rule) and
    the action must start with a verb of doing ("inflict", "put", "select", ...);
    "Each time ..., place a counter" (counters piling up) and actions that modify
    battle ("inflict piercing battle damage") stay Continuous Effects."""
    first = toks[0].value.lower() if toks and toks[0].type == "WORD" else ""
    if first not in ("when", "if", "each", "while"):
        return None
    for i in range(1, len(toks) - 1):
        if toks[i].type != "COMMA":
            continue
        nxt = toks[i + 1]
        if nxt.type != "WORD" or nxt.value.lower() not in _OLD_ACTIONS:
            continue
        head, body = toks[:i], toks[i + 1 :]
        if first == "while" and not _old_battle_window(head, body):
            return None  # "While ..., if this card attacks ..., destroy ... without damage calculation" only
        bw = " ".join(_words_of(body))
        if any(c in bw for c in _OLD_CONTINUOUS_CUES) and not _old_battle_window(head, body):
            return None
        if _contains(_words_of(head), "immediately after it resolves"):
            return None  # "Each time ..., immediately after it resolves, draw 1 card": not activated
        items = parse_head(tuple(head_words(head)))
        clauses = [it.clause for it in items if it.clause is not None]
        if not clauses or any(it.rule in ("other_item", "w_other") for it in items):
            return None
        if not any(c.is_event and c.lead in ("when", "if", "each_time") for c in clauses):
            return None
        if first == "each" and nxt.value.lower() in ("place", "put") and "counter" in bw:
            return None  # "Each time ..., place 1 counter on this card": counters pile up (Continuous)
        return head, body
    return None


# Older wording of a Trigger Effect of the Damage Step: "If this card attacks/battles ...,
# destroy the monster ... without applying damage calculation" activates at the start
# of the Damage Step (Yugipedia "Damage Step": Nanobreaker, Disciple of the Forbidden
# Spell; "without (applying) damage calculation", a face-down monster not flipped yet).
_OLD_DS_START = ("without applying damage calculation", "without damage calculation",
                 "without flipping it face-up", "at the start of the damage step")
_OLD_DS_BEFORE = ("before damage calculation",)


def _old_battle_window(head: list[Tok], body: list[Tok]) -> str | None:
    """The Damage Step window of an older-wording battle effect ("If this card attacks
    ..., destroy ... without applying damage calculation"): w_ds_start or w_old_ds_before."""
    hw = " ".join(_words_of(head))
    if not any(x in hw for x in ("this card attacks", "this card battles")):
        return None
    bw = " ".join(_words_of(body))
    if any(c in bw for c in _OLD_DS_START):
        return "w_ds_start"
    if any(c in bw for c in _OLD_DS_BEFORE):
        return "w_old_ds_before"
    return None


def _old_select_target(a: Analysis, body_words: list[str]) -> bool:
    """Older wording "select" for a target chosen on activation ("..., select 1
    face-up monster your opponent controls and destroy it"); True if read."""
    w = body_words[2:] if body_words[:2] == ["you", "can"] else body_words
    if w[:1] != ["select"]:
        return False
    end = len(w)
    for j, x in enumerate(w[1:], start=1):
        if x in (",", ".", "and", "then", "(") or (x == "to" and j > 1):
            end = j
            break
    spec, why = target_spec(tuple(w[1:end]))
    a.notes.append("older wording: 'select' read as a target")
    if spec is None:
        a.unmodelled.append(f"target: {' '.join(w[1:end])} ({why})")
        a.target.setdefault("_targets", "yes")
    else:
        a.target = spec
        _note_target(a, w[1:end])
    return True


def _is_replacement(words: list[str]) -> bool:
    """"If X would be destroyed, you can Y instead": a replacement effect, never activated."""
    return "would" in words and words[-1:] == ["instead"] or _contains(words, "instead") and "would" in words


def analyse_effect(unit: Unit, card_type: str, prop: str | None, kinds: tuple[str, ...]) -> Analysis:
    a = Analysis()
    is_monster_text = unit.block == "monster"
    is_pendulum = unit.block == "pendulum"
    spell_like = unit.block == "spell" or is_pendulum
    trap_like = unit.block == "trap"
    if unit.activation and not unit.sentences:
        # Continuous/Field/Equip activation without text of its own
        a.kind = "card"
        a.speed = _card_speed(card_type, prop)
        return a
    main = unit.sentences[0]
    if unit.activation:
        main = next((x for x in unit.sentences if _has_structure(x)), main)
    all_words: list[str] = []
    for r in unit.sentences:
        all_words += _words_of(r.tokens) + ["."]

    # ---- activation of a Spell/Trap card
    if unit.activation:
        head, cost, body, ncolon, nsemi = _split_segments(main)
        a.body_text = _join(list(cost or []) + (list(body) if cost is None else [Tok("SEMI", ";")] + list(body)))
        a.kind = "card"
        a.speed = _card_speed(card_type, prop)
        if ncolon > 1:
            a.reasons.append("more than one ':' in the activation")
        _read_card_activation(a, unit, main, head, cost, body, card_type, prop)
        _read_duration(a, a.mode_words if a.mode_words is not None else all_words)
        for x in a.alternatives:
            _fill_alternative(a, x)
        return a

    label, toks = _strip_label(list(main.tokens))
    if label:
        a.unmodelled.append(f"condition: applies as '{' '.join(label)}'")
    flip = False
    if toks and toks[0].type == "WORD" and toks[0].value == "FLIP" and len(toks) > 1 and toks[1].type == "COLON":
        flip = True
        toks = toks[2:]
    main = Sentence(tuple(toks), main.line, main.bullet, main.terminated)
    head, cost, body, ncolon, nsemi = _split_segments(main)
    if head is None and cost is not None:
        # older PSCT: "Once per turn, you can target 1 monster; destroy it"
        lead = _old_style_split(list(cost))
        if lead is not None and lead[0]:
            head, cost = lead
    old_style = False
    old_battle = None
    words = _words_of(main.tokens)

    # ---- "(Once per turn,) you can activate 1 of these effects." with bulleted modes
    choice_modes = False
    if head is None and cost is None and not flip and unit.modes and _contains(words, "activate 1 of"):
        split = _old_style_split(toks)
        head = split[0] if split else None
        body = split[1] if split else toks
        choice_modes = True
        a.notes.append("costs and targets depend on the mode chosen")
        for m in unit.modes:
            mh, mc, _mb, _, _ = _split_segments(m)
            if mc is not None:
                info = parse_cost(tuple(cost_words(mc)))
                if info and any(act.rule == "target_act" for act in info[1]):
                    a.unmodelled.append("target: depends on the mode chosen")
                if info and any(act.rule != "target_act" for act in info[1]):
                    a.unmodelled.append("cost: depends on the mode chosen")

    # ---- not an activated effect: no ':' and no ';'
    if head is None and cost is None and not flip and not choice_modes:
        if _is_replacement(words):
            a.kind = "continuous"
        elif _looks_activated_without_structure(words):
            split = _old_style_split(toks)
            if split is None and words[:2] == ["you", "can"]:
                split = ([], toks)
            if split is None:
                a.reasons.append("reads like an activated effect but has no ':' or ';' (older wording)")
                return a  # kind unknown: unclassified
            head, body = split
            head = head or None
            old_style = True
            a.reasons.append("older wording without ':' or ';': 'When'/'If' and cost are not marked")
        elif unit.old_wording and (msplit := _old_mandatory_split(toks)) is not None:
            # older wording of a mandatory trigger: "When this card is Normal Summoned, put
            # 2 counters on it", "Each time a monster is Flip Summoned, inflict 300 damage"
            head, body = msplit
            a.notes.append("older wording without ':': 'When/If/Each time <event>, <do>' read as a mandatory Trigger Effect")
            old_battle = _old_battle_window(head, body)
        else:
            a.kind = "continuous"
        if a.kind == "continuous":
            a.speed = 1
            _read_duration(a, all_words)
            a.zones = ["monster"] if is_monster_text else ["spell_trap"]
            return a
    body_words = _words_of(body)
    a.body_text = _join(list(cost or []) + (list(body) if cost is None else [Tok("SEMI", ";")] + list(body)))

    # ---- an activated effect: parse the activation condition
    items: tuple[Item, ...] = ()
    if head is not None:
        hw = tuple(head_words(head))
        items = parse_head(hw)
    if flip:
        items = (Item("flip_label", ("flip",)),) + items
    if old_battle is not None:
        items = items + (Item(old_battle, ("damage", "step")),)  # the window its words imply (a trigger)
    union = any(i.rule == "you_can_label" for i in items)  # "..., you can:" / "you can either: ..., OR: ..."
    if ncolon > 1 and not union:
        a.reasons.append("more than one ':' in one effect")

    quick = any(i.rule == "quick_label" for i in items) or _contains(all_words, "( this is a quick effect )")
    flip = any(i.rule == "flip_label" for i in items)
    clauses = [i for i in items if i.clause is not None]
    not_understood = [i for i in items if i.rule in ("other_item", "w_other")]
    not_understood += [i for i in clauses if not i.clause.understood]  # type: ignore[union-attr]
    event_clauses = [i for i in clauses if i.clause.lead in ("when", "if", "each_time", "after") and i.clause.is_event]  # type: ignore[union-attr]
    event_windows = [i for i in items if i.rule in _EVENT_WINDOWS]
    if not any(i.rule == "quick_label" for i in items) and is_monster_text:
        event_windows += [i for i in items if i.rule in _MOMENT_WINDOWS]
    phase_windows = [i for i in items if i.rule in ("w_phase", "w_phase_of")]
    when_lead = any(i.rule == "when_item" for i in event_clauses)

    # ---- kind
    if flip:
        a.kind = "flip"
    elif quick:
        a.kind = "quick"
    elif event_clauses or event_windows:
        a.kind = "trigger"
    elif phase_windows and any(i.phase not in ("main", "main1", "main2") for i in phase_windows):
        a.kind = "phase"
    else:
        a.kind = "ignition"
    # Older wording has no "(Quick Effect)" label: an effect activated in response to
    # the activation of a card or effect must be Spell Speed 2 (a Spell Speed 1
    # effect can never be chained to it), so it is a Quick Effect (Spell Reactor・RE)
    if old_style and a.kind == "trigger" and is_monster_text and event_clauses and not event_windows and \
            all(i.clause.lead == "when" and _is_activation_event(i.clause) for i in event_clauses):  # type: ignore[union-attr]
        a.kind = "quick"
        a.notes.append("older wording: responds to an activation, so a Quick Effect (Spell Speed 2)")
    # Older PSCT has no "(Quick Effect)" label either: a monster effect activated "during
    # either player's turn" (or in the opponent's turn, where no Ignition Effect can be) is
    # a Quick Effect, also when it answers an activation (r/Yugioh101 wiki "Ignition Effect")
    if a.kind in ("ignition", "trigger") and is_monster_text and not old_style and not event_windows and not phase_windows and \
            any(i.rule == "w_turn" and i.owner in ("either", "opp") for i in items) and \
            all(i.clause.understood for i in clauses) and not not_understood and \
            all(i.clause.lead == "when" and _is_activation_event(i.clause) for i in event_clauses):  # type: ignore[union-attr]
        a.kind = "quick"
        a.notes.append("older wording: activated during either player's turn, so a Quick Effect (Spell Speed 2)")
    # a clause we could not read decides between trigger and ignition
    undecided = [i for i in clauses if not i.clause.understood and i.clause.lead in ("when", "if")]  # type: ignore[union-attr]
    if a.kind in ("ignition", "phase") and undecided:
        a.reasons.append(f"cannot tell whether {undecided[0].clause.text!r} is an event or a state")  # type: ignore[union-attr]
        a.kind = None
        return a
    if a.kind in ("ignition", "phase") and any(i.rule == "other_item" and i.words and i.words[0] in ("when", "if") for i in items):
        a.reasons.append(f"cannot read {not_understood[0].text!r}")
        a.kind = None
        return a
    # Spells and Traps (and Pendulum Effects) on the field or in the GY
    if not is_monster_text and a.kind == "ignition":
        if trap_like:
            a.kind = "quick"  # a Trap's effects are Spell Speed 2: usable like a Quick Effect
        elif _spell_window_is_fast(items):
            a.kind = "quick"
            a.notes.append("a Spell effect usable outside your Main Phase: Spell Speed 2")

    # ---- speed
    if a.kind in ("quick",):
        a.speed = 2
    else:
        a.speed = 1
    if trap_like and a.kind in ("trigger", "phase", "quick", "ignition"):
        a.speed = 2
    if spell_like and a.kind == "quick" and not _spell_window_is_fast(items) and not event_clauses:
        a.reasons.append("a Spell effect marked quick without a window outside the Main Phase")

    # ---- mandatory / optional
    cost_info = None
    if cost is not None:
        cw = tuple(cost_words(cost))
        cost_info = parse_cost(cw)
        if cost_info is None:
            a.reasons.append(f"cost clause does not parse: {' '.join(cw)!r}")
    cost_w = cost_words(cost) if cost is not None else []
    if _starts(body_words, (("immediately", "after", "this", "effect", "resolves"),)) and _contains(body_words[:12], "you can"):
        body_words = ["you", "can"] + body_words  # "...: Immediately after this effect resolves, you can Normal Summon"
    you_can = (bool(cost_info and cost_info[0]) or _starts(cost_w, (("you", "can"),))
               or _starts(body_words, (("you", "can"),)) or union or unit.implied_you_can or choice_modes)
    a.mandatory = not you_can
    if trap_like and a.kind == "trigger" and not a.mandatory and not event_windows and event_clauses and all(
            i.clause.lead == "when" and i.clause.subject != "self" for i in event_clauses):  # type: ignore[union-attr]
        # a face-up Trap's optional "When <something else happens>: You can" effect is activated
        # like the Trap Card itself, in the response window of that event (a Spell Speed 2
        # effect with an activation condition), not as a Trigger Effect built into a chain at once
        a.kind = "quick"
        a.notes.append("a Trap effect answering an event: activated in that event's response window")
    if a.kind == "ignition" and a.mandatory:
        if _starts(body_words, (("activate", "this", "effect"),)) or _contains(body_words, "you can"):
            pass
        a.reasons.append("an Ignition effect without 'You can'")

    # ---- timing (triggers only)
    if a.kind == "trigger":
        a.timing = "when" if when_lead and not event_windows else "if"

    # ---- conditions, triggers, windows
    split = _split_summon_negation(items) if a.kind != "trigger" else None
    if split is not None:
        items, only = split
        x = Analysis(kind=a.kind, speed=a.speed)
        for it in only:
            _read_item(x, it, event_windows=False)
        a.alternatives.append(x)
    for it in items:
        _read_item(a, it, event_windows=bool(event_windows))
    for it in not_understood:
        a.reasons.append(f"not understood: {it.text!r}")
    for n, it in enumerate(items):
        if it.rule == "w_phase_choice":
            a.reasons.append(f"a choice of windows: {it.text!r}")
        if it.alt and n > 0 and _conflicting_alternatives(a.kind, items[n - 1], it):
            a.reasons.append(f"alternative activation conditions: {items[n - 1].text!r} or {it.text!r}")
    if any(":" in m.words() for m in unit.modes):
        a.reasons.append("a choice of modes with activation conditions of their own")
    if a.kind == "ignition" and "turn(own)" in a.conditions:
        a.conditions.remove("turn(own)")  # an Ignition effect is used in your own turn anyway
    if a.kind == "trigger" and not a.triggers and not any(u.startswith("trigger event") for u in a.unmodelled):
        evs = [i.clause.text for i in event_clauses] + [i.text for i in event_windows]  # type: ignore[union-attr]
        a.unmodelled.append(f"trigger event: {'; '.join(evs)}")

    # ---- costs and targets
    if cost_info is not None:
        for act in cost_info[1]:
            _read_act(a, act)
    if unit.old_wording and cost is None and not a.target:
        _old_select_target(a, body_words)
    # ---- zones
    _read_zones(a, unit, items, body_words, is_monster_text, is_pendulum)
    _read_duration(a, all_words)
    if old_style:
        a.timing = None
        if a.kind == "ignition" and not items_have_clauses(items):
            # "(Once per turn,) you can <cost> to <effect>": an Ignition effect needs no
            # "When"/"If"; only its cost is written differently
            a.reasons = [r for r in a.reasons if not r.startswith("older wording")]
            a.notes.append("older wording: '<cost> to <effect>'")
            old_cost = _old_style_cost(body_words)
            if old_cost:
                info = parse_cost(tuple(old_cost))
                if info is None:
                    a.unmodelled.append(f"cost: {' '.join(old_cost[2:])}")
                else:
                    for act in info[1]:
                        _read_act(a, act)
    # "You must control no cards to activate and to resolve this effect." (Gorz)
    for r in unit.sentences[1:]:
        if _starts(r.words(), (("you", "must", "control", "no", "cards", "to", "activate"),)):
            a.add_cond("controls_no_cards")
            a.unmodelled.append("condition: also checked on resolution")
    for x in a.alternatives:
        _fill_alternative(a, x)
    a.unmodelled = list(dict.fromkeys(a.unmodelled))
    return a


def items_have_clauses(items: Iterable[Item]) -> bool:
    return any(i.clause is not None or i.rule in ("other_item", "w_other") for i in items)


def _old_style_cost(body: list[str]) -> list[str] | None:
    """"you can tribute this card to add 1 ..." -> ["you", "can", "tribute", "this", "card"]."""
    if body[:2] != ["you", "can"]:
        return None
    for i in range(3, len(body) - 1):
        if body[i] == "to" and (COST_LEXICON.get(body[i + 1], "").startswith("LEAD") or
                                COST_LEXICON.get(body[i + 1]) == "VERB" or body[i + 1] in _IMPERATIVES
                                or body[i + 1] in ("special", "have", "make", "increase", "decrease", "select")):
            return body[:i]
    return None


def _contribution(kind: str | None, it: Item) -> set[str]:
    """What an item adds to an effect: condition names, "responds", "trigger"."""
    scratch = Analysis(kind=kind)
    _read_item(scratch, it, event_windows=False)
    out = {c.split("(")[0] for c in scratch.conditions}
    if scratch.responds_to:
        out.add("responds")
    if scratch.triggers:
        out.add("trigger")
    return out


def _conflicting_alternatives(kind: str | None, a: Item, b: Item) -> bool:
    """Two items joined by "or" that the vocabulary would read as both required.

    Alternative triggers and alternative activations responded to are lists of
    alternatives already; anything else (a condition or a window) is not."""
    ca, cb = _contribution(kind, a), _contribution(kind, b)
    if not ca or not cb:
        return False
    return not (ca | cb <= {"responds"} or ca | cb <= {"trigger"})


def _split_summon_negation(items: tuple[Item, ...]) -> tuple[tuple[Item, ...], tuple[Item, ...]] | None:
    """"When a monster(s) would be Summoned, OR a Spell/Trap Card is activated": the
    Summon negation window and the response to an activation are two windows, and
    the player uses the effect in one of them; like the library, one entry each.
    Returns (the items of the activation response, the items of the Summon
    negation), frequencies, windows and labels going with both; None otherwise."""
    def would(it: Item) -> bool:
        ev = _summon_event(it.clause) if it.clause is not None and it.clause.lead == "when" else None
        return ev is not None and ev[0] == "would_be_summoned"
    summon = [it for it in items if would(it)]
    acts = [it for it in items if it.clause is not None and _is_activation_event(it.clause)]
    # a state ("If you control a Level 7 or higher Normal Monster, when ...") goes with both
    shared = [it for it in items if it.clause is not None and not it.clause.is_event and not it.alt]
    events = [it for it in items if it.clause is not None and it not in shared]
    if len(summon) != 1 or not acts or len(events) != 1 + len(acts) or not any(it.alt for it in events[1:]):
        return None
    unalt = lambda it: Item(it.rule, it.words, it.owner, it.phase, it.clause, False)  # noqa: E731
    rest = tuple(unalt(it) if it is acts[0] else it for it in items if it is not summon[0])
    only = tuple(unalt(it) for it in items if it.clause is None or it is summon[0] or it in shared)
    return rest, only


def _fill_alternative(a: Analysis, x: Analysis) -> None:
    """An alternative activation shares what its text shares with the main one."""
    x.kind = x.kind or a.kind
    x.speed = x.speed or a.speed
    x.mandatory = a.mandatory
    x.timing = x.timing or a.timing
    x.once_per_turn = x.once_per_turn or a.once_per_turn
    if x.mode_words is None:
        x.costs = x.costs or list(a.costs)
        x.target = x.target or dict(a.target)
        x.duration = x.duration or a.duration
        x.unmodelled = [u for u in a.unmodelled if u.split(":")[0] in ("cost", "target")] + x.unmodelled
    if not x.activation_from:
        x.zones = x.zones or list(a.zones)
    else:
        # the same card activated from another place ("If you control no cards, you
        # can activate this card from your hand"): everything the activation requires
        # still applies -- its window, conditions, the event it answers, and what of
        # it is not modelled (Evenly Matched from the hand is still activated only at
        # the end of the Battle Phase)
        x.conditions = list(dict.fromkeys(a.conditions + x.conditions))
        x.responds_to = x.responds_to or list(a.responds_to)
        x.triggers = x.triggers or list(a.triggers)
        x.unmodelled = list(dict.fromkeys(a.unmodelled + x.unmodelled))
    x.damage_step = x.damage_step or a.damage_step
    x.reasons = list(dict.fromkeys(a.reasons + x.reasons))
    x.notes.append("one of the choices of this text: an effect entry of its own")


def _card_speed(card_type: str, prop: str | None) -> int:
    if card_type == "trap":
        return 3 if prop == "counter" else 2
    return 2 if prop == "quickplay" else 1


def _spell_window_is_fast(items: Iterable[Item]) -> bool:
    for i in items:
        if i.rule == "w_turn" and i.owner in ("opp", "either", "their"):
            return True
        if i.rule in ("w_phase", "w_phase_of") and (i.owner in ("opp", "either", "their") or i.phase in ("battle", "damage_step")):
            if i.owner == "own" and i.phase in ("main", "main1", "main2"):
                continue
            return True
        if i.rule in ("w_ds_calc", "w_ds_before", "w_damage_step", "w_battle_step"):
            return True
    return False


_OWNER_COND = {"own": "turn(own)", "opp": "turn(opponent)", "own_next": "turn(own)", "opp_next": "turn(opponent)"}


def _read_item(a: Analysis, it: Item, event_windows: bool) -> None:
    r = it.rule
    if r in ("once_per_turn",):
        a.once_per_turn = True
        if it.owner in ("opp",):
            a.add_cond("turn(opponent)")
        elif it.owner in ("own",):
            a.add_cond("turn(own)")
    elif r in ("as_condition", "instead_condition", "before_condition"):
        a.unmodelled.append(f"condition: {it.text}")
    elif r in ("several_per_turn", "once_per_chain", "once_per_battle", "once_per_duel", "once_while", "once_only"):
        a.unmodelled.append(f"frequency: {it.text}")
    elif r == "w_turn":
        c = _OWNER_COND.get(it.owner or "")
        if c:
            a.add_cond(c)
        elif it.owner not in ("either",):
            a.unmodelled.append(f"window: {it.text}")
    elif r == "w_turn_state":
        a.unmodelled.append(f"condition: {it.text}")
    elif r in ("w_phase", "w_phase_of"):
        c = _OWNER_COND.get(it.owner or "")
        if c:
            a.add_cond(c)
        a.add_cond(f"phase({_PHASE_OF[it.phase or 'main']})")
        if r == "w_phase_of" or it.owner in ("own_next", "opp_next", "next", "this"):
            a.unmodelled.append(f"window: {it.text}")
    elif r == "w_ds_calc":
        if a.kind == "trigger" and not event_windows:
            a.unmodelled.append("trigger event: during damage calculation")
        a.add_cond("phase(ds_calc)")
    elif r == "w_battle_step":
        a.add_cond("phase(battle_step)")
    elif r == "w_ds_start":
        if a.kind == "trigger":
            a.triggers.append("start_of_damage_step")
        else:
            a.add_cond("phase(ds_start)")
    elif r == "w_ds_before":
        if a.kind == "trigger":
            a.unmodelled.append("trigger event: before damage calculation")
        else:
            a.add_cond("phase(ds_before)")
    elif r == "w_old_ds_before":
        a.triggers.append("before_damage_calculation")  # an older-wording battle effect (_old_battle_window)
    elif r == "w_ds_after":
        if a.kind == "trigger":
            a.triggers.append("after_damage_calculation")
        else:
            a.add_cond("phase(ds_after)")
    elif r == "w_ds_end":
        if a.kind == "trigger":
            a.unmodelled.append("trigger event: at the end of the Damage Step")
        else:
            a.add_cond("phase(ds_end)")
    elif r == "w_phase_start" and it.phase == "damage_step":
        _read_item(a, Item("w_ds_start", it.words), event_windows)
    elif r == "w_phase_end" and it.phase == "damage_step":
        _read_item(a, Item("w_ds_end", it.words), event_windows)
    elif r == "w_phase_choice":
        pass  # reported by analyse_effect
    elif r in ("w_phase_start", "w_phase_end", "w_end_of_turn"):
        if it.phase:
            a.add_cond(f"phase({_PHASE_OF[it.phase]})")
        c = _OWNER_COND.get(it.owner or "")
        if c:
            a.add_cond(c)
        if a.kind == "trigger":
            if r == "w_phase_start" and it.phase:
                a.triggers.append("phase_start")
            else:
                a.unmodelled.append(f"trigger event: {it.text}")
        else:
            a.unmodelled.append(f"window: {it.text}")
    elif r in ("even_ds", "even_ds_calc"):
        a.damage_step = "allowed"
    elif r == "except_ds" and it.phase not in ("damage_step", None):
        a.unmodelled.append(f"condition: {it.text}")  # "except during the Draw Phase" (Droll & Lock Bird)
    elif r in ("except_ds", "except_ds_calc"):
        a.damage_step = "forbidden"
    elif r == "except_state":
        a.unmodelled.append(f"condition: {it.text}")
    elif it.clause is not None:
        _read_clause(a, it.clause, event_windows)
    elif r in ("quick_label", "flip_label"):
        pass
    elif r == "you_can_label":
        a.notes.append(f"'{it.text}' in the activation condition")
    elif r == "card_named_state":
        a.unmodelled.append(f"condition: {it.text}")


_PLAIN_SELF = {("this", "card"), ("this", "face-up", "card"), ("it",), ("this", "monster")}


def _read_clause(a: Analysis, c: Clause, event_windows: bool) -> None:
    c = _strip_material(a, c)
    w = c.words
    text = c.text
    plain_self = c.subject_words in _PLAIN_SELF
    # --- specific vocabulary
    if plain_self and c.lead == "while" and c.pred_text() in _MATERIAL_STATES:
        a.add_cond(_MATERIAL_STATES[c.pred_text()])  # "while it has no material"
        return
    if c.subject_words == ("your", "opponent") and c.lead == "if" and \
            c.pred_text() == "controls a monster with higher atk than this card":
        a.add_cond("opponent_higher_atk")  # Number 9: Dyson Sphere
        return
    if c.subject_words == ("you",) and c.pred_text() == "control no cards" and c.lead in ("if", "while"):
        a.add_cond("controls_no_cards")
        return
    summon = _summon_event(c)
    if summon is not None and c.lead == "when" and a.kind != "trigger":
        # the Summon negation window ("would be Summoned") or the Summon response
        # window ("a monster is Summoned", "your opponent Summons a monster")
        name, who, how, atk, rest = summon
        a.add_cond(f"{name}({who},{how})")
        if atk is not None:
            a.add_cond(f"summoned_atk_at_least({atk})")
        if rest:
            a.unmodelled.append(f"qualifier: {text}")
        return
    if c.subject_words[:1] == ("your",) and c.subject_words[1:2] == ("opponent",) and \
            c.subject_words[2:] in (("normal", "or", "special"), ("special", "or", "normal")) and \
            len(c.predicates) == 1 and c.predicates[0][0] == "st_past":
        # "if your opponent Normal or Special Summoned 5 or more monsters this turn" (Nibiru)
        pw = c.predicates[0][1]
        if len(pw) == 7 and pw[0] == "summoned" and _NUMBER.match(pw[1]) and pw[2:] == ("or", "more", "monsters", "this", "turn"):
            a.add_cond(f"opponent_summoned_at_least({pw[1]})")
            return
    if a.kind != "trigger" and c.subject_words in (("a", "card"), ("a", "card(s)"), ("cards",)) and \
            c.predicates and c.predicates[0][0] == "ev_passive" and \
            c.predicates[0][1][:6] == ("is", "added", "from", "the", "main", "deck") and \
            c.predicates[0][1][6:] in (("to", "your", "opponent's", "hand"),):
        a.add_cond("added_from_deck(opponent)")  # Droll & Lock Bird
        return
    if a.kind != "trigger" and _own_monster_destroyed(c):
        a.add_cond("own_monster_destroyed")  # Desrook Archfiend
        if c.subject_words[:1] == (QNAME,):
            a.unmodelled.append(f"qualifier: {text}")
        return
    if plain_self and a.kind != "trigger" and c.lead == "if" and c.pred_text() == "is attacked":
        a.add_cond("self_attacked")  # Number 9: Dyson Sphere, through the Battle Step
        return
    if _is_activation_event(c):
        who, kinds = _responds(c)
        narrowed = _responds_narrowed(c)
        if kinds and narrowed is not None:
            kinds = (narrowed,)  # "... is activated that includes an effect that Special Summons"
        if kinds:
            for k in kinds:
                entry = {"who": who, "to": k}
                if entry not in a.responds_to:
                    a.responds_to.append(entry)
            if narrowed is None and _activation_qualified(c):
                a.unmodelled.append(f"qualifier: {text}")
            if any(p.startswith("ev_") and ws[:1] not in (("activates",), ("activate",)) for p, ws in c.predicates[1:]):
                # "... activates a card that targets ..., or targets it for an attack": a second event
                # it also answers, which no reading of the activation bounds
                a.unmodelled.append(f"{'trigger event' if a.kind == 'trigger' else 'event'}: {text}")
            return
        a.unmodelled.append(f"responds to: {text}")
        return
    if c.subject == "other" and c.predicates and c.predicates[0][1][:1] == ("declares",) and (
            _contains(w, "declares an attack") or _contains(w, "declares a direct attack")):
        sw = c.subject_words
        opp = sw in (("an", "opponent's", "monster"), ("your", "opponent's", "monster"), ("your", "opponent"))
        plain_any = sw == ("a", "monster")
        exact = (opp or plain_any) and c.pred_text() == "declares an attack"
        if not (opp or plain_any):
            a.unmodelled.append(f"{'trigger event' if a.kind == 'trigger' else 'event'}: {text}")
            return
        if opp and a.kind != "trigger" and c.pred_text() == "declares a direct attack":
            a.add_cond("direct_attack_declared(opponent)")
            return
        # "declares a direct attack" is narrower: read as the attack declaration, qualified
        if not exact:
            a.unmodelled.append(f"qualifier: {text}")
        if a.kind == "trigger":
            if opp:
                a.triggers.append("attack_declared_opponent")
            else:
                a.unmodelled.append(f"trigger event: {text}")
        else:
            a.add_cond("attack_declared(opponent)" if opp else "attack_declared(any)")
        return
    if plain_self and c.pred_text() == "is targeted for an attack" and c.lead == "when":
        if a.kind == "trigger":
            a.triggers.append("targeted_for_attack")
        else:
            a.add_cond("targeted_for_attack")
        return
    # battle conditions (Kuriboh, Injection Fairy Lily, Honest, Red Dragon Archfiend, Marshmallon)
    if plain_self and c.pred_text() in ("battles", "battles an opponent's monster"):
        if a.kind == "trigger" and not event_windows:
            a.unmodelled.append(f"trigger event: {text}")
        else:
            a.add_cond("self_battles")
            if c.pred_text() != "battles":
                # narrower than self_battles (not a direct attack): read so, reported (Neo-Spacian Grand Mole)
                a.unmodelled.append(f"qualifier: {text}")
        return
    if c.subject == "other" and tuple(c.subject_words) in (("your", "opponent's", "monster"), ("an", "opponent's", "monster")) and _contains(w, "monster attacks") and w[-1] == "attacks":
        if a.kind == "trigger":
            a.unmodelled.append(f"trigger event: {text}")
        else:
            a.add_cond("opponent_monster_attacks")
        return
    m = _own_monster_battles(c)
    if m is not None:
        if a.kind == "trigger" and not event_windows:
            a.unmodelled.append(f"trigger event: {text}")
        else:
            a.add_cond(f"own_monster_battles({m})")
        return
    if plain_self and c.pred_text() in ("attacked an opponent's defense position monster",
                                        "attacks a defense position monster", "attacked a defense position monster"):
        a.add_cond("attacked_defense_position")
        return
    if plain_self and c.pred_text() == "was attacked was face-down at the start of the damage step":
        a.add_cond("was_attacked_face_down")
        return
    # --- self events that are trigger events
    if plain_self and c.is_event and a.kind in ("trigger", "flip") and c.lead in ("when", "if"):
        trig = _self_trigger(c)
        if trig:
            for t in trig:
                if t not in a.triggers:
                    a.triggers.append(t)
            return
        _coarse_self_trigger(a, c)
        a.unmodelled.append(f"trigger event: {text}")
        return
    if c.subject == "self" and c.is_event and a.kind in ("trigger", "flip") and c.lead in ("when", "if"):
        _coarse_self_trigger(a, c)  # "this card in its owner's possession is destroyed ..."
    if c.is_event:
        if a.kind == "trigger" and c.lead in ("when", "if", "each_time", "after") and not event_windows:
            a.unmodelled.append(f"trigger event: {text}")
        else:
            a.unmodelled.append(f"event: {text}")
        return
    a.unmodelled.append(f"condition: {text}")


_MATERIAL_STATES = {"has no material": "no_material", "has material": "has_material",
                    "has no xyz material": "no_material", "has xyz material": "has_material"}


def _strip_material(a: Analysis, c: Clause) -> Clause:
    """"this card with material is attacked" -> condition has_material, "this card is attacked"."""
    sw = c.subject_words
    for tail, cond in ((("with", "material"), "has_material"), (("with", "no", "material"), "no_material")):
        if sw[:1] == ("this",) and sw[-len(tail):] == tail and _subject_kind(sw[:-len(tail)]) == "self":
            a.add_cond(cond)
            return Clause(c.lead, "self", sw[:-len(tail)], c.predicates)
    return c


_SUMMON_HOW = {(): "any", ("normal",): "normal", ("special",): "special", ("flip",): "flip",
               ("normal", "or", "flip"): "normal_or_flip", ("flip", "or", "normal"): "normal_or_flip"}
_A_MONSTER = (("a", "monster"), ("a", "monster(s)"), ("monsters",), ("a", "monster", "or", "monsters"))
_WHO_SUMMONS = {("your", "opponent"): "opponent", ("you",): "self", ("a", "player"): "any", ("either", "player"): "any"}


def _summon_event(c: Clause) -> tuple[str, str, str, str | None, tuple[str, ...]] | None:
    """A Summon as the activation condition: (condition, who, how, ATK at least, rest).

    "a monster(s) would be [Special] Summoned" -> would_be_summoned; "a monster(s) is
    [Normal] Summoned" / "your opponent [Normal or Flip] Summons a monster(s) [with
    1500 or more ATK]" -> summoned.  ``rest`` is what narrows it further (a qualifier)."""
    if len(c.predicates) != 1:
        return None
    rule, pw = c.predicates[0]
    sw = c.subject_words
    if rule in ("ev_would", "ev_passive") and sw in _A_MONSTER:
        lead = ("would", "be") if rule == "ev_would" else ("is",)
        if rule == "ev_passive" and pw[:1] == ("are",):
            lead = ("are",)
        if pw[:len(lead)] != lead or "summoned" not in pw:
            return None
        k = pw.index("summoned")
        how = _SUMMON_HOW.get(tuple(pw[len(lead):k]))
        if how is None:
            return None
        return ("would_be_summoned" if rule == "ev_would" else "summoned"), "any", how, None, tuple(pw[k + 1:])
    if rule == "ev_active" and pw[:1] == ("summons",):
        who_words = next((w for w in _WHO_SUMMONS if sw[:len(w)] == w), None)
        if who_words is None:
            return None
        how = _SUMMON_HOW.get(tuple(sw[len(who_words):]))
        obj = tuple(pw[1:])
        core = next((m for m in _A_MONSTER if obj[:len(m)] == m), None)
        if how is None or core is None:
            return None
        rest = obj[len(core):]
        atk = None
        if len(rest) == 5 and rest[0] == "with" and _NUMBER.match(rest[1]) and rest[2:] == ("or", "more", "atk"):
            atk, rest = rest[1], ()
        return "summoned", _WHO_SUMMONS[who_words], how, atk, rest
    return None


def _own_monster_destroyed(c: Clause) -> bool:
    """"(a monster / "Name") you control is destroyed (and sent to the GY)"."""
    sw = c.subject_words
    if sw[-2:] != ("you", "control") or sw[:-2] not in (("a", "monster"), (QNAME,), ("a", "monster(s)")):
        return False
    preds = [(r, ws) for r, ws in c.predicates]
    if not preds or preds[0] != ("ev_passive", ("is", "destroyed")):
        return False
    return all(ws in (("sent", "to", "the", "gy"),) for _, ws in preds[1:])


def _is_activation_event(c: Clause) -> bool:
    w = c.words
    return (_contains(w, "is activated") or _contains(w, "are activated") or
            any(p == "ev_active" and ws[-1:] and False for p, ws in c.predicates) or
            any(p == "ev_active" and (ws[:1] in (("activates",), ("activate",))) for p, ws in c.predicates))


_RESPONDS_OBJECTS: list[tuple[str, tuple[str, ...]]] = [
    ("a spell/trap card , or monster effect", ("spell_trap_card", "monster_effect")),
    ("a spell/trap card or monster effect", ("spell_trap_card", "monster_effect")),
    ("a spell card , trap card , or monster effect", ("spell_trap_card", "monster_effect")),
    ("a spell/trap card or effect", ("spell_trap_card", "spell_trap_effect")),
    ("a spell/trap card", ("spell_trap_card",)),
    ("a spell/trap effect", ("spell_trap_effect",)),
    ("a spell card or effect", ("spell_card",)),
    ("a spell card", ("spell_card",)),
    ("a trap card", ("trap_card",)),
    ("a monster effect", ("monster_effect",)),
    ("a card or effect", ("any",)),
    ("a card , or monster effect", ("spell_trap_card", "monster_effect")),
]


_NARROWING = {("that", "includes", "an", "effect", "that", "special", "summons"): "special_summons"}


def _responds_narrowed(c: Clause) -> str | None:
    """An activation narrowed to a kind the vocabulary names ("that includes an effect that
    Special Summons a monster(s)" -> special_summons)."""
    for p, ws in c.predicates:
        if p == "ev_passive" and ws[:2] in (("is", "activated"), ("are", "activated")):
            rest = tuple(ws[2:])
            for phrase, kind in _NARROWING.items():
                if rest[:len(phrase)] == phrase and rest[len(phrase):] in ((), ("a", "monster"), ("a", "monster(s)")):
                    return kind
    return None


def _responds(c: Clause) -> tuple[str, tuple[str, ...]]:
    subj = " ".join(c.subject_words)
    if c.subject_words in (("a", "card", "effect"), ("a", "card", "or", "effect")) and len(c.predicates) == 1:
        # "a card effect is activated in your opponent's GY" (Skull Meister)
        ws = c.predicates[0][1]
        if ws in (("is", "activated", "in", "your", "opponent's", "gy"),):
            return "opponent", ("graveyard_effect",)
        if ws in (("is", "activated", "in", "the", "gy"),):
            return "any", ("graveyard_effect",)
    words = list(c.words)
    # active: "<who> activates <object>"; passive: "<object> is activated"
    who = "any"
    obj: list[str]
    active = next((ws for p, ws in c.predicates if p == "ev_active"), None)
    if active is not None and active[1:] in (("its", "effect"), ("its", "effects")):
        if "monster" in c.subject_words:
            return ("opponent" if "opponent's" in c.subject_words else "any"), ("monster_effect",)
        if "spell/trap" in c.subject_words or "spell" in c.subject_words or "trap" in c.subject_words:
            return ("opponent" if "opponent's" in c.subject_words else "any"), ("spell_trap_effect",)
        return "any", ()
    if any(p == "ev_active" for p, _ in c.predicates):
        if subj in ("your opponent",):
            who = "opponent"
        elif subj in ("you",):
            who = "self"
        elif subj in ("a player", "either player"):
            who = "any"
        else:
            return who, ()
        pred = next(ws for p, ws in c.predicates if p == "ev_active")
        obj = list(pred[1:])
    else:
        obj = list(c.subject_words)
        if " ".join(obj).startswith("your opponent's "):
            who = "opponent"
            obj = ["a"] + obj[2:]
        elif " ".join(obj).startswith("an opponent's "):
            who = "opponent"
            obj = ["a"] + obj[2:]
    del words
    # cut qualifiers ("that targets ...", "in the hand")
    cut = len(obj)
    for i, x in enumerate(obj):
        if x in ("that", "which", "in", "on", "while", "with", "including", "(", "from"):
            cut = i
            break
    core = " ".join(obj[:cut]).replace("spell/trap card(s)", "spell/trap card").rstrip(" ,")
    for phrase, kinds in _RESPONDS_OBJECTS:
        if core == phrase:
            if kinds == ("any",):
                return who, ("any",)
            return who, kinds
    return who, ()


def _activation_qualified(c: Clause) -> bool:
    w = list(c.words)
    if c.subject_words not in (("your", "opponent"), ("you",), ("a", "player")) and any(
            p == "ev_active" for p, _ in c.predicates) and c.subject_words not in (("a", "monster"),):
        return True  # "a monster on the field activates its effect": a narrower subject
    return any(x in w for x in ("that", "which", "while", "with", "including", "from")) or _contains(w, "in the")


def _own_monster_battles(c: Clause) -> str | None:
    if c.subject != "other":
        return None
    sw = c.subject_words
    pw = [ws for _, ws in c.predicates]
    if len(pw) != 1 or pw[0] not in (("battles",),):
        return None
    if sw == ("a", "monster", "you", "control"):
        return "any"
    if sw == ("a", "light", "monster", "you", "control") or sw == ("your", "light", "monster"):
        return "light"
    return None


_SELF_TRIGGERS: dict[str, list[str]] = {
    "is normal summoned": ["normal_summoned"],
    "is special summoned": ["special_summoned"],
    "is tribute summoned": ["tribute_summoned"],
    "is summoned": ["summoned"],
    "is normal or special summoned": ["normal_summoned", "special_summoned"],
    "is sent from the field to the gy": ["sent_to_gy_from_field"],
    "is sent to the gy": ["sent_to_gy"],
    "is destroyed by battle": ["destroyed_by_battle"],
    "is destroyed by battle sent to the gy": ["destroyed_by_battle"],
    "is destroyed": ["destroyed"],
    "leaves the field": ["leaves_field"],
    "is flipped face-up": ["flipped"],
    "is targeted for an attack": ["targeted_for_attack"],
    "destroys a monster by battle": ["destroys_by_battle"],
    "destroys an opponent's monster by battle": ["destroys_by_battle"],
}


def _self_trigger(c: Clause) -> list[str] | None:
    """The vocabulary trigger(s) of an event happening to this card (plain subject only)."""
    body = c.pred_text()
    if body == "leaves the field" and c.subject_words != ("this", "face-up", "card"):
        return None  # "this card leaves the field" includes leaving face-down
    return _SELF_TRIGGERS.get(body)


def _coarse_self_trigger(a: Analysis, c: Clause) -> None:
    """A self event narrower than a vocabulary trigger ("is sent to the GY by a card
    effect", "is Special Summoned from the Spell & Trap Zone"): its wider trigger is
    recorded, and the caller keeps the words as an unmodelled trigger event (never
    bounded, so an answer that could turn on it is refused).  It says what moves
    the card itself, which the Damage Step rule reads (ygo.damage_step.allowed)."""
    body = c.pred_text()
    if body.startswith("leaves the field") and c.subject_words[:2] != ("this", "face-up"):
        return
    wider = [k for k in _SELF_TRIGGERS if body.startswith(k + " ")]
    if not wider:
        return
    for t in _SELF_TRIGGERS[max(wider, key=len)]:
        if t not in a.triggers:
            a.triggers.append(t)


def _read_act(a: Analysis, act: Act) -> None:
    w = act.words
    r = act.rule
    if r == "target_act":
        spec, why = target_spec(w[1:])
        if spec is None:
            a.unmodelled.append(f"target: {' '.join(w[1:])} ({why})")
            a.target = a.target or {}
            a.notes.append("targets (specification not modelled)")
            a.target.setdefault("_targets", "yes")
        else:
            a.target = spec
            _note_target(a, w[1:])
    elif r == "discard_self":
        a.costs.append("discard_self")
        a.add_zone("hand")
    elif r == "tribute_self":
        a.costs.append("tribute_self")
    elif r == "banish_self":
        a.costs.append("banish_self")
        if _contains(w, "from your gy") or _contains(w, "from your graveyard"):
            a.add_zone("graveyard")
        elif _contains(w, "from your hand"):
            a.add_zone("hand")
    elif r == "pay_lp":
        n = next((x for x in w if _NUMBER.match(x)), None)
        a.costs.append(f"pay_lp({n})")
    elif r == "pay_half":
        a.costs.append("pay_half_lp")
    elif r == "reveal_self":
        a.add_zone("hand")
        a.unmodelled.append("cost: reveal this card")
    elif r == "discard_other":
        race = _single_race(w[1:])
        a.costs.append(f"discard({race})" if race else "discard")
        if not race and w[1:] not in (("1", "card"), ("n", "card")):
            a.unmodelled.append(f"cost: {' '.join(w)}")
    elif r in ("send_self", "send_other"):
        hand_to_gy = _contains(w, "from your hand to the gy") or _contains(w, "from your hand to the graveyard")
        if r == "send_self" and hand_to_gy:
            a.costs.append("discard_self")
            a.add_zone("hand")
        elif r == "send_other" and hand_to_gy and _single_race(w[1:]):
            a.costs.append(f"discard({_single_race(w[1:])})")
        else:
            a.unmodelled.append(f"cost: {' '.join(w)}")
    elif r == "activate_this":
        pass
    else:
        a.unmodelled.append(f"cost: {' '.join(w)}")


def _single_race(words: Iterable[str]) -> str | None:
    found = [x for x in words if x in RACES]
    if len(found) == 1 and "or" not in words:
        return found[0].replace("-", "_")
    return None


# words a target specification reads (zone, side, face, kind, position): any other word
# of a target ("Level 4 or lower", "other", a name, a Type, "face-down") narrows it
# beyond what the vocabulary says, and is listed as unmodelled
_TARGET_WORDS = {
    "1", "n", "a", "an", "the", "card", "cards", "card(s)", "monster", "spell/trap", "face-up", "effect", "attack",
    "position", "on", "field", "your", "opponent", "opponent's", "controls", "you", "control", "in", "gy",
    "graveyard", "either", "player's", "banished", "zone", "that", "attacking", "is",
    "(", ")", "s", "of", "side", "(s)", "monster(s)", "spell/trap(s)", "card's", "monster's",
}
_TARGET_PHRASES = (("spell card or trap card", "spell/trap"), ("spell or trap card", "spell/trap"),
                   ("spell or trap", "spell/trap"), ("spell & trap zone", "zone"), ("spell & trap card zone", "zone"),
                   ("monster card zone", "zone"), ("monster zone", "zone"), ("field zone", "zone"))


def target_qualifiers(words: Iterable[str], spec: Mapping[str, str] | None = None) -> list[str]:
    """The words of a target that its specification (:func:`target_spec`) does not hold."""
    w = list(words)
    if len(w) > 3 and w[:2] == ["up", "to"]:
        w = ["1", *(_SINGULAR.get(x, x) for x in w[3:])]  # "up to N monsters" (target_spec)
    text = " ".join(w)
    for p, r in _TARGET_PHRASES:
        text = text.replace(p, r)
    kind = (spec or {}).get("kind")
    held = {"spell": {"spell"}, "tuner": {"tuner"}}.get(kind or "", set())
    return [x for x in text.split() if x not in _TARGET_WORDS and x not in held]


def _note_target(a: Analysis, words: Iterable[str]) -> None:
    """List a target's qualifiers the specification does not hold."""
    w = list(words)
    extra = target_qualifiers(w, a.target)
    if extra:
        a.unmodelled.append(f"target: {' '.join(w)} (narrower than the modelled target: {' '.join(extra)})")


_SINGULAR = {"monsters": "monster", "cards": "card", "spells/traps": "spell/trap", "monster(s)": "monster",
             "card(s)": "card", "spell/trap(s)": "spell/trap", "spells": "spell", "traps": "trap"}


_ALTERNATIVE_TARGET = re.compile(r"\bor (?:1|n|up to|a|an) ")


def target_spec(words: Iterable[str]) -> tuple[dict[str, str] | None, str]:
    """The library's target specification (zone, side, face, kind, position, attacker)."""
    w = [x for x in words]
    s = " ".join(w)
    spec: dict[str, str] = {}
    if s in ("that attacking monster", "the attacking monster", "1 attacking monster"):
        return {"zone": "monster", "attacker": "yes"}, ""
    if len(w) > 3 and w[:2] == ["up", "to"] and w[2] not in ("1",) and " and " not in s:
        # "target up to N monsters": at least 1 target is needed, and 1 is enough (the question
        # language names a target or several, each matched against this one specification)
        one = [_SINGULAR.get(x, x) for x in w[3:]]
        spec1, why1 = target_spec(["1", *one])
        return spec1, why1
    if " and " in s or s.startswith("2 ") or s.startswith("up to") or "cards" in w or "monsters" in w:
        return None, "several targets"
    if _ALTERNATIVE_TARGET.search(s):
        # "1 card your opponent controls, or 1 Spell in your GY": one of two kinds of target, wider
        # than either specification
        return None, "one of several kinds of target"
    gy = _contains(w, "gy") or _contains(w, "graveyard")
    # the kind of card a target in a GY or banished must be (a monster, a Spell/Trap, a Spell, a Tuner)
    kind = ("spell_trap" if "spell/trap" in w or _contains(w, "spell or trap") else "spell" if "spell" in w and "trap" not in w
            else "tuner" if "tuner" in w else "monster" if "monster" in w else None)
    if gy:
        spec["zone"] = "graveyard"
        if _contains(w, "your opponent's gy") or _contains(w, "your opponent's graveyard"):
            spec["side"] = "opponent"
        elif _contains(w, "your gy") or _contains(w, "your graveyard"):
            spec["side"] = "own"
        if kind:
            spec["kind"] = kind
        return spec, ""
    if "banished" in w:
        spec["zone"] = "banished"
        if kind:
            spec["kind"] = kind
        return spec, ""
    if _contains(w, "in your hand") or _contains(w, "in your deck") or _contains(w, "extra deck"):
        return None, "not a card on the field or in a GY"
    noun = None
    if "spell/trap" in w or _contains(w, "spell/trap card"):
        noun = "spell_trap"
    elif "monster" in w:
        noun = "monster"
    elif "card" in w:
        noun = "card"
    else:
        return None, "no recognisable target noun"
    if _contains(w, "effect monster"):
        spec["kind"] = "effect_monster"
        spec["face"] = "up"
    if "face-up" in w:
        spec["face"] = "up"
    if _contains(w, "attack position"):
        spec["position"] = "attack"
    if _contains(w, "your opponent controls") or _contains(w, "on your opponent's field") or _contains(w, "your opponent's field"):
        spec["side"] = "opponent"
    elif _contains(w, "you control") or _contains(w, "on your field") or _contains(w, "in your monster zone") or _contains(w, "in your spell & trap zone"):
        spec["side"] = "own"
    elif _contains(w, "your opponent's"):
        spec["side"] = "opponent"  # "1 card in your opponent's Spell & Trap Zone"
    if noun == "card" and "spell" in w and "trap" not in w:
        spec["kind"] = "spell"  # "1 Spell Card on the field" (a Field Spell too)
    elif noun == "monster" and "tuner" in w:
        spec["kind"] = "tuner"
    if noun == "monster":
        spec["zone"] = "monster"
    elif noun == "spell_trap":
        # "1 Spell/Trap on the field" includes a Field Spell in the Field Zone (kind, anywhere on the field);
        # "1 card in the Spell & Trap Zone" does not
        if _contains(w, "spell & trap zone"):
            spec["zone"] = "spell_trap"
        else:
            spec["zone"] = "field"
            spec["kind"] = "spell_trap"
    else:
        if _contains(w, "spell & trap zone"):
            spec["zone"] = "spell_trap"
        elif _contains(w, "monster zone"):
            spec["zone"] = "monster"
        else:
            spec["zone"] = "field"
    # ordering like the library's
    order = ["zone", "side", "face", "kind", "position", "attacker"]
    return {k: spec[k] for k in order if k in spec}, ""


def _read_zones(a: Analysis, unit: Unit, items: Iterable[Item], body: list[str], monster: bool, pendulum: bool) -> None:
    for it in items:
        c = it.clause
        if c is None:
            continue
        w = " ".join(c.words)
        if c.subject == "self" and not c.is_event:
            if re.search(r"\bis in your hand\b", w) or "is in your hand or" in w:
                a.add_zone("hand")
            if re.search(r"\bis in your (gy|graveyard)\b", w) or "hand or gy" in w or "or gy" in w:
                a.add_zone("graveyard")
            if "is banished" in w and c.lead == "while":
                a.add_zone("banished")
        if c.subject == "self" and c.is_event and a.kind in ("trigger",):
            ws = set(c.words)
            if ("sent" in ws and "gy" in ws) or ws & {"destroyed", "discarded", "tributed", "detached"}:
                a.add_zone("graveyard")
            if "banished" in w:
                a.add_zone("banished")
            if "added to your hand" in w or "returned to your hand" in w or "returned to the hand" in w:
                a.add_zone("hand")
            if "leaves the field" in w:
                a.add_zone("graveyard")
                a.add_zone("banished")
                a.add_zone("hand")
            if "summoned" in w or "flipped" in w:
                a.add_zone("monster")
    bw = " ".join(body)
    if not a.zones:
        if "this card from your hand" in bw and a.kind in ("ignition", "quick", "trigger"):
            a.add_zone("hand")
        elif ("this card from your gy" in bw or "this card from your graveyard" in bw) and a.kind in ("ignition", "quick", "trigger"):
            a.add_zone("graveyard")
    if not a.zones:
        a.zones = ["monster"] if monster else ["spell_trap"]
    del unit, pendulum


def _read_duration(a: Analysis, words: list[str]) -> None:
    txt = f" {' '.join(words)} "
    if " until the end of this turn " in txt or " until the end of the turn " in txt or \
            " until the end of this turn ." in txt or " until the end of this turn ," in txt:
        a.duration = "end_of_turn"
    elif re.search(r" until the end phase(?! of)", txt):
        a.duration = "end_phase"
    elif _contains(words, "this turn") and not _contains(words, "for the rest of this turn") and a.kind == "card":
        a.duration = "end_of_turn"


# "You can <verb> ..." without ":" or ";" is an activated effect in older wording
# when the verb is an action (the cost or the effect); with these verbs it is a
# rule permission instead ("You can Normal Summon this card without Tributing").
_PERMISSION_VERBS = {"normal", "tribute", "set", "activate", "attack", "conduct", "only", "use", "include",
                     "treat", "ritual", "fusion", "synchro", "xyz", "link", "pendulum", "also", "control",
                     "place", "change", "look", "have", "apply", "choose", "target", "declare", "special"}


def _looks_activated_without_structure(words: list[str]) -> bool:
    """A pre-PSCT activated effect: 'When X, you can Y' / 'Once per turn, you can Y' / 'You can tribute this card to Y'."""
    s = " ".join(words)
    if words[:1] in (["when"], ["once"], ["during"]) and ("you can" in s):
        return True
    if "you can" in s and (", you can" in s) and words[:1] in (["if"], ["when"], ["during"], ["once"], ["at"], ["each"]):
        return True
    if words[:2] == ["you", "can"] and len(words) > 2 and words[2] not in _PERMISSION_VERBS:
        return True
    if words[:4] == ["you", "can", "tribute", "this"]:
        return True
    return False


def _read_card_activation(a: Analysis, unit: Unit, main: Sentence, head: list[Tok] | None,
                          cost: list[Tok] | None, body: list[Tok], card_type: str, prop: str | None) -> None:
    items: tuple[Item, ...] = ()
    words = main.words()
    if _starts(words, (("equip", "only", "to"),)):
        tw = tuple(words[3:]) if words[3:4] != ["a"] else tuple(["1"] + words[4:])
        tw = tw[: tw.index(".")] if "." in tw else tw
        spec, why = target_spec(tw)
        a.target = spec or {"zone": "monster", "face": "up"}
        if "face" not in a.target:
            a.target["face"] = "up"
        if spec is None:
            a.unmodelled.append(f"target: equip only to {' '.join(tw)} ({why}; read as any face-up monster)")
        else:
            _note_target(a, tw)
        return
    if head is not None:
        hw = tuple(head_words(head))
        if _starts(hw, (("when", "this", "card", "is", "activated"),)):
            return  # the resolution of a Continuous/Field card's activation
        items = parse_head(hw)
    # "Activate only ..." sentences (older PSCT) give the activation condition
    for s in unit.sentences:
        sw = s.words()
        if not _has_structure(s):
            if _starts(sw, (("activate", "only"),)):
                items = items + parse_head(tuple(head_words(list(s.tokens)[2:])))
            elif _starts(sw, (("activate", "this", "card", "only"),)):
                items = items + parse_head(tuple(head_words(list(s.tokens)[4:])))
    if any(":" in m.words() for m in unit.modes):
        a.reasons.append("a choice of modes with activation conditions of their own")
    split = _split_summon_negation(items)
    if split is not None:
        items, only = split
        x = Analysis(kind="card", speed=a.speed)
        for it in only:
            _read_item(x, it, event_windows=False)
        a.alternatives.append(x)
    # "Activate 1 of these effects;" + modes without conditions of their own: the
    # choice is made on activation, each with its own cost and target (Enemy Controller)
    modes: list[Sentence] = []
    if unit.modes and _starts(words, (("activate", "1", "of", "these", "effects"), ("activate", "one", "of", "these", "effects"))) \
            and not any(":" in m.words() for m in unit.modes):
        modes = list(unit.modes)
    for n, it in enumerate(items):
        if it.alt and n > 0 and _conflicting_alternatives("card", items[n - 1], it):
            a.reasons.append(f"alternative activation conditions: {items[n - 1].text!r} or {it.text!r}")
        if it.rule in ("other_item", "w_other") or (it.clause is not None and not it.clause.understood):
            a.reasons.append(f"not understood: {it.text!r}")
        elif it.rule == "quick_label":
            a.reasons.append("'(Quick Effect)' on a Spell/Trap")
        else:
            _read_item(a, it, event_windows=False)
    if cost is not None:
        cw = tuple(cost_words(cost))
        info = parse_cost(cw)
        if info is None:
            a.reasons.append(f"cost clause does not parse: {' '.join(cw)!r}")
        else:
            for act in info[1]:
                _read_act(a, act)
    for n, m in enumerate(modes):
        x = a if n == 0 else Analysis(kind="card", speed=a.speed)
        x.mode_words = words + m.words()
        _mh, mc, _mb, _, _ = _split_segments(m)
        if mc is not None:
            info = parse_cost(tuple(cost_words(mc)))
            if info is None:
                x.reasons.append(f"cost clause does not parse: {' '.join(cost_words(mc))!r}")
            else:
                for act in info[1]:
                    _read_act(x, act)
        if n:
            _read_duration(x, x.mode_words)
            a.alternatives.append(x)
    # "Activate this card by targeting ..." / "by paying ..."
    if _starts(words, (("activate", "this", "card", "by"),)):
        rest = words[4:]
        if rest[:1] == ["targeting"]:
            end = rest.index(";") if ";" in rest else len(rest)
            spec, why = target_spec(rest[1:end])
            if spec is None:
                a.unmodelled.append(f"target: {' '.join(rest[1:end])} ({why})")
            else:
                a.target = spec
                _note_target(a, rest[1:end])
        else:
            a.unmodelled.append(f"cost: {' '.join(rest)}")
    # "If you control no cards, you can activate this card from your hand.": an
    # activation from the hand under a condition of its own (Infinite Impermanence)
    for sent in unit.sentences:
        sw = sent.words()
        tail = ("you", "can", "activate", "this", "card", "from", "your", "hand")
        if sw[:1] == ["if"] and len(sw) > len(tail) + 2 and tuple(sw[-len(tail):]) == tail and sw[-len(tail) - 1] == ",":
            commas = [i for i, t in enumerate(sent.tokens) if t.type == "COMMA"]
            x = Analysis(kind="card", speed=a.speed, activation_from=["hand"])
            for it in parse_head(tuple(head_words(list(sent.tokens)[:commas[-1]]))):
                if it.rule in ("other_item", "w_other") or (it.clause is not None and not it.clause.understood):
                    x.reasons.append(f"not understood: {it.text!r}")
                else:
                    _read_item(x, it, event_windows=False)
            if not x.conditions:
                x.unmodelled.append(f"condition: {' '.join(sw)}")
            a.activation_from = a.activation_from or (["set"] if card_type == "trap" else [])
            a.alternatives.append(x)
        elif _contains(sw, "activate this card from your hand") or _contains(sw, "activate this card the turn it was set"):
            a.unmodelled.append(f"condition: {' '.join(sw)}")


# ====================================================================== restrictions (once per turn)

_ORDINALS = {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6, "first": 1, "second": 2, "third": 3}


def _hard_opt(a: Analysis, group: str) -> None:
    """A hard once per turn: "You can only use this effect of X once per turn" binds
    every card with that name for that player (the library's once_per_turn_group,
    ygo.activation.once_per_turn_shared), and the choices of one text share it."""
    for x in (a, *a.alternatives):
        x.once_per_turn = True
        x.opt_group = x.opt_group or group


def apply_restriction(words: list[str], effects: list[tuple[Unit, Analysis]], position: int) -> str | None:
    """Attach a "You can only use ... once per turn" clause; returns a reason if not understood.

    ``position`` is the number of effect units of the block before the clause."""
    s = " ".join(words)
    activated = [(u, a) for u, a in effects if a.kind not in (None, "continuous") and not u.activation]
    if s.startswith("you can only activate 1 ") or s.startswith("you can only activate one "):
        act = [(u, a) for u, a in effects if u.activation]
        for _, a in act:
            _hard_opt(a, f"activation{position}")
        return None if act else "a once-per-turn activation limit on a card without an activation"
    if "per duel" in s:
        for _, a in activated[-1:]:
            a.unmodelled.append("frequency: once per Duel")
        return None
    if not s.startswith("you can only use"):
        return f"restriction not understood: {s!r}"
    before = [(u, a) for u, a in activated if effects.index((u, a)) < position]
    if s.startswith("you can only use each effect of") or s.startswith("you can only use 1 ") or \
            s.startswith("you can only use each of the following effects") or s.startswith("you can only use one "):
        if "following" in s:
            chosen = [(u, a) for u, a in activated if effects.index((u, a)) >= position]
        else:
            chosen = activated
        shared = s.startswith(("you can only use 1 ", "you can only use one "))
        for n, (_, a) in enumerate(chosen):
            _hard_opt(a, f"shared{position}" if shared else f"each{position}-{n}")
        return None
    if s.startswith("you can only use this effect of") or s.startswith("you can only use the effect of"):
        if before:
            _hard_opt(before[-1][1], f"this{position}")
            return None
        if activated:
            _hard_opt(activated[0][1], f"this{position}")
            return None
        return "a once-per-turn limit with no activated effect before it"
    m = re.match(r"you can only use the (\w+)(?: and (\w+))? effects? of", s)
    if m:
        nums = [_ORDINALS.get(x) for x in m.groups() if x]
        if None in nums:
            return f"restriction not understood: {s!r}"
        eff_units = [(u, a) for u, a in effects if not (u.activation and not u.sentences)]
        ok = True
        for n in nums:
            if n and n <= len(eff_units):
                _hard_opt(eff_units[n - 1][1], f"nth{position}-{n}")
            else:
                ok = False
        m2 = re.search(r"once per turn, and the (\w+) effect", s)
        if m2 and _ORDINALS.get(m2.group(1)):
            n = _ORDINALS[m2.group(1)]
            if n <= len(eff_units):
                _hard_opt(eff_units[n - 1][1], f"nth{position}-{n}")
        return None if ok else f"restriction names an effect that is not there: {s!r}"
    if s.startswith("you can only use the pendulum effect of") or s.startswith("you can only use each pendulum effect"):
        for n, (_, a) in enumerate(activated):
            _hard_opt(a, f"pendulum{position}-{n}")
        return None
    return f"restriction not understood: {s!r}"


# ====================================================================== derived cards


@dataclass(frozen=True)
class EffectReport:
    """The status of one derived effect."""

    index: int
    block: str  # monster | pendulum | spell | trap
    status: str
    reasons: tuple[str, ...] = ()
    unmodelled: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class DerivedCard:
    """A card with attributes derived from its text, and how sure the reader is."""

    card: Card
    reports: tuple[EffectReport, ...]
    category: str  # effect_monster | normal_monster | spell | trap | ...
    ja_effects: int | None = None  # circled numbers in the Japanese text
    split_check: str = "n/a"  # ok | mismatch | n/a
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """The card's status: the worst of its effects' (a card without effects is classified)."""
        if any(r.status == UNCLASSIFIED for r in self.reports):
            return UNCLASSIFIED
        if any(r.status == PARTIAL for r in self.reports):
            return PARTIAL
        return CLASSIFIED

    @property
    def fully_modelled(self) -> bool:
        """Every sentence is understood into the model: every effect classified with
        nothing unmodelled, and no text outside the effects left unmodelled."""
        return self.status == CLASSIFIED and not any(r.unmodelled for r in self.reports) and not self.card.unmodelled

    def report(self, index: int) -> EffectReport | None:
        return next((r for r in self.reports if r.index == index), None)

    def not_modelled(self) -> list[str]:
        """"<card>, <effect>" for every effect a question may not rely on."""
        out = []
        for r in self.reports:
            if r.status != CLASSIFIED or r.unmodelled:
                why = "; ".join(r.reasons or r.unmodelled)
                out.append(f"{self.card.name}, effect {r.index} ({r.status}: {why})")
        for part in self.card.unmodelled:
            if not part.startswith("effect "):  # an effect not read is named by its report above
                out.append(f"{self.card.name} ({part})")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "card": _card_to_dict(self.card),
            "reports": [r.__dict__ | {"reasons": list(r.reasons), "unmodelled": list(r.unmodelled), "notes": list(r.notes)} for r in self.reports],
            "category": self.category,
            "ja_effects": self.ja_effects,
            "split_check": self.split_check,
            "notes": list(self.notes),
        }

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> DerivedCard:
        card = parse_ygo_card(d["card"], "cache", origin="derived")
        reports = tuple(
            EffectReport(r["index"], r["block"], r["status"], tuple(r["reasons"]), tuple(r["unmodelled"]),
                         tuple(r["notes"]), r.get("text", ""))
            for r in d["reports"]
        )
        return DerivedCard(card, reports, d["category"], d.get("ja_effects"), d.get("split_check", "n/a"),
                           tuple(d.get("notes", ())))


def _effect_to_dict(e: Effect) -> dict[str, Any]:
    d: dict[str, Any] = {"index": e.index, "kind": e.kind, "speed": e.speed, "mandatory": e.mandatory,
                         "from": list(e.zones)}
    if e.conditions:
        d["conditions"] = [f"{n}({a})" if a is not None else n for n, a in e.conditions if n != "responds"]
    if e.responds_to:
        d["responds_to"] = [{"who": w, "to": t} for w, t in e.responds_to]
    if e.costs:
        d["cost"] = [f"{n}({a})" if a is not None else n for n, a in e.costs]
    if e.target:
        d["target"] = dict(e.target)
    if e.actions:
        d["actions"] = list(e.actions)
    if e.triggers:
        d["trigger"] = list(e.triggers)
    for k in ("timing", "duration", "damage_step"):
        v = getattr(e, k)
        if v is not None:
            d[k] = v
    if e.once_per_turn:
        d["once_per_turn"] = True
    if e.once_per_turn_group:
        d["once_per_turn_group"] = e.once_per_turn_group
    if e.unmodelled:
        d["unmodelled"] = list(e.unmodelled)
    if e.summary:
        d["summary"] = e.summary
    if e.source:
        d["source"] = e.source
    return d


def _card_to_dict(c: Card) -> dict[str, Any]:
    d: dict[str, Any] = {"name": c.name, "card_type": c.card_type, "effects": [_effect_to_dict(e) for e in c.effects]}
    for k in ("property", "attribute", "race", "level", "atk", "konami_id", "password", "text_sha256"):
        v = getattr(c, k)
        if v is not None:
            d[k] = v
    if c.defense is not None:
        d["def"] = c.defense
    if c.kinds:
        d["kinds"] = list(c.kinds)
    if c.no_normal_summon:
        d["no_normal_summon"] = True
    if c.unmodelled:
        d["unmodelled"] = list(c.unmodelled)
    return d


def _clean_str(text: Any) -> str:
    """Text as a str that encodes (JSON may carry lone surrogates such as "\\udcff")."""
    return str(text or "").encode("utf-8", "replace").decode("utf-8")


def _rec(record: Any) -> dict[str, Any]:
    """A card record (a CardRecord, or a raw JSON object of the card list) as a dict."""
    if isinstance(record, Mapping):
        d = dict(record)
        type_line = str(d.get("monster_type_line") or "")
        parts = [p.strip() for p in type_line.split("/") if p.strip()]
        prop = d.get("property")
        return {
            "name": str(d.get("name", "")),
            "card_type": str(d.get("card_type", "")).lower(),
            "property": str(prop).lower().replace("-", "").replace(" ", "") if prop else None,
            "race": parts[0].lower().replace(" ", "_").replace("-", "_") if parts else None,
            "kinds": tuple(p.lower() for p in parts[1:]),
            "attribute": str(d["attribute"]).lower() if d.get("attribute") else None,
            "level": d.get("level") if d.get("level") is not None else d.get("rank"),
            "atk": d.get("atk") if isinstance(d.get("atk"), int) else None,
            "def": d.get("def") if isinstance(d.get("def"), int) else None,
            "konami_id": d.get("konami_id"),
            "password": d.get("password"),
            "text": _clean_str(d.get("text")),
            "pendulum_text": _clean_str(d.get("pendulum_effect")),
            "text_ja": str(d.get("text_ja") or ""),
        }
    return {
        "name": record.name, "card_type": record.card_type, "property": record.property, "race": record.race,
        "kinds": tuple(record.kinds), "attribute": record.attribute, "level": record.level, "atk": record.atk,
        "def": record.defense, "konami_id": record.konami_id, "password": record.password, "text": record.text,
        "pendulum_text": getattr(record, "pendulum_text", "") or "", "text_ja": record.text_ja,
    }


_EFFECT_ABILITIES = {"tuner", "gemini", "union", "spirit", "toon", "flip"}


def category_of(card_type: str, kinds: Iterable[str]) -> str:
    ks = set(kinds)
    if card_type == "spell":
        return "spell"
    if card_type == "trap":
        return "trap"
    if card_type != "monster":
        return "other"
    if "effect" in ks:
        return "effect_monster"
    if ks & _EFFECT_ABILITIES and "normal" not in ks:
        # older type lines omit "Effect" for Tuner, Gemini, Union, Spirit, Toon and Flip
        # monsters with effects (Attack Gainer, Dark Dust Spirit): read like effect monsters
        return "effect_monster"
    if not ks:
        return "normal_monster"  # a type line without any kind: flavour text (Gem-Knight Sapphire)
    if "pendulum" in ks:
        return "pendulum_normal_monster"
    if "normal" in ks:
        return "normal_monster"
    return "non_effect_monster"  # Fusion/Synchro/... without effects, Tokens


_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"


def ja_effect_count(text_ja: str) -> int | None:
    """How many effects the Japanese text numbers (①：...), or None without numbering."""
    t = _RUBY.sub(r"\1", text_ja or "")
    found = set()
    for i, ch in enumerate(t):
        if ch in _CIRCLED and t[i + 1 : i + 2] in ("：", ":"):
            found.add(ch)
    return len(found) if found else None


MAX_TEXT = 10_000  # characters of a card's text the reader reads (the longest official one has about 1,000)


def derive(record: Any) -> DerivedCard:
    """Derive a card's timing attributes from its official text.  Never raises."""
    r = _rec(record)
    size = len(r["text"]) + len(r["pendulum_text"])
    if size > MAX_TEXT:
        # ten times the longest official text: the reader's work grows faster than the text
        card = Card(name=r["name"] or "?", game="ygo", card_type=r["card_type"] if r["card_type"] in V.YGO_CARD_TYPES
                    else "monster", origin="derived",
                    unmodelled=(f"text: {size} characters, too long to read (at most {MAX_TEXT})",))
        rep = EffectReport(1, r["card_type"] or "monster", UNCLASSIFIED, ("text too long to read",))
        return DerivedCard(card, (rep,), category_of(r["card_type"], r["kinds"]))
    try:
        return _derive(r)
    except Exception as exc:  # noqa: BLE001 - a reader bug must not take the caller down
        if os.environ.get("CHAINJUDGE_READER_DEBUG"):
            raise
        card = Card(name=r["name"] or "?", game="ygo", card_type=r["card_type"] if r["card_type"] in V.YGO_CARD_TYPES else "monster",
                    origin="derived", unmodelled=(f"text: {r['text'][:400]} (reader error)",))
        rep = EffectReport(1, r["card_type"] or "monster", UNCLASSIFIED, (f"reader error: {type(exc).__name__}: {exc}",))
        return DerivedCard(card, (rep,), category_of(r["card_type"], r["kinds"]))


def _derive(r: dict[str, Any]) -> DerivedCard:
    card_type = r["card_type"] if r["card_type"] in V.YGO_CARD_TYPES else "monster"
    prop = r["property"] if card_type != "monster" else None
    if prop is not None and prop not in V.YGO_PROPERTIES.get(card_type, ()):
        prop = None
    if card_type in ("spell", "trap") and prop is None:
        prop = "normal"
    kinds = tuple(r["kinds"])
    category = category_of(card_type, kinds)
    extra_deck = bool({"fusion", "synchro", "xyz", "link"} & set(kinds))
    notes: list[str] = []

    blocks: list[tuple[str, str]] = []
    if card_type == "monster":
        if category in ("effect_monster", "non_effect_monster"):
            blocks.append(("monster", r["text"]))
        if r["pendulum_text"]:
            blocks.append(("pendulum", r["pendulum_text"]))
    else:
        blocks.append((card_type, r["text"]))

    analysed: list[tuple[Unit, Analysis]] = []
    card_parts: list[str] = []  # Card.unmodelled: text that is no effect, and effects not read
    monster_units = 0
    procedures = 0
    no_normal_summon = False
    for block, text in blocks:
        units = units_of(text, block, card_type, prop, extra_deck)
        if text.strip() and not units:
            notes.append(f"{block} text does not split into sentences")
            card_parts.append(f"text: {text} (does not split into sentences)")
            u = Unit("effect", [], block)
            a = Analysis(reasons=["the text does not parse into sentences"])
            analysed.append((u, a))
            continue
        block_effects: list[tuple[Unit, Analysis]] = []
        for u in units:
            if u.role == "summon_condition" and " ".join(u.sentences[0].words()).startswith(
                    ("cannot be normal summoned", "this card cannot be normal summoned")):
                no_normal_summon = True
            if u.role == "effect":
                kinds_ = kinds
                a = analyse_effect(u, card_type, prop, kinds_)
                block_effects.append((u, a))
            elif u.role == "restriction":
                why = apply_restriction(u.sentences[0].words(), block_effects, len(block_effects))
                if why:
                    notes.append(why)
                part = card_part(u, why)
                if part:
                    card_parts.append(part)
            else:
                if u.role == "procedure":
                    procedures += block == "monster"
                part = card_part(u)
                if part:
                    card_parts.append(part)
        if block == "monster":
            monster_units = len([x for x in block_effects if _ja_countable(x[0])])
        analysed.extend(block_effects)

    # Build the Card through the library schema (validates the vocabulary).
    effects_raw: list[dict[str, Any]] = []
    reports: list[EffectReport] = []
    expanded = [(u, x, account(u, a)) for u, a in analysed for x in [a, *a.alternatives]]
    groups: dict[str, str] = {}
    for i, (u, a, extra) in enumerate(expanded, start=1):
        status = a.status()
        unmodelled = tuple(dict.fromkeys([*a.unmodelled, *extra]))
        reports.append(EffectReport(i, u.block, status, tuple(a.reasons), unmodelled, tuple(a.notes),
                                    u.text))
        if a.kind is None:
            why = "; ".join(a.reasons) or "not read"
            card_parts.append(f"effect {i}: {u.text} (not read: {why})")
            continue
        d: dict[str, Any] = {"index": i, "kind": a.kind, "speed": a.speed or 1, "mandatory": a.mandatory}
        if a.kind != "card":
            d["from"] = a.zones or (["monster"] if u.block == "monster" else ["spell_trap"])
        elif a.activation_from:
            d["from"] = list(a.activation_from)
        if a.conditions:
            d["conditions"] = list(a.conditions)
        if a.responds_to:
            d["responds_to"] = list(a.responds_to)
        if a.costs:
            d["cost"] = [c for c in a.costs]
        if a.kind != "continuous" and stat_change_actions(u):
            d["actions"] = stat_change_actions(u)
        elif a.kind == "card" and not u.sentences and any(
                x.kind == "continuous" and y.block == u.block and stat_change_actions(y) for y, x in analysed):
            # the activation of a Continuous Spell/Trap whose effect applied from then on
            # changes ATK/DEF (Mirror Wall) directly changes ATK/DEF (DSR)
            d["actions"] = ["atk_change"]
        tgt = {k: v for k, v in a.target.items() if not k.startswith("_")}
        if tgt and "zone" in tgt:
            d["target"] = tgt
        if a.triggers:
            d["trigger"] = list(dict.fromkeys(a.triggers))
        if a.timing:
            d["timing"] = a.timing
        if a.duration:
            d["duration"] = a.duration
        if a.once_per_turn:
            d["once_per_turn"] = True
        if a.opt_group:
            d["once_per_turn_group"] = groups.setdefault(a.opt_group, f"g{len(groups) + 1}")
        if a.damage_step:
            d["damage_step"] = a.damage_step
            d["damage_step_source"] = "card text"
        elif a.kind == "trigger" and _battle_trigger_event(a.unmodelled):
            # an activation condition met only by a battle (destruction by battle, battle
            # damage) is met in the Damage Step, where the rule lets it be activated
            d["damage_step"] = "allowed"
            d["damage_step_source"] = ("card text (its trigger event is a battle's: destruction by battle or "
                                       "battle damage); Konami \"Damage Step rules\" (effects whose activation condition is specific "
                                       "to the Damage Step)")
        d["summary"] = u.text[:200]
        d["source"] = "derived from the card text"
        # what the effect says that is not modelled, and what the reader could not read
        d["unmodelled"] = list(unmodelled) + [f"unread: {why}" for why in a.reasons]
        effects_raw.append(d)
    card_dict: dict[str, Any] = {
        "name": r["name"], "card_type": card_type, "property": prop, "effects": effects_raw,
        "attribute": r["attribute"], "race": r["race"], "kinds": list(kinds), "level": r["level"],
        "atk": r["atk"], "def": r["def"], "konami_id": r["konami_id"], "password": r["password"],
    }
    if r["text"]:
        card_dict["text_sha256"] = hashlib.sha256(r["text"].encode("utf-8")).hexdigest()
    if no_normal_summon:
        card_dict["no_normal_summon"] = True
    if card_parts:
        card_dict["unmodelled"] = list(dict.fromkeys(card_parts))
    try:
        card = parse_ygo_card(card_dict, f"derived {r['name']}", origin="derived")
    except InputError as exc:
        # an attribute outside the vocabulary is a reader bug: report, never guess
        lost = [f"effect {e['index']}: {e.get('summary', '')} (invalid attributes)" for e in effects_raw]
        card = parse_ygo_card({**card_dict, "effects": [], "unmodelled": card_parts + lost}, f"derived {r['name']}",
                              origin="derived")
        reports = [EffectReport(rp.index, rp.block, UNCLASSIFIED, rp.reasons + (f"invalid attributes: {exc}",),
                                rp.unmodelled, rp.notes, rp.text) for rp in reports]
    ja = ja_effect_count(r["text_ja"])
    check = "n/a"
    if ja is not None and category in ("effect_monster", "spell", "trap"):
        ours = monster_units + procedures if card_type == "monster" else len(
            [x for x in analysed if _ja_countable(x[0]) and x[0].block == card_type])
        check = "ok" if ours == ja else f"mismatch: {ours} effects read, {ja} numbered in the Japanese text"
    return DerivedCard(card, tuple(reports), category, ja, check, tuple(notes))


# ---- what a resolution does, where the timing rules need it (kept apart from the
# classification above).  Only an ATK/DEF change is read: the Damage Step rule
# (DSR; WACKY (2), DSR) lets effects that directly change ATK/DEF be activated
# until damage calculation.  The change is `atk_change` without an amount (not
# computed), and the rest of the resolution stays unknown (logic/facts.py).
_STAT_CHANGE = re.compile(r"\b(gains?|loses?) (\S+ )?(atk|def|atk/def)\b|\b(increase|decrease) the (atk|def|atk/def)\b"
                          r"|\b(double|halve) the (current |original )?(atk|def|atk/def)\b"
                          r"|\b(atk|def|atk/def) becomes? (equal|double|half)\b")
# a resolution that also does one of these is more than an ATK/DEF change: not read
_OTHER_RESOLUTION = {"destroy", "destroyed", "banish", "return", "send", "special", "negate", "draw", "add",
                     "shuffle", "tribute", "change", "take", "inflict", "equip", "discard", "set"}


_LEFT_RESTRICTION = re.compile(r"\b(?:cannot|can't|can not) [^,.;]*")


_BATTLE_EVENT = re.compile(r"\bby battle\b|\bbattle damage\b|\bbattle or effect damage\b")


def _battle_trigger_event(unmodelled: Iterable[str]) -> bool:
    """Whether an unmodelled trigger event can be met by a battle (a monster destroyed
    by battle, battle damage): a Damage Step event (DSR)."""
    return any(p.startswith("trigger event:") and _BATTLE_EVENT.search(p) for p in unmodelled)


def stat_change_actions(u: Unit) -> list[str]:
    """["atk_change"] when the resolution of an activated effect only changes ATK/DEF
    ("it gains 500 ATK", "that target loses 600 ATK", "Increase the DEF of ... by 500
    points"), else []."""
    body: list[str] = []
    now: list[str] = []  # without what it does later ("During the End Phase of this turn, destroy them")
    for s in u.sentences:
        _, _, toks, _, _ = _split_segments(s)
        ws = _words_of(toks)
        if body and ws[:1] == ["when"]:
            continue  # "When it leaves the field, destroy this card.": a later event, not this resolution
        body += ws
        if not _starts(ws, (("during", "the", "end", "phase"),)):
            now += ws
    text = " ".join(body)
    if not _STAT_CHANGE.search(text):
        return []
    # "... cannot be targeted or destroyed by other card effects" is a protection, not a destruction
    text = " ".join(now)
    head, sep, then = text.partition(", and if you do ,")
    if sep and _STAT_CHANGE.search(then) and not _STAT_CHANGE.search(head) and \
            not {"special", "equip"} & set(text.split()):
        # "banish ..., and if you do, this card's ATK becomes equal to ...": the change it
        # resolves to (Aegaion the Sea Castrum), not a Summon's (Powerful Rebirth, DSR)
        text = then
    # "also it cannot attack or change its battle position": a restriction the resolution leaves
    # behind (listed as such, see account()), not another act
    text = _LEFT_RESTRICTION.sub(" ", text)
    words = set(text.replace("cannot be targeted or destroyed", "").replace("destroyed by", "").split())
    if words & _OTHER_RESOLUTION:
        return []
    return ["atk_change"]


# ---- what a text says beyond the attributes read (never dropped).  Each part is
# "<aspect>: <the card's words>" in Effect.unmodelled / Card.unmodelled and the
# effect's report.  The resolution of an activated effect is not listed: an
# effect without modelled actions is already "resolution unknown" (logic/facts.py)
# and answered "not modelled" when it matters; what its text says about timing
# (who may respond, what cannot be negated, what its player cannot do that turn,
# when it may be activated) is.
RESTRICTION = re.compile(
    r"\bin response to\b|\bcannot be negated\b|\b(?:cannot|can't|can not) (?:be )?activat"
    r"|\bcannot (?:be )?(?:normal |special |tribute |flip |fusion |synchro |xyz |link |ritual |pendulum )?"
    r"(?:summon|set\b)"
    r"|\bcannot (?:normal|special|tribute|flip)(?: summon)?(?:/set)? or (?:special|normal|flip)"
    r"|\bcannot conduct\b|\bcannot (?:declare an |declare |make an )?attack|\bmust attack\b"
    r"|\bcannot be targeted\b|\bcannot target\b|\bcannot chain\b|\bunaffected by\b|\bcannot be chained\b"
    r"|\b(?:neither|no) player can\b|\bcannot select\b"
    r"|\bcannot be used as\b|\bcannot (?:be )?tribut|\bcannot (?:be )?(?:changed|change) (?:its|their|the) battle position")
_KIND_CUE = re.compile(r"\bquick effect\b")
_FREQ_CUE = re.compile(r"\bonce\b|\btwice\b|\bper (?:turn|chain|duel|battle)\b")
_WINDOW_CUE = re.compile(r"\bdamage step\b|\bdamage calculation\b|\beither player's turn\b|\bopponent's turn\b")
_CONSUMED = (("activate", "only"), ("activate", "this", "card", "only"),
             ("you", "must", "control", "no", "cards", "to", "activate"))
_RESOLUTION_HEADS = {("if", "you", "do"), ("when", "you", "do"), ("if", "it", "does"), ("then",)}


# a restriction that applies to the activation itself (who may respond, what cannot be
# negated, what its player must not have done that turn), not one its resolution leaves
_AT_ACTIVATION = re.compile(
    r"\bin response to\b|\bcannot be negated\b|\bthe turn you activate|\bturn you activated\b"
    r"|\bto activate\b|\bcannot activate this\b|\bcannot be chained\b|\bwhen this card is activated\b"
    r"|\bactivation and effect\b|\bactivations? of this\b|\bthis card's activation\b|\bthis effect's activation\b")


def _restriction_aspect(text: str) -> str:
    """"restriction" for a restriction on the activation, "resolution" for one its
    resolution leaves behind ("that monster cannot attack", "for the rest of this
    turn, you cannot Special Summon"): it outlasts the resolution, so it is listed
    even though the resolution itself is known to be unknown."""
    return "restriction" if _AT_ACTIVATION.search(text.lower()) else "resolution"


# "a monster that cannot be Normal Summoned/Set": a description of a card, no restriction
_DESCRIPTION = re.compile(r"\b(?:that|which|who) (?:cannot|can't|can not)\b[^,.;:]*")


def is_restriction(text: str) -> bool:
    """Does the text restrict what a player may do (activate, respond, negate, Summon, attack, target)?"""
    return bool(RESTRICTION.search(_DESCRIPTION.sub("", text.lower())))


def account(unit: Unit, a: Analysis) -> list[str]:
    """What the sentences of an effect unit say that its attributes do not hold."""
    sentences = unit.sentences + unit.modes
    if a.kind is None or not sentences:
        return []
    if a.kind == "continuous":
        txt = unit.text
        words = [w for s in sentences for w in s.words()]
        aspect = "restriction" if is_restriction(txt) else "replacement" if _is_replacement(words) else "continuous"
        return [f"{aspect}: {txt}"]
    out: list[str] = []
    main = sentences[0]
    if unit.activation:
        main = next((x for x in unit.sentences if _has_structure(x)), main)
    if a.body_text and is_restriction(a.body_text):
        out.append(f"{_restriction_aspect(a.body_text)}: {a.body_text}")
    modes = {id(m) for m in unit.modes}
    for s in sentences:
        if s is main:
            continue
        w = s.words()
        lw = " ".join(_words_of(s.tokens))  # parentheticals too ("(other effects cannot be activated ...)")
        if id(s) in modes or (s.bullet and ":" in w and _strip_label(list(s.tokens))[0]):
            # a bulleted mode is a choice of what the resolution does
            if is_restriction(lw):
                out.append(f"{_restriction_aspect(lw)}: {s.text}")
            continue
        # "negate the activation of ...", "the activated effect becomes ...": what it resolves
        acts = re.sub(r"negate the activation|the activation of|activated effect becomes|activated effect", "", lw)
        if _starts(w, _CONSUMED) or _contains(w, "activate this card from your hand") or \
                _contains(w, "activate this card the turn it was set"):
            continue  # read with the activation (its conditions, or listed there)
        if is_restriction(lw):
            aspect = _restriction_aspect(lw)
        elif ":" in w and tuple(w[: w.index(":")]) not in _RESOLUTION_HEADS:
            aspect = "effect"  # "When Summoned this way: ...": an effect within this one
        elif _KIND_CUE.search(lw):
            aspect = "kind"
        elif _FREQ_CUE.search(lw) and ("use" in w or "used" in w or "activate" in w or "activated" in w):
            aspect = "frequency"
        elif "activate" in acts or "activation" in acts:
            aspect = "activation"
        elif _WINDOW_CUE.search(lw) and ("activate" in lw or "used" in w or "use" in w):
            aspect = "window"
        else:
            continue  # part of the resolution (not modelled, known to be unknown)
        out.append(f"{aspect}: {s.text}")
    return out


_NO_NORMAL_SUMMON = {("cannot", "be", "normal", "summoned/set"), ("cannot", "be", "normal", "summoned"),
                     ("this", "card", "cannot", "be", "normal", "summoned"),
                     ("this", "card", "cannot", "be", "normal", "summoned", "or", "set"),
                     ("this", "card", "cannot", "be", "normal", "summoned/set")}


def card_part(u: Unit, why: str | None = None) -> str | None:
    """A unit that is no effect, as an unmodelled part of the card (None: modelled)."""
    txt = u.text
    if u.role == "note":
        return f"note: {txt}"
    if u.role == "material":
        return f"material: {txt}"
    if u.role == "procedure":
        return f"summoning procedure: {txt}"
    if u.role == "summon_condition":
        w = u.sentences[0].words()
        if tuple(w) in _NO_NORMAL_SUMMON:
            return None  # no_normal_summon (ygo.summon.cannot_normal_summon)
        if w[:2] == ["you", "cannot"] and is_restriction(txt):
            return f"restriction: {txt}"  # "You cannot Special Summon the turn you activate ...": on the player
        return f"summoning condition: {txt}"
    if u.role == "restriction":
        if why:
            return f"frequency: {txt} ({why})"
        if is_restriction(txt):
            return f"restriction: {txt}"
        return None
    return f"text: {txt}"


def _ja_countable(u: Unit) -> bool:
    """Would the Japanese text number this unit (①②...)?"""
    if u.activation and (not u.sentences or _is_equip_only(u)):
        return False
    if u.activation and all(not _has_structure(s) and _contains(s.words(), "remains on the field") for s in u.sentences):
        return False  # "This card remains on the field for ...": no effect of its own (Nightmare's Steelcage)
    return not u.under_grant


def _all_units(blocks: list[tuple[str, str]], card_type: str, prop: str | None, extra: bool) -> list[Unit]:
    out: list[Unit] = []
    for block, text in blocks:
        out.extend(units_of(text, block, card_type, prop, extra))
    return out


# ====================================================================== the full card list, cached


from logic.cache import cache_dir, file_digest  # noqa: E402  (shared with logic/mtg_cardlist.py)


class DerivedLibrary:
    """Every card of a card list with derived attributes, built lazily from the cache."""

    def __init__(self, raw: dict[str, dict[str, Any]], source: str, timings: dict[str, float]) -> None:
        self._raw = raw
        self._built: dict[str, DerivedCard] = {}
        self.source = source
        self.timings = timings
        self._lower = {k.lower(): k for k in raw}

    def __len__(self) -> int:
        return len(self._raw)

    def names(self) -> list[str]:
        return list(self._raw)

    def get(self, name: str) -> DerivedCard | None:
        key = name if name in self._raw else self._lower.get(name.lower())
        if key is None:
            return None
        if key not in self._built:
            self._built[key] = DerivedCard.from_json(self._raw[key])
        return self._built[key]

    def __iter__(self) -> Iterator[DerivedCard]:
        for n in self._raw:
            dc = self.get(n)
            assert dc is not None
            yield dc

    def raw(self, name: str) -> dict[str, Any]:
        return self._raw[name]


def card_for(name: str, derived: DerivedLibrary | None = None) -> tuple[Card, str, DerivedCard | None] | None:
    """A card by name: the hand-checked library entry if there is one, else the
    derived one.  Returns (card, "library" | "derived", the derivation or None).

    The hand-checked entry always overrides the derived attributes; an answer
    should say which applied, and for a derived card list ``not_modelled()``."""
    from logic.cards import bundled

    lib_card = bundled("ygo").find(name)
    if lib_card is not None:
        return lib_card, "library", derived.get(lib_card.name) if derived is not None else None
    if derived is None:
        return None
    dc = derived.get(name)
    if dc is None:
        return None
    return dc.card, "derived", dc


def _cache_key(path: Path) -> tuple[str, Path]:
    digest = file_digest(path)
    key = f"{digest[:24]}-r{READER_VERSION}-g{grammar_digest()}"
    return key, cache_dir() / f"derived-{key}.json"


def _derive_json(rec: dict[str, Any]) -> dict[str, Any]:
    return derive(rec).to_json()


def _derive_all(records: list[dict[str, Any]], workers: int | None) -> list[dict[str, Any]]:
    """Derive every record, in several processes when there are many (order kept)."""
    n = workers if workers is not None else min(4, os.cpu_count() or 1)
    if n > 1 and len(records) >= 2000:
        try:
            import signal
            from concurrent.futures import ProcessPoolExecutor

            stop = {signal.SIGINT, signal.SIGTERM}
            pool = ProcessPoolExecutor(max_workers=n, initializer=_derive_worker_start)
            done = False
            try:
                signal.pthread_sigmask(signal.SIG_BLOCK, stop)  # the workers start with them ignored
                try:
                    results = pool.map(_derive_json, records, chunksize=250)
                finally:
                    signal.pthread_sigmask(signal.SIG_UNBLOCK, stop)
                out = list(results)
                done = True
                return out
            finally:
                if done:
                    pool.shutdown(wait=True)
                else:  # Ctrl-C, SIGTERM: no worker is left running (and no cache is written)
                    procs = list(getattr(pool, "_processes", {}).values())
                    pool.shutdown(wait=False, cancel_futures=True)
                    for proc in procs:
                        with contextlib.suppress(OSError, AttributeError):
                            proc.kill()
                    for proc in procs:
                        with contextlib.suppress(OSError, AttributeError, AssertionError):
                            proc.join(2)
        except (OSError, RuntimeError):
            pass  # no processes here: do it in this one
    return [_derive_json(r) for r in records]


def read_cache(cpath: Path, key: str, field: str | None = "card") -> dict[str, dict[str, Any]] | None:
    """The cards of a cache file, or None when it is missing or stale: not a
    regular file (a FIFO is never opened for a blocking read), not JSON, cut
    short, of another shape or another key.  A stale cache is rebuilt."""
    import stat

    try:
        fd = os.open(cpath, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            data = json.loads(fh.read())
    except (OSError, ValueError, RecursionError, MemoryError):
        return None
    finally:
        os.close(fd)
    if not isinstance(data, dict) or data.get("key") != key:
        return None
    cards = data.get("cards")
    if not isinstance(cards, dict) or not all(isinstance(v, dict) and (field is None or isinstance(v.get(field), dict))
                                              for v in cards.values()):
        return None
    return cards


def write_cache(cpath: Path, doc: dict[str, Any]) -> None:
    """Write a cache file atomically (a temporary file of its own, then renamed
    over the old one: a reader never sees half a file, two writers never mix,
    an interrupted write leaves no partial cache).  A cache folder that cannot
    be written is fine: chainjudge works without the cache."""
    import tempfile

    try:
        cpath.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=cpath.name + ".", suffix=".tmp", dir=cpath.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        os.replace(tmp, cpath)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _derive_worker_start() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def load_derived(path: Path, use_cache: bool = True, workers: int | None = None) -> DerivedLibrary:
    """Derive every card of a card list (from the cache when it is there)."""
    t0 = time.perf_counter()
    path = Path(path)
    key, cpath = _cache_key(path)
    t_hash = time.perf_counter() - t0
    if use_cache:
        cards = read_cache(cpath, key)
        if cards is not None:
            return DerivedLibrary(cards, f"cache {cpath}",
                                  {"hash_s": t_hash, "load_s": time.perf_counter() - t0 - t_hash})
    from logic.files import json_lines

    records = [rec for _, rec in json_lines(path)]  # a malformed line is bad input, with its line
    raw: dict[str, dict[str, Any]] = {}
    for d in _derive_all(records, workers):
        raw.setdefault(d["card"]["name"], d)
    t_derive = time.perf_counter() - t0 - t_hash
    if use_cache:
        try:
            write_cache(cpath, {"key": key, "reader": READER_VERSION, "file": str(path), "cards": raw})
            for old in cpath.parent.glob(f"derived-{key.split('-')[0]}-*.json"):
                if old != cpath:
                    old.unlink(missing_ok=True)  # derivations by an earlier reader
        except OSError:
            pass
    return DerivedLibrary(raw, f"derived from {path}", {"hash_s": t_hash, "derive_s": t_derive})


# ====================================================================== coverage and agreement

COMPARED_FIELDS = ("kind", "mandatory", "timing", "speed", "conditions")
INFO_FIELDS = ("zones", "costs", "target", "triggers", "duration", "once_per_turn", "responds_to")

# Where the hand-checked library and the card text legitimately differ: the library
# encodes a ruling or an approximation the text cannot show, or lists as an entry of
# its own a non-activated clause that the text (and the Japanese numbering) makes
# part of another effect.  (card, effect number) -> (fields, or "*" for an entry
# the reader has no counterpart for; the reason).  The agreement counts these
# fields as explained overrides, and the coverage report lists them.
EXPLAINED_DIFFERENCES: dict[tuple[str, int], tuple[tuple[str, ...], str]] = {
    ("XX-Saber Fulhelmknight", 1): (("conditions",), (
        "ruling, not text: an optional Trigger Effect with the timing of Mirror Force, activated only in the "
        "chain that answers the attack declaration (edisonformat.com historical rulings); the library adds "
        "that window as attack_declared(opponent), the text gives only the trigger event")),
    ("Battle Fader", 1): (("conditions",), (
        "ruling, not text: a Trigger Effect with the timing of Mirror Force, one copy per declaration "
        "(Yugipedia 'Card Rulings:Battle Fader', Konami Judge Program Forum); the library adds that window as "
        "direct_attack_declared(opponent), the text gives only the trigger event")),
    ("Battle Fader", 2): (("*",), (
        "'banish it when it leaves the field' applies to the monster Summoned by effect 1: the text and the "
        "Japanese numbering (one effect, ①) make it part of that effect's resolution; the library lists it as "
        "a non-activated entry of its own. Nothing is activated, so no timing attribute depends on it")),
    ("Call of the Haunted", 2): (("*",), (
        "the linked destruction ('when this card leaves the field, destroy that monster ...') is part of the "
        "card's one effect in the text and the Japanese numbering (①); the library lists it as a non-activated "
        "entry of its own. It starts no chain, so no timing attribute depends on it")),
    ("Swords of Revealing Light", 3): (("*",), (
        "its destruction in the opponent's third End Phase is a rule of the card staying on the field, not a "
        "numbered effect (the Japanese text numbers only ① and ②); the library lists it as a non-activated "
        "entry, the reader keeps it with the activation. It starts no chain")),
    ("Assault Spirits", 2): (("conditions",), (
        "the library approximates 'during the equipped monster's attack ... during the Damage Step' (older "
        "wording) by own_monster_battles(any), phase(damage_step): the vocabulary has no condition on the "
        "equipped monster. The reader does not read that window and reports the effect partial, so a "
        "question that depends on it answers 'not modelled', never a guess")),
}


def _field_value(e: Effect | None, name: str) -> str:
    if e is None:
        return "(none)"
    if name == "conditions":
        return ",".join(sorted(f"{n}({a})" if a else n for n, a in e.conditions)) or "-"
    if name == "zones":
        return ",".join(sorted(e.zones)) or "-"
    if name == "costs":
        return ",".join(sorted(f"{n}({a})" if a else n for n, a in e.costs)) or "-"
    if name == "target":
        return ",".join(f"{k}={v}" for k, v in sorted(e.target)) or "-"
    if name == "triggers":
        return ",".join(sorted(e.triggers)) or "-"
    if name == "responds_to":
        return ",".join(sorted(f"{w}:{t}" for w, t in e.responds_to)) or "-"
    v = getattr(e, name)
    return "-" if v is None else str(v).lower()


@dataclass
class Agreement:
    cards: int = 0
    effects: int = 0
    agreeing_effects: int = 0
    field_agree: Counter = field(default_factory=Counter)
    confusion: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    info_agree: Counter = field(default_factory=Counter)
    missing: list[str] = field(default_factory=list)
    # effects that differ only in fields of EXPLAINED_DIFFERENCES (counted as agreeing)
    explained: list[dict[str, Any]] = field(default_factory=list)
    # entries of EXPLAINED_DIFFERENCES that no longer differ (to be removed)
    stale_explanations: list[tuple[str, int]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Agreeing effects, explained differences included."""
        return self.agreeing_effects / self.effects if self.effects else 1.0

    @property
    def strict_rate(self) -> float:
        """Agreeing effects, explained differences counted as disagreements."""
        n = self.agreeing_effects - len(self.explained)
        return n / self.effects if self.effects else 1.0


def agreement(derived: DerivedLibrary | Mapping[str, DerivedCard], library: Any = None) -> Agreement:
    """Compare derived attributes with the hand-checked library, effect by effect, field by field."""
    from logic.cards import bundled

    lib = library if library is not None else bundled("ygo")
    ag = Agreement()
    for card in lib.cards.values():
        dc = derived.get(card.name)
        if dc is None:
            ag.missing.append(card.name)
            continue
        ag.cards += 1
        mine = list(dc.card.effects)
        used: set[int] = set()
        for i, ref in enumerate(card.effects):
            ag.effects += 1
            got = _match_effect(ref, i, mine, used, dc)
            diffs = []
            for f in COMPARED_FIELDS:
                rv, gv = _field_value(ref, f), _field_value(got, f)
                ag.confusion[f][(rv, gv)] += 1
                if rv == gv:
                    ag.field_agree[f] += 1
                else:
                    diffs.append((f, rv, gv))
            for f in INFO_FIELDS:
                if _field_value(ref, f) == _field_value(got, f):
                    ag.info_agree[f] += 1
            why = EXPLAINED_DIFFERENCES.get((card.name, i + 1))
            if why is not None:
                fields, reason = why
                covered = all(f in fields or (got is None and "*" in fields) for f, _rv, _gv in diffs)
                if diffs and covered:
                    ag.explained.append({"card": card.name, "effect": i + 1, "diffs": diffs, "reason": reason})
                    ag.agreeing_effects += 1
                    continue
                if not diffs:
                    ag.stale_explanations.append((card.name, i + 1))
            if diffs:
                rep = dc.report(got.index) if got is not None else None
                ag.disagreements.append({
                    "card": card.name, "effect": i + 1, "diffs": diffs,
                    "status": rep.status if rep else "missing",
                    "reasons": list(rep.reasons) if rep else [],
                })
            else:
                ag.agreeing_effects += 1
    return ag


def _match_effect(ref: Effect, i: int, mine: list[Effect], used: set[int], dc: DerivedCard) -> Effect | None:
    """The derived effect that corresponds to the library's i-th effect (same position first)."""
    ordered = [e for e in mine]
    if i < len(ordered) and ordered[i].kind == ref.kind and i not in used:
        used.add(i)
        return ordered[i]
    for j, e in enumerate(ordered):
        if j not in used and e.kind == ref.kind:
            used.add(j)
            return e
    if i < len(ordered) and i not in used:
        used.add(i)
        return ordered[i]
    return None


@dataclass
class Coverage:
    by_category: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    effects_by_category: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    split: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    unmodelled: Counter = field(default_factory=Counter)
    card_parts: Counter = field(default_factory=Counter)  # Card.unmodelled, by aspect
    kinds: Counter = field(default_factory=Counter)

    def rate(self, categories: Iterable[str] = ("effect_monster", "spell", "trap")) -> float:
        n = sum(self.by_category[c]["cards"] for c in categories)
        ok = sum(self.by_category[c][CLASSIFIED] for c in categories)
        return ok / n if n else 1.0

    def effect_rate(self, categories: Iterable[str] = ("effect_monster", "spell", "trap")) -> float:
        n = sum(self.effects_by_category[c]["effects"] for c in categories)
        ok = sum(self.effects_by_category[c][CLASSIFIED] for c in categories)
        return ok / n if n else 1.0


_REASON_SHAPE = re.compile(r"'[^']*'|\"[^\"]*\"")


def coverage(derived: Iterable[DerivedCard]) -> Coverage:
    cov = Coverage()
    for dc in derived:
        c = cov.by_category[dc.category]
        c["cards"] += 1
        c[dc.status] += 1
        if dc.fully_modelled:
            c["fully_modelled"] += 1
        ec = cov.effects_by_category[dc.category]
        for r in dc.reports:
            ec["effects"] += 1
            ec[r.status] += 1
            if r.status == CLASSIFIED and not r.unmodelled:
                ec["fully_modelled"] += 1
            for why in r.reasons:
                cov.reasons[_REASON_SHAPE.sub("…", why)] += 1
            for u in r.unmodelled:
                cov.unmodelled[u.split(":")[0]] += 1
        for part in dc.card.unmodelled:
            cov.card_parts[re.sub(r" \d+$", "", part.split(":")[0])] += 1
        for e in dc.card.effects:
            cov.kinds[e.kind] += 1
        if dc.split_check != "n/a":
            cov.split["ok" if dc.split_check == "ok" else "mismatch"] += 1
    return cov


def report_json(cov: Coverage, ag: Agreement | None, timings: Mapping[str, float] | None = None) -> dict[str, Any]:
    """The coverage report as JSON (``chainjudge cards --coverage --json``)."""
    def counts(c: Counter) -> dict[str, int]:
        return {k: int(v) for k, v in sorted(c.items())}

    cats = ("effect_monster", "spell", "trap")
    out: dict[str, Any] = {
        "cards": {cat: counts(c) for cat, c in sorted(cov.by_category.items())},
        "effects": {cat: counts(c) for cat, c in sorted(cov.effects_by_category.items())},
        "cards_classified_rate": round(cov.rate(), 4),
        "effects_classified_rate": round(cov.effect_rate(), 4),
        "cards_fully_modelled_rate": {
            cat: round(cov.by_category[cat]["fully_modelled"] / cov.by_category[cat]["cards"], 4)
            for cat in cats if cov.by_category[cat]["cards"]},
        "effects_fully_modelled_rate": {
            cat: round(cov.effects_by_category[cat]["fully_modelled"] / cov.effects_by_category[cat]["effects"], 4)
            for cat in cats if cov.effects_by_category[cat]["effects"]},
        "kinds": counts(cov.kinds),
        "split_check": counts(cov.split),
        "reasons": dict(cov.reasons.most_common()),
        "unmodelled": dict(cov.unmodelled.most_common()),
        "card_unmodelled": dict(cov.card_parts.most_common()),
    }
    if ag is not None:
        out["library_agreement"] = {
            "cards": ag.cards, "effects": ag.effects, "agreeing_effects": ag.agreeing_effects,
            "explained": len(ag.explained), "rate": round(ag.rate, 4), "strict_rate": round(ag.strict_rate, 4),
            "fields": {f: ag.field_agree[f] for f in COMPARED_FIELDS},
            "disagreements": [{"card": d["card"], "effect": d["effect"], "status": d["status"],
                               "diffs": [list(x) for x in d["diffs"]]} for d in ag.disagreements],
            "missing": list(ag.missing),
        }
    if timings:
        out["timings"] = {k: round(v, 3) for k, v in timings.items()}
    return out


def render_report(cov: Coverage, ag: Agreement | None, timings: Mapping[str, float] | None = None,
                  top: int = 15) -> str:
    lines: list[str] = []
    pct = lambda a, b: f"{100 * a / b:5.1f}%" if b else "  n/a"  # noqa: E731
    lines.append("Cards fully classified, by card type")
    lines.append(f"  {'type':26} {'cards':>6} {'classified':>11} {'partial':>8} {'unclass.':>8} {'fully modelled':>15}")
    order = ["effect_monster", "spell", "trap", "normal_monster", "pendulum_normal_monster", "non_effect_monster", "other"]
    for cat in order:
        c = cov.by_category.get(cat)
        if not c:
            continue
        lines.append(f"  {cat:26} {c['cards']:6} {c[CLASSIFIED]:6} {pct(c[CLASSIFIED], c['cards'])}"
                     f" {c[PARTIAL]:8} {c[UNCLASSIFIED]:8} {c['fully_modelled']:7} {pct(c['fully_modelled'], c['cards'])}")
    lines.append(f"  target (effect monsters, Spells, Traps): {100 * cov.rate():.1f}% of cards classified")
    lines.append("")
    lines.append("Effects classified, by card type")
    lines.append(f"  {'type':26} {'effects':>7} {'classified':>11} {'partial':>8} {'unclass.':>8} {'fully modelled':>15}")
    for cat in order:
        c = cov.effects_by_category.get(cat)
        if not c or not c["effects"]:
            continue
        lines.append(f"  {cat:26} {c['effects']:7} {c[CLASSIFIED]:6} {pct(c[CLASSIFIED], c['effects'])}"
                     f" {c[PARTIAL]:8} {c[UNCLASSIFIED]:8} {c['fully_modelled']:7} {pct(c['fully_modelled'], c['effects'])}")
    lines.append(f"  effects of effect monsters, Spells, Traps: {100 * cov.effect_rate():.1f}% classified")
    lines.append("")
    lines.append("Effect kinds derived: " + ", ".join(f"{k} {n}" for k, n in cov.kinds.most_common()))
    tot = sum(cov.split.values())
    lines.append(f"Split cross-checked with the Japanese numbering (①②…): {cov.split['ok']} of {tot} cards agree"
                 f" ({pct(cov.split['ok'], tot).strip()}), {cov.split['mismatch']} differ")
    lines.append("")
    lines.append(f"Most frequent reasons an effect is not classified (top {top})")
    for why, n in cov.reasons.most_common(top):
        lines.append(f"  {n:6}  {why}")
    lines.append("What classified effects say that the vocabulary does not model (by sort)")
    for why, n in cov.unmodelled.most_common(top):
        lines.append(f"  {n:6}  {why}")
    lines.append("Text outside the effects that is not modelled (Card.unmodelled, by sort)")
    for why, n in cov.card_parts.most_common(top):
        lines.append(f"  {n:6}  {why}")
    if ag is not None:
        lines.append("")
        lines.append(f"Agreement with the hand-checked library: {ag.agreeing_effects} of {ag.effects} effects"
                     f" ({100 * ag.rate:.1f}%) on {ag.cards} cards agree on every compared field or differ only"
                     f" where explained ({len(ag.explained)})")
        if ag.missing:
            lines.append(f"  not in the card list: {', '.join(ag.missing)}")
        lines.append("  field by field: " + ", ".join(
            f"{f} {ag.field_agree[f]}/{ag.effects}" for f in COMPARED_FIELDS))
        lines.append("  (not compared, for information) " + ", ".join(
            f"{f} {ag.info_agree[f]}/{ag.effects}" for f in INFO_FIELDS))
        for f in COMPARED_FIELDS:
            lines.append(f"  confusion table: {f} (library -> derived)")
            for (rv, gv), n in sorted(ag.confusion[f].items(), key=lambda kv: (-kv[1], kv[0])):
                mark = "" if rv == gv else "   <-- differs"
                lines.append(f"    {rv:40} -> {gv:40} {n:4}{mark}")
        lines.append(f"  agree on every compared field: {ag.agreeing_effects - len(ag.explained)} of {ag.effects}"
                     f" ({100 * ag.strict_rate:.1f}%)")
        lines.append(f"  disagreements not explained: {len(ag.disagreements)}")
        for d in ag.disagreements:
            diffs = "; ".join(f"{f}: library {rv}, derived {gv}" for f, rv, gv in d["diffs"])
            lines.append(f"    {d['card']} effect {d['effect']} [{d['status']}]: {diffs}")
        if ag.explained:
            lines.append(f"  explained: {len(ag.explained)} effects differ for a reason the text cannot show"
                         " (logic/textreader.py EXPLAINED_DIFFERENCES)")
            for d in ag.explained:
                fields = ", ".join(sorted({f for f, _rv, _gv in d["diffs"]}))
                missing = any(gv == "(none)" for _f, _rv, gv in d["diffs"])
                what = "no derived entry" if missing else fields
                lines.append(f"    {d['card']} effect {d['effect']} ({what}): {d['reason']}")
        for name, n in ag.stale_explanations:
            lines.append(f"  explanation no longer needed (they agree): {name} effect {n}")
    if timings:
        lines.append("")
        lines.append("Timings: " + ", ".join(f"{k} {v:.2f}s" for k, v in timings.items()))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("coverage", "card", "mismatches"):
        print("usage: python -m logic.textreader coverage [FILE] [--no-cache] [--json]\n"
              "       python -m logic.textreader card NAME [FILE]\n"
              "       python -m logic.textreader mismatches [FILE]   (split vs the Japanese numbering)",
              file=sys.stderr)
        return 2
    from logic import carddata

    args = [a for a in argv[1:] if not a.startswith("--")]
    if argv[0] == "card":
        if not args:
            print("give a card name", file=sys.stderr)
            return 2
        path = Path(args[1]) if len(args) > 1 else carddata.default_path()
        if path is None:
            print("card list not found: give its path or set CHAINJUDGE_CARDS", file=sys.stderr)
            return 2
        lib = load_derived(path)
        dc = lib.get(args[0])
        if dc is None:
            print(f"unknown card {args[0]!r}", file=sys.stderr)
            return 2
        print(json.dumps(dc.to_json(), indent=2, ensure_ascii=False))
        return 0
    path = Path(args[0]) if args else carddata.default_path()
    if path is None:
        print("card list not found: give its path or set CHAINJUDGE_CARDS", file=sys.stderr)
        return 2
    if argv[0] == "mismatches":
        for dc in load_derived(path):
            if dc.split_check.startswith("mismatch"):
                print(f"{dc.card.name}: {dc.split_check}")
        return 0
    t0 = time.perf_counter()
    lib = load_derived(path, use_cache="--no-cache" not in argv)
    t1 = time.perf_counter()
    cards = list(lib)
    t2 = time.perf_counter()
    cov = coverage(cards)
    ag = agreement(lib)
    timings = dict(lib.timings)
    timings.update({"load_total_s": t1 - t0, "build_objects_s": t2 - t1})
    if "--json" in argv:
        print(json.dumps({"card_list": str(path), "card_count": len(lib), "source": lib.source,
                          **report_json(cov, ag, timings)}, indent=2, ensure_ascii=False))
        return 0
    print(f"Card list: {path} ({len(lib)} cards; {lib.source})")
    print(render_report(cov, ag, timings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
