"""The command line: chainjudge ask | cases | cards | chains | check | serve.

Exit codes (README.md): 0 answered; 1 a case failed / a check found a
violation; 2 bad input; 3 a time, model or horizon limit was hit; 4 the
question needs rules or cards that are not modelled.  Errors are one clear
message on stderr, never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from logic.errors import InputError, NotModelled, shorten
from solver import LimitReached, ProgramError
from solver.errors import UnsafeEnvironment, describe_limit
from solver.limits import (
    DEFAULT_GROUND_TIME,
    DEFAULT_MAX_MODELS,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIME,
    Limits,
)
from solver.safety import check_environment

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Timing rulings for Yu-Gi-Oh! and Magic: The Gathering, answered by logic.")

EXIT_FAILED, EXIT_INPUT, EXIT_LIMIT, EXIT_NOT_MODELLED, EXIT_INTERNAL = 1, 2, 3, 4, 70
MAX_MESSAGE = 2000


def _fail(code: int, message: str) -> None:
    # a message may quote what the user typed: never let an unencodable character crash the report
    safe = message.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(safe) > MAX_MESSAGE:  # a message stays readable: one screen, not a file
        safe = safe[: MAX_MESSAGE - 1] + f"… (cut; {len(safe):,} characters in all)"
    typer.echo(f"chainjudge: {safe}", err=True)
    raise typer.Exit(code)


class Terminated(Exception):
    """SIGTERM: stop as Ctrl-C does (workers ended, no partial cache), exit 143."""


def _on_term(_signo: int, _frame: object) -> None:
    raise Terminated


def guarded(fn: Callable[[], int | None]) -> None:
    """Run a command body, turning every error into a message and an exit code."""
    import signal
    import threading

    main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, _on_term) if main else None
    try:
        check_environment()  # at start-up: clingo must have no script language (solver/safety.py)
        code = fn() or 0
    except typer.Exit:
        raise
    except Terminated:
        _fail(143, "terminated (SIGTERM); the search was stopped")
    except InputError as exc:
        _fail(EXIT_INPUT, f"error: {exc}")
    except NotModelled as exc:
        _fail(EXIT_NOT_MODELLED, str(exc))
    except LimitReached as exc:
        _fail(EXIT_LIMIT, describe_limit(exc))
    except ProgramError as exc:
        _fail(EXIT_INPUT, f"error: {exc.message if exc.where == 'grounding' else exc}")
    except UnsafeEnvironment as exc:
        _fail(EXIT_INTERNAL, f"refusing to run: {exc}")
    except RecursionError:
        _fail(EXIT_INPUT, "error: the input is nested too deeply")
    except KeyboardInterrupt:
        _fail(130, "interrupted (Ctrl-C); the search was stopped")
    except BrokenPipeError:
        # the reader of the output went away (`chainjudge chains --json | head`):
        # nothing more can be said on stdout; exit quietly as other tools do
        _quiet_pipe()
        raise typer.Exit(0) from None
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        _fail(EXIT_INTERNAL, f"internal error ({type(exc).__name__}: {exc}); please report it with the input")
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
    raise typer.Exit(code)


def _quiet_pipe() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush of a
    closed pipe cannot print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


RulesOpt = Annotated[list[Path] | None, typer.Option(
    "--rules", help="a rule file of your own (ASP, %@rule blocks; docs/robustness.md); may be repeated")]
MaxModelsOpt = Annotated[int, typer.Option(
    "--max-models", help="most models one enumeration may produce (exit 3)")]
GroundTimeOpt = Annotated[float, typer.Option(
    "--ground-time-limit", help="seconds for probe-grounding rule files and large positions")]
MemoryOpt = Annotated[int, typer.Option(
    "--memory-limit", help="megabytes for probe-grounding rule files and large positions")]


MAX_MEMORY_MB = 1 << 20  # 1 TB: more cannot be an address-space limit of this machine
MAX_SECONDS = 7 * 24 * 3600.0


def check_time_option(value: float | None, option: str, zero_ok: bool = True) -> None:
    """A number of seconds from the command line: finite, not negative, at most a week."""
    import math

    if value is None:
        return
    if not math.isfinite(value):
        raise InputError(f"{option} must be a number of seconds, not {value}" + (" (0: no limit)" if zero_ok else ""))
    if value < 0 or (value == 0 and not zero_ok):
        raise InputError(f"{option} must be {'0 (no limit) or more' if zero_ok else 'more than 0'} seconds, "
                         f"not {value:g}")
    if value > MAX_SECONDS:
        raise InputError(f"{option} must be at most {MAX_SECONDS:.0f} seconds (a week), not {value:g}"
                         + ("; 0 means no limit" if zero_ok else ""))


def _check_output(path: Path | None, option: str) -> None:
    """An output file's folder must exist before any work is done."""
    if path is None:
        return
    if "\x00" in str(path):
        raise InputError("the path contains a NUL character", option)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"the folder {parent} does not exist", f"{option} {path}")
    if path.is_dir():
        raise InputError("is a folder; give a file name", f"{option} {path}")


def _write_output(path: Path, text: str, option: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write the file ({exc.strerror or exc})", f"{option} {path}") from None


def _limits(time_limit: float | None, max_models: int, ground_time: float, memory: int) -> tuple[float | None, Limits]:
    """Check the limit options (bad values are bad input) and bundle them."""
    check_time_option(time_limit, "--time-limit")
    if max_models < 1:
        raise InputError(f"--max-models must be at least 1, not {max_models}")
    check_time_option(ground_time, "--ground-time-limit", zero_ok=False)
    if memory < 256:
        raise InputError(f"--memory-limit must be at least 256 (MB), not {memory}")
    if memory > MAX_MEMORY_MB:
        raise InputError(f"--memory-limit must be at most {MAX_MEMORY_MB} (MB, 1 TB), not {memory}")
    tl = None if not time_limit else time_limit
    return tl, Limits(time=tl, max_models=max_models, ground_time=ground_time, memory_mb=memory)


@app.command()
def ask(
    scenario: Annotated[Path, typer.Argument(help="a scenario file (YAML)")],
    question: Annotated[str, typer.Argument(help='the question, e.g. "who has priority now"')],
    json_out: Annotated[bool, typer.Option("--json", help="the answer as JSON (docs/questions.md)")] = False,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", help="seconds before giving up (exit 3); 0: no limit")] = DEFAULT_TIME,
    max_horizon: Annotated[int | None, typer.Option("--max-horizon", help="most steps a trace may take")] = None,
    cards_file: Annotated[Path | None, typer.Option("--cards", help="the full card list (JSON lines); "
                                                    "cards outside the library take attributes read from their text")] = None,
    no_explain: Annotated[bool, typer.Option("--no-explain", help="the verdict and a witness only (faster)")] = False,
    dot_file: Annotated[Path | None, typer.Option("--dot", help="write the pictures (Graphviz DOT) to FILE")] = None,
    svg_file: Annotated[Path | None, typer.Option("--svg", help="draw the pictures as SVG into FILE (needs Graphviz)")] = None,
    rules: RulesOpt = None,
    max_models: MaxModelsOpt = DEFAULT_MAX_MODELS,
    ground_time: GroundTimeOpt = DEFAULT_GROUND_TIME,
    memory: MemoryOpt = DEFAULT_MEMORY_MB,
) -> None:
    """Answer a timing question about a scenario."""

    def body() -> int:
        from queries import api
        from queries.render.text import to_json, to_text

        tl, limits = _limits(time_limit, max_models, ground_time, memory)
        if max_horizon is not None and max_horizon < 1:
            raise InputError(f"--max-horizon must be at least 1, not {max_horizon}")
        for out_path, opt in ((dot_file, "--dot"), (svg_file, "--svg")):
            _check_output(out_path, opt)
        sc = api.load_scenario(scenario, cards=cards_file)

        def answer() -> tuple[str, str | None]:
            ans = api.ask(sc, question, max_horizon=max_horizon, explain=not no_explain, rules=rules,
                          limit_set=limits)
            dot_text = None
            if dot_file or svg_file:
                from queries.render.pictures import answer_dot

                dot_text = answer_dot(ans, sc.game)
            return (to_json(ans) if json_out else to_text(ans)), dot_text

        if rules or len(sc.cards) + len(sc.history) >= limits.large_position:
            # grounding past the probe's steps cannot be interrupted here: the whole
            # answer runs in a child under the time and memory limits (logic/bounded.py)
            from logic.bounded import call_bounded

            text, dot_text = call_bounded(answer, tl, limits.memory_mb)
        else:
            text, dot_text = answer()
        if dot_text is not None:
            from queries.render.pictures import render_svg

            if dot_file:
                _write_output(dot_file, dot_text, "--dot")
            if svg_file:
                render_svg(dot_text, svg_file)
        typer.echo(text)
        return 0

    guarded(body)


@app.command()
def cases(
    path: Annotated[Path, typer.Argument(help="a corpus of ruling cases (YAML)")],
    json_out: Annotated[bool, typer.Option("--json", help="one JSON object per case")] = False,
    grade: Annotated[bool, typer.Option(
        "--grade", help="sort each case into pass / WRONG / refused / rejected / limit; "
                        "WRONG and rejected count as failed")] = False,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", help="seconds per case; 0: no limit")] = DEFAULT_TIME,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="print the answer of failed cases")] = False,
    explain: Annotated[bool, typer.Option(
        "--explain", help="explain every answer (reasons, counterfactuals, chances): slower")] = False,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", help="cases answered at once, in worker processes (0: one per CPU)")] = 0,
    cards_file: Annotated[Path | None, typer.Option("--cards", help="the full card list (JSON lines)")] = None,
    rules: RulesOpt = None,
    max_models: MaxModelsOpt = DEFAULT_MAX_MODELS,
    ground_time: GroundTimeOpt = DEFAULT_GROUND_TIME,
    memory: MemoryOpt = DEFAULT_MEMORY_MB,
) -> None:
    """Run a corpus of ruling cases; exit 1 if any fails."""

    def body() -> int:
        from queries.render.text import to_text
        from queries.rulings.cases import GRADES, run_corpus

        tl, limits = _limits(time_limit, max_models, ground_time, memory)
        counts = {"passed": 0, "failed": 0, "skipped": 0}
        results: list[dict[str, Any]] = []
        if jobs < 0:
            raise InputError(f"--jobs must be 0 (one per CPU) or a positive number, not {jobs}")
        workers = jobs or _cpus()
        grades = dict.fromkeys(GRADES, 0)
        # closed on any exit (Ctrl-C, SIGTERM, an error): the worker processes end with it
        with contextlib.closing(run_corpus(path, tl, cards_file=cards_file, limits=limits,
                                           rules=[str(r) for r in rules or []], explain=explain or verbose,
                                           jobs=workers, text_of=to_text)) as run:
            for r in run:
                _case_line(r, grade, json_out, verbose, counts, grades, results)
        summary = f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"
        if grade:
            breakdown = ", ".join(f"{grades[g]} {g}" for g in GRADES)
        if json_out:
            doc: dict[str, Any] = {"cases": results, "summary": counts}
            if grade:
                doc["grades"] = grades
            typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
            # stdout stays one JSON document; the summary lines go to stderr
            if grade:
                typer.echo(f"grades: {breakdown}", err=True)
            typer.echo(summary, err=True)
        else:
            if grade:
                typer.echo(f"grades: {breakdown}")
            typer.echo(summary)
        return EXIT_FAILED if counts["failed"] else 0

    guarded(body)


def _case_line(r: Any, grade: bool, json_out: bool, verbose: bool, counts: dict[str, int],
               grades: dict[str, int], results: list[dict[str, Any]]) -> None:
    """Count one case's result and print its line (not with --json)."""
    from queries.render.text import to_text
    from queries.rulings.cases import FAILING_GRADES

    grades[r.grade] += 1
    if grade:
        bucket = "passed" if r.grade == "pass" else "failed" if r.grade in FAILING_GRADES else "skipped"
    else:
        bucket = "passed" if r.status == "passed" else "skipped" if r.status == "skipped" else "failed"
    counts[bucket] += 1
    results.append(r.as_json())
    if not json_out:
        if grade:
            mark = f"{r.grade:<8}"
        else:
            mark = {"passed": "ok  ", "failed": "FAIL", "skipped": "skip"}[r.status]
        line = f"{mark} {r.id:<44} got {_show(r.got):<28} expected {_show(r.expected):<28} {r.ms:8.0f} ms"
        if r.message:
            line += f"  ({shorten(r.message.splitlines()[0], 300)})"
        typer.echo(line)
        if verbose and bucket == "failed" and (r.answer is not None or r.text):
            text = to_text(r.answer) if r.answer is not None else r.text
            typer.echo("      " + text.replace("\n", "\n      "))


def _cpus() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _show(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


@app.command()
def cards(
    query: Annotated[str | None, typer.Argument(help="a name, part of one or words of its text; or `import` / "
                                                     "`update` (install the full card lists)")] = None,
    file: Annotated[Path | None, typer.Argument(help="for `cards import`: the card list file")] = None,
    game: Annotated[str | None, typer.Option("--game", help="ygo or mtg (default ygo; `update`: both)")] = None,
    text: Annotated[bool, typer.Option("--text", help="show the official text of library cards (needs the card list)")] = False,
    cards_file: Annotated[Path | None, typer.Option("--cards", help="the full card list (Yu-Gi-Oh!: JSON lines; "
                                                    "Magic: Scryfall's Oracle cards JSON or JSON lines)")] = None,
    json_out: Annotated[bool, typer.Option("--json")] = False,
    coverage: Annotated[bool, typer.Option("--coverage", help="how much of the card list the text reader classifies")] = False,
    ygo_url: Annotated[str | None, typer.Option("--ygo-url", help="`update`: where to download the Yu-Gi-Oh! list "
                                                "(default: YGOPRODeck's card database API)")] = None,
    mtg_url: Annotated[str | None, typer.Option("--mtg-url", help="`update`: where to download the Magic list "
                                                "(default: Scryfall's Oracle cards bulk data)")] = None,
) -> None:
    """The card library and the full card lists.

    `cards` lists the hand-checked library; `cards NAME` shows the cards that
    match (by name, a close spelling, or words of their text): the text, the
    timing attributes of each effect and what is not modelled.
    `cards import FILE` installs a full card list (Yu-Gi-Oh! JSON lines, or
    Scryfall's Oracle cards file for Magic) where every command finds it;
    `cards update` downloads the current lists (docs/cards.md)."""

    def body() -> int:
        from logic import cardstore
        from logic.cards import bundled

        if query in ("import", "update"):
            if game is not None and game not in ("ygo", "mtg"):
                raise InputError(f"--game must be ygo or mtg, not {game!r}", "--game")
        if query == "import":
            if file is None:
                raise InputError("`cards import` needs the card list file: chainjudge cards import FILE", "cards import")
            res = cardstore.install(file, game=game)
            typer.echo(res.line())
            return 0
        if query == "update":
            if file is not None:
                raise InputError(f"`cards update` takes no file (got {str(file)!r}); to install a file you have, "
                                 "use `chainjudge cards import FILE`", "cards update")
            for g in ([game] if game else ["ygo", "mtg"]):
                res = cardstore.update(g, ygo_url if g == "ygo" else mtg_url)
                typer.echo(res.line())
            return 0
        if file is not None:
            raise InputError(f"unexpected argument {str(file)!r}: name one card (in quotes if it has spaces)", "cards")
        g = game or "ygo"
        if coverage and g == "mtg":
            from logic import mtg_cardlist

            mpath = mtg_cardlist.list_path(cards_file) or mtg_cardlist.default_path()
            if mpath is None:
                raise InputError(f"the Magic card list was not found: {cardstore.HINT}", "--coverage")
            if not Path(mpath).exists():
                raise InputError("the Magic card list was not found", str(mpath))
            cov = mtg_cardlist.coverage(mtg_cardlist.load(Path(mpath)))
            typer.echo(json.dumps(cov, indent=2, ensure_ascii=False) if json_out else mtg_cardlist.coverage_text(cov))
            return 0
        if coverage:
            from logic import carddata, textreader

            path = cards_file or carddata.default_path()
            if path is None:
                raise InputError(f"the card list was not found: {cardstore.HINT}", "--coverage")
            args = ["coverage", str(path)] + (["--json"] if json_out else [])
            return textreader.main(args)

        if g not in ("ygo", "mtg"):
            raise InputError(f"--game must be ygo or mtg, not {g!r}", "--game")
        lib = bundled(g)
        chosen = [c for c in lib.cards.values() if query is None or query.lower() in c.name.lower()
                  or any(query.lower() in a.lower() for a in c.aliases)]
        out: list[dict[str, Any]] = []
        listed: list[str] = []
        how = ""
        if query is not None and not chosen:
            out, listed, how = _search_card_list(query, g, cards_file)
            if not out and not listed:
                close = lib.close_matches(query)
                have = _card_list_path(g, cards_file) is not None
                raise InputError(f"no card matches {query!r}" + (f"; did you mean {', '.join(close)}?" if close else "")
                                 + ("" if have else f" (only the hand-checked library was searched: {cardstore.HINT})"),
                                 "cards")
        records = None
        if text and g == "ygo":
            from logic import carddata

            path = cards_file or carddata.default_path()
            if path is None:
                raise InputError(f"the card list was not found: {cardstore.HINT}", "--text")
            records = carddata.load(Path(path))
        for c in sorted(chosen, key=lambda c: c.name):
            entry: dict[str, Any] = {"name": c.name, "type": c.card_type, "property": c.property,
                                     "origin": "library", "effects": [_effect_dict(e) for e in c.effects]}
            if c.unmodelled:
                entry["unmodelled"] = list(c.unmodelled)
            if records is not None:
                rec = records.get(c.name)
                entry["text"] = rec.text if rec else None
                if rec and c.text_sha256 and rec.sha256 != c.text_sha256:
                    entry["warning"] = "the official text changed since this entry was checked"
            out.append(entry)
        if json_out:
            typer.echo(json.dumps(out if not listed else {"matches": listed, "by": how}, indent=2, ensure_ascii=False))
            return 0
        if listed:
            typer.echo(f"{len(listed)} card(s) match {query!r} by {how}; name one to see it:")
            for n in listed[:_MAX_LISTED]:
                typer.echo("  " + n)
            if len(listed) > _MAX_LISTED:
                typer.echo(f"  … and {len(listed) - _MAX_LISTED} more")
            return 0
        for e in out:
            typer.echo(f"{e['name']}  [{e['type']}{' ' + e['property'] if e.get('property') else ''}]"
                       + ("  (read from its text: not hand-checked)" if e.get("origin") == "derived" else ""))
            if query is not None:
                if e.get("text"):
                    typer.echo("    text: " + e["text"])
                for i, eff in enumerate(e["effects"], 1):
                    status = f" [{eff.pop('status')}]" if "status" in eff else ""
                    typer.echo(f"    effect {i}{status}: "
                               + ", ".join(f"{k}={v}" for k, v in eff.items() if v not in (None, [], False, "")))
                if e.get("warning"):
                    typer.echo("    warning: " + e["warning"])
                for u in e.get("unmodelled", []):
                    typer.echo("    not modelled: " + u)
        typer.echo(f"{len(out)} card(s)")
        if query is None:
            for line in cardstore.status() or [f"no full card list installed: {cardstore.HINT}"]:
                typer.echo(line)
        return 0

    guarded(body)


_MAX_LISTED = 25


def _card_list_path(game: str, cards_file: Path | None) -> Path | None:
    if game == "mtg":
        from logic import mtg_cardlist

        return mtg_cardlist.list_path(cards_file) or mtg_cardlist.default_path()
    from logic import carddata
    from logic.mtg_cardlist import game_of

    if cards_file is not None and game_of(cards_file) != "mtg":
        return cards_file
    return carddata.default_path()


def _search_card_list(query: str, game: str, cards_file: Path | None) -> tuple[list[dict[str, Any]], list[str], str]:
    """Search the full card list: (cards to show, names to list, how they matched)."""
    import difflib

    path = _card_list_path(game, cards_file)
    if path is None:
        return [], [], ""
    if not Path(path).exists():
        raise InputError("the card list was not found", str(path))
    q = " ".join(query.lower().split())
    if game == "mtg":
        from logic import mtg_cardlist

        mlib = mtg_cardlist.load(Path(path))
        names = mlib.names()

        def text_of(n: str) -> str:
            d = mlib.entry(n) or {}
            return str(d.get("text") or d.get("oracle_text") or "")

        def show(n: str) -> dict[str, Any]:
            card = mlib.get(n)
            d = mlib.entry(n) or {}
            if card is None:
                raise InputError(f"{n} is in the card list but cannot be a card in a game here "
                                 f"({mlib.error(n) or 'not a card'})", "cards")
            return {"name": card.name, "type": card.card_type, "property": card.property, "origin": "derived",
                    "text": text_of(n), "effects": [_effect_dict(e) for e in card.effects],
                    "unmodelled": list(card.unmodelled) + [f"{card.name}, ability {i}: {u}"
                                                           for i, e in enumerate(card.effects, 1) for u in e.unmodelled],
                    "type_line": d.get("type_line")}
    else:
        from logic import carddata
        from logic.textreader import load_derived

        try:
            dlib = load_derived(Path(path))
        except (OSError, ValueError) as exc:
            raise InputError(f"cannot read the card list: {exc}", str(path)) from None
        recs = carddata.load(Path(path))
        names = dlib.names()

        def text_of(n: str) -> str:
            r = recs.get(n)
            return r.text if r is not None else ""

        def show(n: str) -> dict[str, Any]:
            dc = dlib.get(n)
            assert dc is not None
            effects = []
            for e, r in zip(dc.card.effects, dc.reports, strict=False):
                effects.append({"status": r.status} | _effect_dict(e))
            return {"name": dc.card.name, "type": dc.card.card_type, "property": dc.card.property,
                    "origin": "derived", "text": text_of(n), "effects": effects,
                    "unmodelled": dc.not_modelled(), "fully_modelled": dc.fully_modelled}
    lower = {n.lower(): n for n in names}
    if q in lower:
        return [show(lower[q])], [], "name"
    by_name = sorted(n for n in names if q in n.lower())
    if len(by_name) == 1:
        return [show(by_name[0])], [], "name"
    if by_name:
        return [], by_name, "name"
    close = difflib.get_close_matches(q, list(lower), n=5, cutoff=0.8)
    if len(close) == 1:
        return [show(lower[close[0]])], [], "a close spelling"
    if close:
        return [], [lower[c] for c in close], "a close spelling"
    words = q.split()
    by_text = sorted(n for n in names if all(w in text_of(n).lower() for w in words))
    if len(by_text) == 1:
        return [show(by_text[0])], [], "text"
    return [], by_text, "text"


def _effect_dict(e: Any) -> dict[str, Any]:
    return {
        "kind": e.kind, "speed": e.speed, "mandatory": e.mandatory, "from": list(e.zones),
        "conditions": [f"{n}({a})" if a else n for n, a in e.conditions], "cost": [f"{n}({a})" if a else n for n, a in e.costs],
        "target": dict(e.target) or None, "actions": list(e.actions), "trigger": list(e.triggers),
        "timing": e.timing, "duration": e.duration, "once_per_turn": e.once_per_turn, "summary": e.summary,
        "unmodelled": list(e.unmodelled),
    }


@app.command()
def chains(
    scenario: Annotated[Path, typer.Argument(help="a scenario file (YAML)")],
    after: Annotated[str | None, typer.Option("--after", help="an event phrase to play first")] = None,
    max_links: Annotated[int | None, typer.Option("--max-links", help="only chains of at most N links")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="stop after K chains")] = None,
    count: Annotated[bool, typer.Option("--count", help="only count them (fast: no chain is read)")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="one JSON object per chain and line, then a summary")] = False,
    dot: Annotated[Path | None, typer.Option("--dot", help="write the chain tree as Graphviz DOT")] = None,
    svg: Annotated[Path | None, typer.Option("--svg", help="draw the chain tree as SVG (needs Graphviz)")] = None,
    distinct_copies: Annotated[bool, typer.Option("--distinct-copies",
                                                  help="tell identical copies of a card apart")] = False,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", help="seconds before giving up (exit 3); 0: no limit")] = DEFAULT_TIME,
    no_outcomes: Annotated[bool, typer.Option("--no-outcomes", help="list the links only, without resolving "
                                              "the chains (much faster on large positions)")] = False,
) -> None:
    """List (or count, or draw) every legal chain from a position, grouped by outcome."""

    def body() -> int:
        from queries.render.chains import run_command

        check_time_option(time_limit, "--time-limit")
        for out_path, opt in ((dot, "--dot"), (svg, "--svg")):
            _check_output(out_path, opt)
        return run_command(str(scenario), after=after, max_links=max_links, limit=limit, count_only=count,
                           json_out=json_out, dot=str(dot) if dot else None, svg=str(svg) if svg else None,
                           distinct_copies=distinct_copies, time_limit=time_limit or None, echo=typer.echo,
                           progress=sys.stderr.isatty(), outcomes=not no_outcomes)

    guarded(body)


@app.command()
def check(
    game: Annotated[str, typer.Option("--game", help="ygo or mtg")] = "ygo",
    horizon: Annotated[int | None, typer.Option("--horizon", help="steps searched from every position "
                                                 "(default: 5)")] = None,
    cases_paths: Annotated[list[Path] | None, typer.Option(
        "--cases", help="a ruling-case corpus to run with blame and rule coverage; may be repeated")] = None,
    pool: Annotated[Path | None, typer.Option("--pool", help="the card pool positions are built from "
                                              "(card names, one a line; default: encodings/checks/pool-GAME.txt)")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False,
    rules: RulesOpt = None,
    encodings: Annotated[Path | None, typer.Option(
        "--encodings", help="check a modified copy of the rulebook (a directory like encodings/)")] = None,
    only: Annotated[list[str] | None, typer.Option("--only", help="run only this check (an id); may be repeated")] = None,
    no_induction: Annotated[bool, typer.Option("--no-induction", help="search to H only, no proofs beyond it")] = False,
    no_equivalence: Annotated[bool, typer.Option("--no-equivalence", help="skip the comparison of the "
                                                  "two end-of-phase formulations")] = False,
    no_coverage: Annotated[bool, typer.Option("--no-coverage", help="with --cases: skip rule coverage")] = False,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", help="seconds before giving up (exit 3); 0: no limit")] = None,
) -> None:
    """Check the rulebook: invariants, gaps and conflicts, corpus regression
    with blame, rule coverage, equivalence of two formulations; exit 1 if
    anything is violated."""

    def body() -> int:
        from queries.check.checker import DEFAULT_HORIZON, Checker, Options, to_text

        check_time_option(time_limit, "--time-limit")
        opts = Options(game=game, horizon=horizon if horizon is not None else DEFAULT_HORIZON,
                       cases=list(cases_paths or []), pool=pool, encodings=encodings, rules=list(rules or []),
                       only=tuple(only or ()), induction=not no_induction, equivalence=not no_equivalence,
                       coverage=not no_coverage, time_limit=time_limit or None)
        checker = Checker(opts)
        rep = checker.run()
        if json_out:
            typer.echo(json.dumps(rep.as_json(checker.book.rules), indent=2, ensure_ascii=False, default=str))
        else:
            typer.echo(to_text(rep, checker.book.rules))
        return EXIT_FAILED if rep.violations else 0

    guarded(body)


@app.command()
def serve(
    port: Annotated[int, typer.Option("--port", help="the port to listen on")] = 8000,
    host: Annotated[str, typer.Option("--host", help="the address to listen on (default: this computer only; "
                                      "0.0.0.0 opens the page to the network)")] = "127.0.0.1",
    cards_file: Annotated[Path | None, typer.Option("--cards", help="the full Yu-Gi-Oh! card list (JSON lines); "
                                                    "default: where 'chainjudge cards' finds it")] = None,
    mtg_cards: Annotated[Path | None, typer.Option("--mtg-cards", help="the Magic card list")] = None,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="seconds one question may take (503 after); 0: no limit")] = DEFAULT_TIME,
) -> None:
    """The web page for judges and its JSON API (docs/api.md), on http://HOST:PORT/."""

    def body() -> int:
        if not 0 < port < 65536:
            raise InputError(f"--port must be between 1 and 65535, not {port}", "--port")
        if time_limit < 0:
            raise InputError(f"--time-limit must be 0 (no limit) or more seconds, not {time_limit:g}")
        for f, opt in ((cards_file, "--cards"), (mtg_cards, "--mtg-cards")):
            if f is not None and not f.exists():
                raise InputError("the card list was not found", f"{opt} {f}")
        try:
            from queries.serve.app import run
        except ImportError as exc:
            raise InputError(f"the web page needs FastAPI and uvicorn ({exc.name} is missing): "
                             "pip install 'fastapi>=0.110' 'uvicorn>=0.29'", "serve") from None
        run(host=host, port=port, cards=cards_file, mtg_cards=mtg_cards, time_limit=time_limit or None)
        return 0

    guarded(body)


def main() -> None:
    try:
        app()
    except SystemExit as exc:
        if exc.code in (130, 143):
            # stopped by a signal in the middle of a search: leave at once, without
            # destroying clingo's objects (a solve thread still winding down would
            # abort the process, and the exit code would be lost)
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            os._exit(exc.code)
        raise
    except Exception as exc:  # noqa: BLE001
        print(f"chainjudge: internal error ({type(exc).__name__}: {exc})", file=sys.stderr)
        raise SystemExit(EXIT_INTERNAL) from None


if __name__ == "__main__":
    main()
