"""Parsing questions and event phrases (grammar: queries/grammar.lark).

Names are replaced by placeholder tokens before parsing (longest name first),
so card names may contain any character ("Lyla, Lightsworn Sorceress",
'Maxx "C"', "Number 39: Utopia").  A phrase that does not parse is an
:class:`~logic.errors.InputError` naming the column and what was expected.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from lark import (
    Lark,
    Token,
    Transformer,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from logic.errors import InputError, shorten
from logic.games import turn
from logic.text import first_unprintable, normalise
from queries.language.ast import Event, Outcome, Paid, Question, Ref, When

MAX_LENGTH = 1000
_GUARD = "\x00"  # marks a point name read only right after a when-word
_START_GUARD = "\x01"  # marks a point name read only at the start of a phrase or right after a when-word
_DEALT = re.compile(r"(?:\s+damage)?\s+(?:is|being)\s+dealt\b", re.IGNORECASE)
_WHEN_AFTER = re.compile(r"(?:^|\s)(?:after|before|during|at|in)\s+(?:the\s+)?$", re.IGNORECASE)
_WHEN_WORDS = {"after", "before", "during", "at", "in", "while"}
_SINGLE_WORD_POINTS_SKIP = {"draw", "end", "main", "battle", "combat", "beginning", "ending"}


@cache
def _parser() -> Lark:
    text = resources.files("queries.language").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(text, parser="earley", start="start", ambiguity="resolve", propagate_positions=True)


@dataclass
class Names:
    """The names a phrase may use: cards (and ids, aliases), players, points."""

    cards: list[str]
    players: list[str]
    game: str = "ygo"


@dataclass
class _Sub:
    text: str
    originals: dict[str, str]
    segments: list[tuple[int, int, int, int]]  # new_start, new_end, orig_start, orig_end

    def orig_pos(self, pos: int) -> int:
        shift = 0
        for ns, ne, os_, oe in self.segments:
            if pos < ns:
                break
            if pos < ne:
                return os_
            shift = oe - ne
        return pos + shift


def _point_names(game: str) -> list[str]:
    t = turn(game)
    names: set[str] = set(t.aliases)
    for span in t.spans:
        names.add(span)
    out = []
    for n in names:
        if n.split(" ", 1)[0] in _WHEN_WORDS:
            # "after damage calculation" is the when-form "after <damage calculation>"
            # (the same moment as the sub-step of that name); "before damage
            # calculation" means before it begins, "during damage calculation" while it lasts.
            # As the subject of an event phrase ("after damage calculation begins", a
            # history line) or right after a when-word it is the sub-step's name.
            out.append(_START_GUARD + n)
            continue
        if " " not in n and "." not in n and not any(ch.isdigit() for ch in n):
            if len(n) < 2:
                continue
            if n in _SINGLE_WORD_POINTS_SKIP:
                # a word of ordinary phrases too ("the end of", "draw"): a point name
                # only right after a when-word ("during end", "after the battle")
                out.append(_GUARD + n)
                continue
        out.append(n)
    return out


@lru_cache(maxsize=4096)
def _name_pattern(name: str, case: bool) -> re.Pattern[str]:
    return re.compile(r"(?<![\w§])" + re.escape(name) + r"(?![\w§])", 0 if case else re.IGNORECASE)


def _substitute(text: str, names: Names) -> _Sub:
    entries: list[tuple[str, str, bool]] = []  # (name, kind letter, case sensitive)
    for c in names.cards:
        if c.strip():
            entries.append((normalise(c.strip()), "c", False))
    for p in names.players:
        entries.append((normalise(p), "p", True))
    for n in _point_names(names.game):
        entries.append((n, "t", False))
    # longest first; for equal lengths players before cards before points
    order = {"p": 0, "c": 1, "t": 2}
    entries.sort(key=lambda e: (-len(e[0]), order[e[1]]))
    taken = [False] * len(text)
    found: list[tuple[int, int, str]] = []
    # A cheap test first: most names are not in a question.  (The text is NFKC-normal, so no
    # character other than an ASCII letter's own cases matches it ignoring case: the Kelvin
    # sign and the long s are gone; other characters only pass the test, never fail it.)
    lower = text.lower()
    for name, kind, case in entries:
        guarded = name.startswith(_GUARD)
        start_guarded = name.startswith(_START_GUARD)
        name = name.lstrip(_GUARD).lstrip(_START_GUARD)
        if name not in text if case else (name.isascii() and name.lower() not in lower):
            continue
        for m in _name_pattern(name, case).finditer(text):
            s, e = m.span()
            if any(taken[s:e]):
                continue
            if guarded and not _WHEN_AFTER.search(text[:s]):
                continue
            if start_guarded and s > 0 and not _WHEN_AFTER.search(text[:s]):
                continue
            if kind == "t" and _DEALT.match(text, e):
                continue  # "combat damage is dealt" is an event, not the step's name
            if kind == "t" and name.lower() == "the":
                continue
            for i in range(s, e):
                taken[i] = True
            found.append((s, e, kind))
    found.sort()
    out: list[str] = []
    originals: dict[str, str] = {}
    segments: list[tuple[int, int, int, int]] = []
    pos = 0
    counter = 0
    new_len = 0
    for s, e, kind in found:
        out.append(text[pos:s])
        new_len += s - pos
        token = f"§{kind}{counter}§"
        counter += 1
        originals[token] = text[s:e]
        segments.append((new_len, new_len + len(token), s, e))
        out.append(token)
        new_len += len(token)
        pos = e
    out.append(text[pos:])
    return _Sub("".join(out), originals, segments)


class _Build(Transformer):  # type: ignore[type-arg]
    def __init__(self, sub: _Sub, text: str) -> None:
        super().__init__()
        self.sub = sub
        self.text = text

    # tokens -------------------------------------------------------------
    def _orig(self, tok: Token) -> str:
        return self.sub.originals.get(str(tok), str(tok))

    def card(self, items: list[Token]) -> Ref:
        return Ref(self._orig(items[-1]))

    def point_ref(self, items: list[Token]) -> str:
        return self._orig(items[-1])

    def effect_of(self, items: list[object]) -> Ref:
        ref = items[0]
        assert isinstance(ref, Ref)
        return Ref(ref.text, effect=True)

    def ability_of(self, items: list[object]) -> Ref:
        ref, sel = items[0], items[-1]
        assert isinstance(ref, Ref)
        return Ref(ref.text, effect=True, ability=str(sel).lower().replace("−", "-"))

    def ability_of_the(self, items: list[object]) -> Ref:
        sel, ref = items[0], items[-1]
        assert isinstance(ref, Ref)
        word = str(sel).lower()
        n = self._ORDINALS.get(word)
        # one spelling for the compiler: "2nd ability" is "second ability"
        names = ("first", "second", "third", "fourth", "fifth", "sixth")
        return Ref(ref.text, effect=True, ability=names[n - 1] if n else word)

    def plain_card(self, items: list[object]) -> Ref:
        ref = items[0]
        assert isinstance(ref, Ref)
        return ref

    def PLAYER(self, tok: Token) -> str:  # noqa: N802 - lark terminal callback
        return self._orig(tok)

    def targeting(self, items: list[object]) -> tuple[object, ...]:
        return tuple(items)

    def on_card(self, items: list[object]) -> tuple[str, object]:
        return ("on", items[0])

    def direct(self, _items: list[object]) -> tuple[str, object]:
        return ("direct", None)

    def card_list(self, items: list[object]) -> tuple[object, ...]:
        return tuple(items)

    def block(self, items: list[object]) -> tuple[object, object]:
        return (items[0], items[1])

    def block_list(self, items: list[object]) -> tuple[object, ...]:
        return tuple(items)

    def hand_size(self, _items: list[object]) -> str:
        return "hand_size"

    # what was paid and chosen ------------------------------------------
    def _paid_cards(self, kind: str, items: list[object]) -> list[Paid]:
        refs = [r for it in items for r in (it if isinstance(it, tuple) else (it,)) if isinstance(r, Ref)]
        return [Paid(kind, card=r) for r in refs]

    def p_tribute(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("tribute", items)

    def p_discard(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("discard", items)

    def p_banish(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("banish", items)

    def p_detach(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("detach", items)

    def p_send(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("send", items)

    def p_detach_count(self, items: list[object]) -> list[Paid]:
        return [Paid("detach", number=int(str(items[0])))]

    def p_lp(self, items: list[object]) -> list[Paid]:
        return [Paid("lp", number=int(str(items[0])))]

    def p_mode(self, items: list[object]) -> list[Paid]:
        n = items[0]
        assert isinstance(n, int)
        return [Paid("mode", number=n)]

    _ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
                 "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}

    def mode(self, items: list[Token]) -> int:
        word = str(items[-1]).lower()
        return self._ORDINALS.get(word) or int(word)

    def paid_list(self, items: list[object]) -> list[Paid]:
        return [p for it in items if isinstance(it, list) for p in it]

    def using(self, items: list[object]) -> list[Paid]:
        return self._paid_cards("material", items)

    def from_zone(self, items: list[Token]) -> tuple[str, str]:
        return ("from", str(items[-1]).lower())

    # events -------------------------------------------------------------
    def _ev(self, kind: str, items: list[object], **kw: object) -> Event:
        player = items[0] if items and isinstance(items[0], str) else None
        return Event(kind=kind, player=player, **kw)  # type: ignore[arg-type]

    def _targets(self, items: list[object]) -> tuple[Ref | str, ...]:
        for it in items:
            if isinstance(it, tuple) and it and all(isinstance(x, Ref | str) for x in it):
                return it  # type: ignore[return-value]
        return ()

    def _card(self, items: list[object]) -> Ref | None:
        for it in items:
            if isinstance(it, Ref):
                return it
        return None

    def _said(self, meta: object) -> str:
        """The words of the phrase as the user wrote them ('' if unknown)."""
        start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
        if getattr(meta, "empty", True) or start is None or end is None:
            return ""
        return self.text[self.sub.orig_pos(start):self.sub.orig_pos(end)].strip()

    def __default__(self, data: str, children: list[object], meta: object) -> object:
        if data.startswith("e_"):
            kind = data[2:]
            paid: tuple[Paid, ...] = tuple(p for it in children if isinstance(it, list) for p in it
                                           if isinstance(p, Paid))
            method = None
            zone = None
            for it in children:
                if isinstance(it, Token) and it.type == "METHOD":
                    method = str(it).lower()
                elif isinstance(it, tuple) and len(it) == 2 and it[0] == "from":
                    zone = str(it[1])
            children = [it for it in children if not (isinstance(it, list) or isinstance(it, Token)
                                                      and it.type == "METHOD"
                                                      or isinstance(it, tuple) and len(it) == 2 and it[0] == "from")]
            player = children[0] if children and isinstance(children[0], str) else None
            if kind in ("begins", "ends"):
                return Event(kind=kind, point=str(children[0]), text=self._said(meta))
            card = self._card(children)
            point = None
            for it in children:
                if isinstance(it, str) and it is not player:
                    point = it
            targets: tuple[Ref | str, ...] = ()
            direct = False
            cards: tuple[Ref, ...] = ()
            blocks: tuple[tuple[Ref, Ref], ...] = ()
            for it in children:
                if isinstance(it, tuple) and len(it) == 2 and it[0] in ("on", "direct"):
                    if it[0] == "direct":
                        direct = True
                    else:
                        targets = (it[1],)  # type: ignore[assignment]
                elif isinstance(it, tuple) and kind == "declare_attackers":
                    cards = it  # type: ignore[assignment]
                elif isinstance(it, tuple) and kind == "declare_blockers":
                    blocks = it  # type: ignore[assignment]
                elif isinstance(it, tuple):
                    targets = it  # type: ignore[assignment]
            if kind == "discard" and "hand_size" in children:
                kind = "discard_hand_size"
                point = None
            if kind in ("declare_attackers",):
                card = None
            if kind not in ("declare_end", "enter", "begins", "ends"):
                point = None
            return Event(kind=kind, player=player, card=card, targets=targets, point=point, direct=direct,
                         cards=cards, blocks=blocks, text=self._said(meta), paid=paid, method=method, zone=zone)
        return Tree(data, children, meta)  # type: ignore[arg-type]


def _when(tree: object) -> When:
    if not isinstance(tree, Tree):
        return When("none")
    kind = str(tree.data)[2:]
    kids = tree.children
    if kind == "now":
        return When("now")
    if kind in ("after", "before_event"):
        return When(kind, event=kids[0])  # type: ignore[arg-type]
    if kind in ("before_point", "during"):
        return When(kind, point=kids[0])  # type: ignore[arg-type]
    if kind == "after_point":
        # "after <point>": once that point has ended (the same as "after <point> ends")
        point = kids[0]
        assert isinstance(point, str)
        return When("after", event=Event(kind="ends", point=point, text=f"{point} ends"), point=point)
    if kind == "in_response":
        if len(kids) == 1:  # an event no player performs ("in response to Sangan's effect resolving")
            assert isinstance(kids[0], Event)
            return When("in_response", event=kids[0])
        player = kids[0]
        ev = kids[1]
        assert isinstance(ev, Event) and isinstance(player, str)
        ev = Event(**{**ev.__dict__, "player": player, "text": f"{player} {ev.text}".strip()})
        return When("in_response", event=ev, player=player)
    if kind == "while_resolves":
        return When("while_resolves", card=kids[0])  # type: ignore[arg-type]
    return When("none")


def _outcome(tree: Tree) -> Outcome:  # type: ignore[type-arg]
    kind = str(tree.data)[2:]
    kids = tree.children
    if kind == "point_end":
        return Outcome(kind, point=kids[0])  # type: ignore[arg-type]
    if kind == "replay":
        return Outcome(kind)
    return Outcome(kind, card=kids[0])  # type: ignore[arg-type]


def _question(tree: Tree, text: str) -> Question:  # type: ignore[type-arg]
    q = tree
    kind = str(q.data)
    kids = q.children
    when = _when(kids[-1]) if kids and isinstance(kids[-1], Tree) and str(kids[-1].data).startswith("w_") else When("none")
    if kind in ("can_q", "must_q"):
        return Question(kind[:-2], text, event=kids[0], when=when)  # type: ignore[arg-type]
    if kind == "does_q":
        return Question("does", text, outcome=_outcome(kids[0]), when=when)  # type: ignore[arg-type]
    if kind == "who_q":
        what = str(kids[0].data)  # type: ignore[union-attr]
        return Question(what, text, when=when)
    if kind == "order_q":
        tail = str(kids[2].data)  # type: ignore[union-attr]
        return Question("order", text, cards=(kids[0], kids[1]), when=when,  # type: ignore[arg-type]
                        order_of="resolve" if tail == "resolve_order" else "chain")
    if kind == "chain_q":
        return Question("chain", text, when=when)
    if kind == "count_q":
        return Question("count", text, when=when)
    if kind == "list_q":
        return Question("list", text, when=when)
    if kind == "when_q":
        return Question("when_can", text, player=kids[0], cards=(kids[1],))  # type: ignore[arg-type]
    if kind == "next_q":
        return Question("next_point", text, when=when)
    if kind == "chooses_q":
        return Question("chooses", text, cards=(kids[0], kids[1]))  # type: ignore[arg-type]
    raise InputError(f"unsupported question form {kind}")


_EXPECT_NAMES = {
    "CARD": "a card name (from the scenario or the card library)",
    "PLAYER": "a player's name",
    "POINT": "a phase, step or sub-step (e.g. main phase 1, the battle phase, damage calculation)",
    "POSS": "'s (as in Sangan's effect)",
}
_QUOTES = "\"'“”‘’«»"


def _readable(expected: set[str]) -> list[str]:
    out: list[str] = []
    for e in sorted(expected, key=lambda e: (e not in _EXPECT_NAMES, e)):
        if e in _EXPECT_NAMES:
            out.append(_EXPECT_NAMES[e])
        elif e.startswith("__ANON") or e in ("WS",):
            continue
        else:
            word = e.lower().strip('"').replace("_", " ")
            out.append(f"'{word}'")
    return out


def _error(exc: UnexpectedInput, sub: _Sub, original: str, names: Names, what: str) -> InputError:
    pos = getattr(exc, "pos_in_stream", None)
    if pos is None or isinstance(exc, UnexpectedEOF) or pos < 0:
        pos = len(sub.text)
    opos = min(sub.orig_pos(pos), len(original))
    expected: set[str] = set()
    if isinstance(exc, UnexpectedToken | UnexpectedEOF):
        expected = set(getattr(exc, "expected", set()) or set())
    elif isinstance(exc, UnexpectedCharacters):
        expected = set(getattr(exc, "allowed", set()) or set())
    readable = _readable(expected)
    rest = original[opos:].strip()
    near = rest.split(" ")[0] if rest else ""
    caret = original + "\n" + " " * opos + "^"
    col = opos + 1
    quoted = bool(rest) and rest[0] in _QUOTES
    msg: str
    if "CARD" in expected and "PLAYER" in expected and rest and not quoted and not _close_cards(rest, names):
        msg = (f"unknown name {shorten(near, 40)} at column {col}: not a player "
               f"({', '.join(names.players)}) nor a card of the scenario or the library")
    elif "CARD" in expected and rest:
        close = _close_cards(rest.strip(_QUOTES), names)
        hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else ""
        if quoted:
            hint += " (write card names without quotes)"
        msg = f"unknown card name at column {col} ({shorten(rest, 60)}){hint}"
    elif "PLAYER" in expected and near:
        msg = f"unknown player {shorten(near, 40)} at column {col}; the players are {', '.join(names.players)}"
        same = [p for p in names.players if p.lower() == near.lower()]
        if same:
            msg += f" (names are case-sensitive: did you mean {same[0]}?)"
    elif "POINT" in expected and rest:
        msg = f"unknown phase or step {shorten(rest, 60)} at column {col}"
    elif not rest:
        exp = ", ".join(readable[:8]) or "more words"
        msg = f"the {what} ends too early; expected {exp}"
    elif not readable:
        msg = f"unexpected {shorten(near, 40)} at column {col}; the {what} could end just before it"
    else:
        exp = ", ".join(readable[:12])
        msg = f"cannot read the {what} at column {col} (near {shorten(near, 40)}); expected {exp}"
    return InputError(msg + "\n  " + caret.replace("\n", "\n  "), what)


def _close_cards(rest: str, names: Names) -> list[str]:
    """Card names close to what follows the position: the whole rest, then its
    first words (the name is usually followed by more of the question)."""
    words = rest.split()
    for k in range(len(words), 0, -1):
        close = difflib.get_close_matches(" ".join(words[:k]), names.cards, n=3, cutoff=0.7)
        if close:
            return close
    return difflib.get_close_matches(rest, names.cards, n=3, cutoff=0.5)


def _prepare(text: str, what: str) -> str:
    if not isinstance(text, str):
        raise InputError(f"the {what} must be text", what)
    if len(text) > MAX_LENGTH:
        raise InputError(f"the {what} is too long ({len(text)} characters; at most {MAX_LENGTH})", what)
    clean = " ".join(normalise(text).split())
    bad = first_unprintable(clean)
    if bad is not None:
        raise InputError(f"the {what} contains an invisible or control character (U+{ord(clean[bad]):04X}) "
                         f"at column {bad + 1}", what)
    if "§" in clean:
        raise InputError(f"the {what} contains the reserved character '§' at column {clean.index('§') + 1}", what)
    if not clean.rstrip("?").strip():
        raise InputError(f"the {what} is empty", what)
    if len(clean) > MAX_LENGTH:
        raise InputError(f"the {what} is too long ({len(clean)} characters; at most {MAX_LENGTH})", what)
    return clean.rstrip("?").rstrip()


def parse_question(text: str, names: Names) -> Question:
    clean = _prepare(text, "question")
    sub = _substitute(clean, names)
    try:
        tree = _parser().parse(sub.text)
    except UnexpectedInput as exc:
        if getattr(exc, "pos_in_stream", None) == 0 and sub.text.lower().startswith(("§", "the ", "combat", "first")) \
                and _is_event(sub.text):
            raise InputError("this is an event phrase, not a question; a question starts with can, must, does, "
                             "who, what, when, which, how or in what order (e.g. 'can B activate X after "
                             f"{shorten(clean, 60)[1:-1]}')", "question") from None
        raise _error(exc, sub, clean, names, "question") from None
    built = _Build(sub, clean).transform(tree)
    node = built.children[0]
    if not isinstance(node, Tree) or str(node.data) == "event_start":
        raise InputError("this is an event phrase, not a question (start with can, must, does, who, what …)",
                         "question")
    return _question(node, clean)


def _is_event(substituted: str) -> bool:
    try:
        _parser().parse("@event " + substituted)
    except UnexpectedInput:
        return False
    return True


def parse_event(text: str, names: Names) -> Event:
    clean = _prepare(text, "event phrase")
    sub = _substitute(clean, names)
    try:
        tree = _parser().parse("@event " + sub.text)
    except UnexpectedInput as exc:
        # shift positions back over the "@event " prefix
        if getattr(exc, "pos_in_stream", None) is not None:
            exc.pos_in_stream = max(0, exc.pos_in_stream - len("@event "))
        raise _error(exc, sub, clean, names, "event phrase") from None
    built = _Build(sub, clean).transform(tree)
    node = built.children[0]
    if not isinstance(node, Tree) or str(node.data) != "event_start":
        raise InputError("expected an event phrase (for example 'A activates Mystical Space Typhoon')",
                         "event phrase")
    ev = node.children[0]
    assert isinstance(ev, Event)
    return Event(**{**ev.__dict__, "text": clean})


def names_for(cards: Iterable[str], players: Iterable[str], game: str) -> Names:
    return Names(sorted(set(cards)), list(players), game)
