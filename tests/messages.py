"""The input corpus (tests/inputs/) and its golden transcripts (tests/golden/inputs/).

Every file under ``tests/inputs/{good,bad}/<kind>/`` is one run of the
command line, in process:

* ``scenario/NAME.yaml``  ``chainjudge ask NAME.yaml QUESTION`` (QUESTION from a
  ``# question: ...`` line at the top, else "who has priority now"; more
  options from a ``# args: ...`` line);
* ``question/NAME.txt``   ``chainjudge ask tests/inputs/base.yaml "<the file's text>"``;
* ``rules/NAME.lp``       ``chainjudge ask tests/inputs/base.yaml QUESTION --rules NAME.lp``
  (``% question: ...`` / ``% args: ...`` lines at the top);
* ``cases/NAME.yaml``     ``chainjudge cases NAME.yaml``;
* ``args/NAME.txt``       ``chainjudge <the file's text, split like a shell>``.

A bad input must exit 2 with one message (``chainjudge: error: ...``, which
may be followed by a caret line under the input); a good one must exit 0.
The transcript of each run -- the command, the exit code, the message (for a
good input: the question and the answer's first line) -- is kept in
``tests/golden/inputs/<good|bad>/<kind>/NAME.out``.

    python -m tests.messages            # compare; print a diff for each change
    python -m tests.messages --update   # re-record, then review with: git diff tests/golden/inputs
    python -m tests.messages --show NAME
    python -m tests.messages --cli .venv/bin/chainjudge NAME...   # through the installed command (CI)
"""

from __future__ import annotations

import contextlib
import difflib
import io
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ROOT / "tests" / "inputs"
GOLDEN = ROOT / "tests" / "golden" / "inputs"
BASE = "tests/inputs/base.yaml"
DEFAULT_QUESTION = "who has priority now"
RULES_QUESTION = "can A activate Mystical Space Typhoon now"
KINDS = {"scenario": ".yaml", "question": ".txt", "rules": ".lp", "cases": ".yaml", "args": ".txt"}


@dataclass(frozen=True)
class Case:
    side: str  # good | bad
    kind: str
    name: str
    path: Path

    @property
    def id(self) -> str:
        return f"{self.side}/{self.kind}/{self.name}"

    @property
    def golden(self) -> Path:
        return GOLDEN / self.side / self.kind / f"{self.name}.out"

    @property
    def rel(self) -> str:
        return self.path.relative_to(ROOT).as_posix()

    def argv(self) -> list[str]:
        if self.kind == "question":
            text = self.path.read_bytes().decode("utf-8", "surrogateescape")
            return ["ask", BASE, text.removesuffix("\n")]
        if self.kind == "args":
            return shlex.split(self.path.read_text(encoding="utf-8"))
        if self.kind == "cases":
            return ["cases", self.rel]
        header = _header(self.path, "#" if self.kind == "scenario" else "%")
        if self.kind == "scenario":
            question = header.get("question", DEFAULT_QUESTION)
            return ["ask", self.rel, question, *shlex.split(header.get("args", ""))]
        question = header.get("question", RULES_QUESTION)
        return ["ask", header.get("scenario", BASE), question, "--rules", self.rel,
                *shlex.split(header.get("args", ""))]


def _header(path: Path, mark: str) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        lines = path.read_bytes().decode("utf-8", "replace").splitlines()
    except OSError:
        return out
    for line in lines[:5]:
        if line.startswith(mark) and ":" in line:
            key, _, value = line[1:].strip().partition(":")
            if key in ("question", "args", "scenario"):
                out[key] = value.strip()
    return out


def cases() -> list[Case]:
    out = []
    for side in ("good", "bad"):
        for kind, ext in KINDS.items():
            folder = INPUTS / side / kind
            if folder.is_dir():
                for p in sorted(folder.iterdir()):
                    if p.name.endswith(ext):
                        out.append(Case(side, kind, p.name[: -len(ext)], p))
    return out


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Run the command line in this process: (exit code, stdout, stderr)."""
    from queries.cli import app

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            app(argv, prog_name="chainjudge", standalone_mode=True)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return code, out.getvalue(), err.getvalue()


def run_installed(exe: str, argv: list[str]) -> tuple[int, str, str]:
    """Run an installed ``chainjudge`` executable: (exit code, stdout, stderr)."""
    proc = subprocess.run([exe, *argv], capture_output=True, cwd=ROOT, timeout=600)
    return (proc.returncode, proc.stdout.decode("utf-8", "backslashreplace"),
            proc.stderr.decode("utf-8", "backslashreplace"))


def transcript(case: Case, exe: str | None = None) -> tuple[int, str, str, str]:
    """(exit code, stdout, stderr, the transcript kept as golden); in process,
    or through the installed executable ``exe``."""
    argv = case.argv()
    if exe is not None:
        code, out, err = run_installed(exe, argv)
    else:
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            code, out, err = run_cli(argv)
        finally:
            os.chdir(cwd)
    shown = " ".join(shlex.quote(_printable(a)) for a in argv)
    lines = [f"$ chainjudge {shown}", f"exit {code}"]
    if case.side == "good":
        lines += [ln for ln in out.splitlines() if ln.startswith(("Q: ", "A: "))][:2]
        if argv[0] == "cases":
            lines += out.splitlines()[-1:]
    lines += err.rstrip("\n").splitlines()
    return code, out, err, "\n".join(_printable(ln) for ln in lines) + "\n"


def _printable(s: str) -> str:
    """Transcripts are plain text: escape what a terminal would not show."""
    return "".join(ch if ch.isprintable() or ch in "\t" else f"\\u{ord(ch):04x}" for ch in s)


def main(argv: list[str]) -> int:
    update = "--update" in argv
    exe = None
    if "--cli" in argv:
        i = argv.index("--cli")
        exe = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    only = [a for a in argv if not a.startswith("--")]
    changed = 0
    selected = [c for c in cases() if not only or any(o in c.id for o in only)]
    for case in selected:
        _, _, _, text = transcript(case, exe)
        if "--show" in argv:
            print(text, end="")
            continue
        old = case.golden.read_text(encoding="utf-8") if case.golden.exists() else ""
        if old != text:
            changed += 1
            if update:
                case.golden.parent.mkdir(parents=True, exist_ok=True)
                case.golden.write_text(text, encoding="utf-8")
                print(f"recorded {case.golden.relative_to(ROOT)}")
            else:
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(keepends=True), text.splitlines(keepends=True),
                    str(case.golden.relative_to(ROOT)), "now"))
    known = {c.golden for c in cases()}
    stale = [p for p in GOLDEN.rglob("*.out") if p not in known] if not only else []
    for p in stale:
        if update:
            p.unlink()
            print(f"removed {p.relative_to(ROOT)} (its input is gone)")
        else:
            print(f"stale: {p.relative_to(ROOT)} (its input is gone)")
    if "--show" in argv:
        return 0
    print(f"{len(selected)} inputs, {changed} {'re-recorded' if update else 'differ'}"
          + (f", {len(stale)} stale" if stale else ""))
    return 0 if update or not (changed or stale) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
