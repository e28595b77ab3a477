"""Agreement of the card-text reader with official per-effect classifications.

    python -m bench.classifications [CORPUS.yaml] [--cards FILE] [--json] [--only NAME ...]

The corpus (tests/corpus/classifications/ygo-official.yaml, format in its
header) states, for effects of real cards, what a public source says about
them: the kind of effect (Ignition, Trigger, Quick, Continuous, Flip, the
activation of a Spell/Trap Card, or an activated Spell/Trap effect), where it
is activated, whether it is mandatory, whether it may be activated in the
Damage Step, and whether it targets.  Only what a source states is there,
each field with its source.

For every card the script runs the card-text reader the way ``chainjudge cards``
does (``logic.textreader.derive`` on the card list's record), takes the
reader's effect that the corpus entry names, and maps its derived attributes
onto the same fields:

  kind         the reader's kind; "phase" (an effect activated during a phase)
               counts as a Trigger Effect, which is what Konami calls it, except
               an optional one of its controller's own phase ("Once per turn,
               during your End Phase: You can"): that one is activated in its
               controller's open game state like an Ignition Effect, and is
               named one (the Yu-Gi-Oh! Wiki "Ignition Effects" lists those
               activated outside the Main Phase; the phase effects Konami's FAQ
               names Trigger Effects are mandatory, or of either player's
               phase); and
               so does "flip" (the reader's Trigger Effect on being flipped
               face-up: Konami's FAQ calls FLIP effects Trigger Effects); an
               official "activated" (a Spell/Trap effect that is not the
               card's activation) agrees with any activated kind
  location     the reader's activation zones; an official "field" agrees with
               the Monster Zone or the Spell & Trap Zone, the Field and
               Pendulum Zones with the Spell & Trap Zone
  mandatory    the reader's mandatory flag
  damage_step  the permission the rules derive from those attributes: the
               base part of encodings/ygo/damage_step.lp (with the
               activatable/1 rule of activation.lp) is ground on the card's
               facts, and "yes" means ds_ok_final(E, Point) holds at some
               point of the Damage Step
  targets      whether the reader gives the effect a target

It prints per field "agree / stated (%)" and every disagreement with its
source; --json prints the same as JSON.  The figures are a measurement of the
reader, not a pass mark: every disagreement is a reader (or rules) bug report,
or a corpus entry to re-check.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

DEFAULT_CORPUS = ROOT / "tests" / "corpus" / "classifications" / "ygo-official.yaml"
FIELDS = ("kind", "location", "mandatory", "damage_step", "targets")
KINDS = ("ignition", "trigger", "quick", "continuous", "flip", "activation", "activated")
LOCATIONS = ("hand", "monster", "graveyard", "banished", "spell_trap", "field_zone", "pendulum_zone", "field",
             "deck", "extra")
_ACTIVATED = {"ignition", "trigger", "quick", "phase", "flip"}
_DS_FILES = ("activation.lp", "damage_step.lp")


class CorpusError(Exception):
    """The corpus file is malformed (one clear message)."""


# ---------------------------------------------------------------- the corpus

@dataclass(frozen=True)
class Stated:
    field: str
    value: Any
    source: str  # a key of the card's sources
    says: str  # what the source states, in our words


@dataclass(frozen=True)
class OfficialEffect:
    effect: int  # the effect's number on the card (Konami's ① ② ..., or its place in the text)
    what: str  # which effect, in our words
    match: str | None  # a few words that pick the reader's effect, when its numbering differs
    stated: tuple[Stated, ...]


@dataclass(frozen=True)
class OfficialCard:
    card: str
    sources: dict[str, dict[str, str]]
    effects: tuple[OfficialEffect, ...]


def _bool(v: Any, where: str) -> bool:
    if isinstance(v, bool):
        return v
    if v in ("yes", "no"):
        return v == "yes"
    raise CorpusError(f"{where}: expected yes or no, not {v!r}")


def _value(name: str, v: Any, where: str) -> Any:
    if name == "kind":
        if v not in KINDS:
            raise CorpusError(f"{where}: kind must be one of {', '.join(KINDS)}, not {v!r}")
        return v
    if name == "location":
        vals = v if isinstance(v, list) else [v]
        for x in vals:
            if x not in LOCATIONS:
                raise CorpusError(f"{where}: location must be among {', '.join(LOCATIONS)}, not {x!r}")
        return tuple(sorted(vals))
    return _bool(v, where)


def load_corpus(path: Path) -> list[OfficialCard]:
    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except (OSError, yaml.YAMLError) as exc:
        raise CorpusError(f"{path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise CorpusError(f"{path}: expected a mapping with a list 'cards'")
    out: list[OfficialCard] = []
    seen: set[str] = set()
    for i, c in enumerate(data["cards"]):
        where = f"{path.name} card {i + 1}"
        if not isinstance(c, dict) or not isinstance(c.get("card"), str):
            raise CorpusError(f"{where}: each card needs 'card' (its official name)")
        name = c["card"]
        where = f"{path.name} {name!r}"
        if name in seen:
            raise CorpusError(f"{where}: listed twice")
        seen.add(name)
        sources = c.get("sources")
        if not isinstance(sources, dict) or not sources:
            raise CorpusError(f"{where}: needs 'sources' (key: {{url, title}})")
        for key, s in sources.items():
            if not isinstance(s, dict) or not s.get("url") or not s.get("title"):
                raise CorpusError(f"{where}: source {key!r} needs a url and a title")
        effects = []
        for e in c.get("effects") or []:
            if not isinstance(e, dict) or not isinstance(e.get("effect"), int):
                raise CorpusError(f"{where}: each effect needs 'effect' (its number)")
            ew = f"{where} effect {e['effect']}"
            stated = []
            for name_f in FIELDS:
                if name_f not in e:
                    continue
                f = e[name_f]
                if not isinstance(f, dict) or "value" not in f or not f.get("source") or not f.get("says"):
                    raise CorpusError(f"{ew}: {name_f} needs value, source and says")
                if f["source"] not in sources:
                    raise CorpusError(f"{ew}: {name_f} cites {f['source']!r}, which is not among the card's sources")
                stated.append(Stated(name_f, _value(name_f, f["value"], f"{ew} {name_f}"), f["source"], f["says"]))
            extra = set(e) - set(FIELDS) - {"effect", "what", "match"}
            if extra:
                raise CorpusError(f"{ew}: unknown keys {sorted(extra)}")
            if not stated:
                raise CorpusError(f"{ew}: states no field")
            effects.append(OfficialEffect(e["effect"], str(e.get("what") or ""), e.get("match"), tuple(stated)))
        if not effects:
            raise CorpusError(f"{where}: no effects")
        out.append(OfficialCard(name, {k: dict(v) for k, v in sources.items()}, tuple(effects)))
    return out


# ---------------------------------------------------------------- the reader

def card_records(cards_file: Path, names: set[str]) -> dict[str, dict[str, Any]]:
    """The card list's records of these cards (by exact name)."""
    out: dict[str, dict[str, Any]] = {}
    with open(cards_file, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("name") in names:
                out.setdefault(rec["name"], rec)
    return out


def damage_step_permission(card: Any) -> dict[int, bool]:
    """Effect index -> whether the rules let it be activated at some point of
    the Damage Step, derived by the encodings from the card's attributes."""
    from logic.facts import card_facts, symbols
    from solver.session import Session

    s = Session(time_limit=20)
    for f in _DS_FILES:
        s.load(ROOT / "encodings" / "ygo" / f)
    s.add_facts(symbols(card_facts("c", card)))
    s.ground([("base", [])])
    atoms = s.brave() or []
    out = {e.index: False for e in card.effects}
    for a in atoms:
        if a.name == "ds_ok_final" and len(a.arguments) == 2:
            e = a.arguments[0]
            # effect terms are e(Card, Index) (logic/facts.py effect_term)
            try:
                out[int(e.arguments[-1].number)] = True
            except (IndexError, RuntimeError, TypeError, AttributeError):
                continue
    return out


def _kind(k: str, eff: Any = None) -> str:
    if k == "phase" and eff is not None and not eff.mandatory and ("turn", "own") in tuple(eff.conditions):
        return "ignition"  # an optional effect of its controller's own phase (module docstring)
    return {"card": "activation", "phase": "trigger"}.get(k, k)


def derived_fields(card: Any, index: int, ds: dict[int, bool]) -> dict[str, Any] | None:
    eff = next((e for e in card.effects if e.index == index), None)
    if eff is None:
        return None
    return {
        "kind": _kind(eff.kind, eff),
        "location": tuple(sorted(eff.zones)),
        "mandatory": bool(eff.mandatory),
        "damage_step": ds.get(index, False) if eff.kind != "continuous" else None,
        "targets": bool(eff.target),
    }


def agrees(name: str, official: Any, derived: Any) -> bool:
    if derived is None:
        return False
    if name == "kind":
        if official == "activated":
            return derived in _ACTIVATED
        if official == "trigger" and derived == "flip":
            return True  # the reader's flip kind is a Trigger Effect on being flipped face-up (vocabulary)
        return bool(official == derived)
    if name == "location":
        want: set[str] = set()
        for z in official:
            if z == "field":
                want |= {"monster", "spell_trap"}
            elif z in ("field_zone", "pendulum_zone"):
                want.add("spell_trap")
            else:
                want.add(z)
        got = set(derived) - {"set"} if set(derived) - {"set"} else set(derived)
        if "field" in official:
            return bool(got) and got <= want
        return got == want
    return bool(official == derived)


def show(v: Any) -> str:
    if v is None:
        return "(none)"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, tuple):
        return ",".join(v) or "-"
    return str(v)


# ---------------------------------------------------------------- the measurement

@dataclass
class Disagreement:
    card: str
    effect: int
    what: str
    field: str
    official: str
    derived: str
    source: str
    says: str
    status: str


@dataclass
class Result:
    cards: int = 0
    effects: int = 0
    fields: int = 0
    stated: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FIELDS})
    agree: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FIELDS})
    disagreements: list[Disagreement] = field(default_factory=list)
    missing_cards: list[str] = field(default_factory=list)

    def table(self) -> list[dict[str, Any]]:
        rows = []
        for f in FIELDS:
            n = self.stated[f]
            rows.append({"field": f, "agree": self.agree[f], "stated": n,
                         "percent": round(100.0 * self.agree[f] / n, 1) if n else None})
        n = sum(self.stated.values())
        rows.append({"field": "all", "agree": sum(self.agree.values()), "stated": n,
                     "percent": round(100.0 * sum(self.agree.values()) / n, 1) if n else None})
        return rows


def _reader_index(dc: Any, e: OfficialEffect) -> int:
    if e.match:
        words = e.match.lower()
        for r in dc.reports:
            if words in (r.text or "").lower():
                return int(r.index)
        return -1
    return e.effect


def measure(corpus: list[OfficialCard], cards_file: Path) -> Result:
    from logic.textreader import derive

    recs = card_records(cards_file, {c.card for c in corpus})
    res = Result()
    for c in corpus:
        rec = recs.get(c.card)
        if rec is None:
            res.missing_cards.append(c.card)
            continue
        res.cards += 1
        dc = derive(rec)
        ds = damage_step_permission(dc.card)
        for e in c.effects:
            res.effects += 1
            idx = _reader_index(dc, e)
            derived = derived_fields(dc.card, idx, ds)
            rep = dc.report(idx)
            status = rep.status if rep is not None else "no such effect"
            for st in e.stated:
                res.fields += 1
                res.stated[st.field] += 1
                got = derived.get(st.field) if derived is not None else None
                if agrees(st.field, st.value, got):
                    res.agree[st.field] += 1
                    continue
                src = c.sources[st.source]
                res.disagreements.append(Disagreement(
                    c.card, e.effect, e.what, st.field, show(st.value), show(got),
                    f"{src['title']} <{src['url']}>", st.says, status))
    return res


def render(res: Result) -> str:
    lines = [f"Official classifications: {res.cards} cards, {res.effects} effects, {res.fields} stated fields"]
    if res.missing_cards:
        lines.append(f"  not in the card list: {', '.join(res.missing_cards)}")
    lines.append("")
    lines.append(f"  {'field':<12} {'agree':>6} / {'stated':<6}  %")
    for row in res.table():
        pct = "-" if row["percent"] is None else f"{row['percent']:.1f}"
        lines.append(f"  {row['field']:<12} {row['agree']:>6} / {row['stated']:<6}  {pct}")
    lines.append("")
    lines.append(f"Disagreements ({len(res.disagreements)}):")
    for d in res.disagreements:
        lines.append(f"  {d.card}, effect {d.effect} ({d.what}) [{d.status}]: {d.field}: official {d.official}, "
                     f"derived {d.derived}")
        lines.append(f"      source: {d.source}: {d.says}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.classifications", description=__doc__.splitlines()[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--cards", help="the Yu-Gi-Oh! card list (default: CHAINJUDGE_CARDS or ../shared/data)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="only these cards (a sample)")
    args = ap.parse_args(argv)
    from logic import carddata

    cards_file = Path(args.cards) if args.cards else carddata.default_path()
    if cards_file is None or not cards_file.exists():
        print("the card list was not found: give --cards FILE or set CHAINJUDGE_CARDS", file=sys.stderr)
        return 2
    try:
        corpus = load_corpus(Path(args.corpus))
    except CorpusError as exc:
        print(f"bad corpus: {exc}", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only)
        corpus = [c for c in corpus if c.card in wanted]
    res = measure(corpus, cards_file)
    if args.json:
        print(json.dumps({"corpus": str(args.corpus), "cards": res.cards, "effects": res.effects,
                          "fields": res.fields, "table": res.table(),
                          "disagreements": [asdict(d) for d in res.disagreements],
                          "missing_cards": res.missing_cards}, indent=2, ensure_ascii=False))
    else:
        print(render(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
