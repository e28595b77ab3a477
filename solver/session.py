"""A clingo control wrapped for chainjudge: load, ground by parts, solve under
assumptions, enumerate or count, unsat cores minimised by deletion, limits.

>>> from solver.terms import atom
>>> s = Session()
>>> s.add_text("base", [], "{ a; b }. :- a, b, r. #external r. [free] #show a/0. #show b/0.")
>>> s.ground([("base", [])])
>>> sorted(len(m) for m in s.solve(models=0).models)   # r is free: both ways
[0, 0, 1, 1, 1, 1, 2]
>>> out = s.solve(assumptions=[(atom("r"), True), (atom("a"), True), (atom("b"), True)])
>>> out.satisfiable, sorted(str(x) for x in out.core)
(False, ['a', 'b', 'r'])
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo
from clingo import ast

from solver.errors import LimitReached, ProgramError
from solver.safety import check_environment

Assumption = tuple[clingo.Symbol, bool]


def clean_message(message: str) -> str:
    """One line from a clingo message: 'FILE:L:C-C: error: unsafe variables in: p(X) :- q. ('X' is unsafe)'."""
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    if not lines:
        return ""
    head, rest = lines[0], lines[1:]
    notes = [re.sub(r"^\S+:\d+:\d+(-\d+)?:\s*note:\s*", "", ln) for ln in rest if ": note:" in ln]
    body = [ln for ln in rest if ": note:" not in ln]
    text = " ".join([head, *body]).replace("[#inc_base];", "").replace("[#inc_base]", "")
    text = re.sub(r":-\s*;", ":-", text)
    if notes:
        text += f" ({'; '.join(notes)})"
    return text

Part = tuple[str, Sequence[clingo.Symbol | int]]


@dataclass
class Stats:
    """Accumulated statistics of one session."""

    ground_ms: float = 0.0
    solve_ms: float = 0.0
    models: int = 0
    solves: int = 0
    atoms: int = 0
    rules: int = 0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "ground_ms": round(self.ground_ms, 1),
            "solve_ms": round(self.solve_ms, 1),
            "models": self.models,
            "solves": self.solves,
            "atoms": self.atoms,
            "rules": self.rules,
        }


@dataclass
class Outcome:
    """The result of one solve call."""

    satisfiable: bool
    models: list[list[clingo.Symbol]] = field(default_factory=list)
    core: list[clingo.Symbol] = field(default_factory=list)
    count: int = 0
    exhausted: bool = True


class Session:
    """One clingo control, ground incrementally, solved many times."""

    def __init__(
        self,
        consts: dict[str, int | str] | None = None,
        time_limit: float | None = None,
        model_limit: int | None = None,
    ) -> None:
        check_environment()  # no script language may be registered (solver/safety.py)
        args = ["--warn=none", "--opt-mode=ignore", "-t", "1"]
        for name, value in (consts or {}).items():
            args.append(f"-c{name}={value}")
        self._messages: list[str] = []
        self._ctl = clingo.Control(args, logger=self._log, message_limit=20)
        self.stats = Stats()
        self._deadline = time.monotonic() + time_limit if time_limit else None
        self._literals: dict[clingo.Symbol, int] = {}
        self._standing: list[int] = []
        self.time_limit = time_limit
        self.model_limit = model_limit
        self._false_lit: int | None = None

    # ---------------------------------------------------------------- loading
    def _log(self, code: clingo.MessageCode, message: str) -> None:
        self._messages.append(clean_message(message))

    def load(self, path: Path | str) -> None:
        """Load one of our own encoding files (trusted text)."""
        try:
            self._ctl.load(str(path))
        except RuntimeError as exc:
            raise ProgramError("; ".join(self._messages) or str(exc), str(path)) from None

    def load_encodings(self, paths: Sequence[Path], companions: bool = True) -> None:
        """Load our encoding files through the syntax tree, with (or without)
        the rules' ``applies`` companions (solver/program.py)."""
        from solver.program import statements

        try:
            self.add_statements(statements(paths, companions), "encodings")
        except RuntimeError as exc:
            raise ProgramError("; ".join(self._messages) or str(exc), "encodings") from None

    def add_text(self, part: str, params: Sequence[str], text: str) -> None:
        """Add trusted program text (our own encodings only, never user strings)."""
        try:
            self._ctl.add(part, list(params), text)
        except RuntimeError as exc:
            raise ProgramError("; ".join(self._messages) or str(exc), part) from None

    def add_facts(self, facts: Iterable[clingo.Symbol], part: str = "base") -> None:
        """Add ground facts as syntax-tree statements built from symbols."""
        loc = ast.Location(ast.Position("<facts>", 1, 1), ast.Position("<facts>", 1, 1))
        with ast.ProgramBuilder(self._ctl) as builder:
            builder.add(ast.Program(loc, part, []))
            for sym in facts:
                head = ast.Literal(loc, ast.Sign.NoSign, ast.SymbolicAtom(ast.SymbolicTerm(loc, sym)))
                builder.add(ast.Rule(loc, head, []))

    def add_statements(self, statements: Iterable[ast.AST], where: str = "rules") -> None:
        """Add already checked syntax-tree statements (user rule files: see
        :func:`solver.userrules.check_program`)."""
        try:
            with ast.ProgramBuilder(self._ctl) as builder:
                for stm in statements:
                    builder.add(stm)
        except RuntimeError as exc:
            raise ProgramError("; ".join(self._messages) or str(exc), where) from None

    # ---------------------------------------------------------------- grounding
    def ground(self, parts: Sequence[Part]) -> None:
        self._check_time("grounding")
        norm = [(name, [clingo.Number(a) if isinstance(a, int) else a for a in args]) for name, args in parts]
        start = time.perf_counter()
        try:
            self._ctl.ground(norm)
        except RuntimeError as exc:
            raise ProgramError("; ".join(self._messages) or str(exc), "grounding") from None
        self.stats.ground_ms += (time.perf_counter() - start) * 1000

    def _refresh_size(self) -> None:
        st = self._ctl.statistics
        try:
            lp = st["problem"]["lp"]
            self.stats.atoms = int(lp["atoms"])
            self.stats.rules = int(lp["rules"])
        except (KeyError, TypeError, RuntimeError):
            pass

    def assign_external(self, sym: clingo.Symbol | int, value: bool | None) -> None:
        self._ctl.assign_external(sym, value)  # None leaves it open (free)

    def release_external(self, sym: clingo.Symbol) -> None:
        self._ctl.release_external(sym)

    def has_atom(self, sym: clingo.Symbol) -> bool:
        return self._ctl.symbolic_atoms[sym] is not None

    def literals_of(self, name: str, arity: int) -> list[tuple[clingo.Symbol, int]]:
        """The atoms of a predicate with their program literals (an external
        is assigned fastest by its literal)."""
        return [(a.symbol, a.literal) for a in self._ctl.symbolic_atoms.by_signature(name, arity)]

    def atoms_of(self, name: str, arity: int) -> list[clingo.Symbol]:
        return [a.symbol for a in self._ctl.symbolic_atoms.by_signature(name, arity)]

    # ---------------------------------------------------------------- solving
    def _check_time(self, what: str) -> None:
        if self._deadline is not None and time.monotonic() > self._deadline:
            raise LimitReached("time", self.time_limit or 0, f"stopped before {what}")

    def solve(
        self,
        assumptions: Sequence[Assumption] = (),
        models: int = 1,
        on_model: Callable[[list[clingo.Symbol]], bool | None] | None = None,
        count_only: bool = False,
        project: bool = False,
        budget: float | None = None,
        conflicts: int | None = None,
    ) -> Outcome:
        """Solve under assumptions.

        ``models`` = 0 enumerates all.  With ``count_only`` models are counted,
        not read.  ``on_model`` may return False to stop.  On unsat the core
        (a subset of the assumption atoms) is returned.
        """
        self._check_time("solving")
        conf = self._ctl.configuration
        conf.solve.models = str(models)  # type: ignore[union-attr]
        conf.solve.project = "project" if project else "no"  # type: ignore[union-attr]
        # a deterministic budget: stop after so many conflicts (the result is then unknown)
        conf.solve.solve_limit = str(conflicts) if conflicts else "umax,umax"  # type: ignore[union-attr]
        out = Outcome(satisfiable=False)
        lits = self._assumption_literals(assumptions)
        start = time.perf_counter()
        core_lits: list[int] = []

        def _on_core(core: Sequence[int]) -> None:
            core_lits.extend(core)

        stopped = False
        stop_at = self._deadline
        if budget is not None:
            own = time.monotonic() + budget
            stop_at = own if stop_at is None else min(stop_at, own)
        try:
            with self._ctl.solve(assumptions=lits, on_core=_on_core, yield_=True, async_=True) as handle:
                while True:
                    handle.resume()
                    if stop_at is not None:
                        timeout = max(0.0, stop_at - time.monotonic())
                        if not handle.wait(timeout):
                            handle.cancel()
                            if budget is not None and (self._deadline is None or stop_at < self._deadline):
                                raise LimitReached("budget", budget, self._partial(out))
                            raise LimitReached("time", self.time_limit or 0, self._partial(out))
                    model = handle.model()
                    if model is None:
                        break
                    out.satisfiable = True
                    out.count += 1
                    self.stats.models += 1
                    if not count_only:
                        syms = list(model.symbols(shown=True))
                        out.models.append(syms)
                        if on_model is not None and on_model(syms) is False:
                            stopped = True
                            break
                    if self.model_limit is not None and out.count >= self.model_limit \
                            and (models == 0 or models > self.model_limit):
                        handle.resume()  # the limit is hit only if there is one more model
                        if stop_at is None:
                            handle.wait()
                        elif not handle.wait(max(0.0, stop_at - time.monotonic())):
                            handle.cancel()
                            raise LimitReached("time", self.time_limit or 0, self._partial(out))
                        if handle.model() is None:
                            break
                        handle.cancel()
                        raise LimitReached("models", self.model_limit, self._partial(out))
                result = handle.get() if not stopped else None
                if result is not None and result.unsatisfiable and not core_lits:
                    core_lits.extend(handle.core())
        finally:
            self.stats.solve_ms += (time.perf_counter() - start) * 1000
            self.stats.solves += 1
        if result is not None:
            if conflicts and result.unknown and not out.satisfiable:
                raise LimitReached("conflicts", conflicts, "the search was stopped after its conflict budget")
            out.satisfiable = bool(result.satisfiable)
            out.exhausted = bool(result.exhausted)
            if result.unsatisfiable:
                out.core = self._core_symbols(core_lits, assumptions)
        else:
            out.exhausted = False
        return out

    @staticmethod
    def _partial(out: Outcome) -> str:
        if out.count:
            return f"{out.count} model(s) found before stopping"
        return "no model found before stopping"

    def set_standing(self, assumptions: Sequence[Assumption]) -> None:
        """Assumptions made in every later solve of this session (e.g. the
        rule switches), translated to literals once."""
        self._standing = []
        self._standing = self._assumption_literals(assumptions)

    def _assumption_literals(self, assumptions: Sequence[Assumption]) -> list[int]:
        lits: list[int] = list(self._standing)
        known = self._literals
        for sym, value in assumptions:
            lit = known.get(sym)
            if lit is None:
                sa = self._ctl.symbolic_atoms[sym]
                if sa is None:
                    # an atom that does not exist is false: assuming it true is unsat
                    if value:
                        lits.append(self._false_literal())
                    continue
                lit = known[sym] = sa.literal  # an atom's literal never changes once it exists
            lits.append(lit if value else -lit)
        return lits

    def _false_literal(self) -> int:
        """A literal that is false in every model (made so by an integrity
        constraint: a fresh atom alone is not reliably false once the
        program has been grounded in several steps).  The atom is named, so
        that later groundings know it and never take its number for another
        atom (an unnamed one was "redefined" by the next ground call)."""
        if self._false_lit is None:
            with self._ctl.backend() as backend:
                lit = backend.add_atom(clingo.Function("__chainjudge_false"))
                backend.add_rule([], [lit])
            self._false_lit = lit
        return self._false_lit

    def _core_symbols(self, core: Sequence[int], assumptions: Sequence[Assumption]) -> list[clingo.Symbol]:
        by_lit: dict[int, clingo.Symbol] = {}
        for sym, value in assumptions:
            sa = self._ctl.symbolic_atoms[sym]
            if sa is not None:
                by_lit[sa.literal if value else -sa.literal] = sym
        return [by_lit[lit] for lit in core if lit in by_lit]

    def count(self, assumptions: Sequence[Assumption] = (), project: bool = False) -> int:
        """The number of models (projected onto the #project atoms with
        ``project``), counted inside the solver: no model is read into Python."""
        self._check_time("counting")
        conf = self._ctl.configuration
        conf.solve.models = "0"  # type: ignore[union-attr]
        conf.solve.project = "project" if project else "no"  # type: ignore[union-attr]
        lits = self._assumption_literals(assumptions)
        start = time.perf_counter()
        try:
            with self._ctl.solve(assumptions=lits, async_=True) as handle:
                if self._deadline is not None:
                    if not handle.wait(max(0.0, self._deadline - time.monotonic())):
                        handle.cancel()
                        found = self._enumerated()
                        raise LimitReached("time", self.time_limit or 0,
                                           f"{found} model(s) counted before stopping")
                handle.get()
        finally:
            self.stats.solve_ms += (time.perf_counter() - start) * 1000
            self.stats.solves += 1
        n = self._enumerated()
        self.stats.models += n
        self._refresh_size()
        return n

    def _enumerated(self) -> int:
        try:
            return int(self._ctl.statistics["summary"]["models"]["enumerated"])
        except (KeyError, TypeError, RuntimeError):
            return 0

    def iter_models(
        self,
        assumptions: Sequence[Assumption] = (),
        project: bool = False,
        literals: Sequence[int] = (),
    ) -> Iterator[list[clingo.Symbol]]:
        """Stream the models (their shown atoms) one at a time, as the solver
        finds them; the caller may stop at any time.  The search runs in this
        thread (an asynchronous handle costs a thread hand-over per model); at
        the time limit a timer interrupts it."""
        self._check_time("solving")
        conf = self._ctl.configuration
        conf.solve.models = "0"  # type: ignore[union-attr]
        conf.solve.project = "project" if project else "no"  # type: ignore[union-attr]
        conf.solve.solve_limit = "umax,umax"  # type: ignore[union-attr]
        lits = self._assumption_literals(assumptions)
        lits.extend(literals)  # program literals assumed as they are (true if positive)
        start = time.perf_counter()
        count = 0
        timer: threading.Timer | None = None
        if self._deadline is not None:
            timer = threading.Timer(max(0.0, self._deadline - time.monotonic()), self._ctl.interrupt)
            timer.daemon = True
            timer.start()
        try:
            with self._ctl.solve(assumptions=lits, yield_=True) as handle:
                interrupted = False
                for model in handle:
                    count += 1
                    yield model.symbols(shown=True)
                    if self._deadline is not None and time.monotonic() > self._deadline:
                        interrupted = True
                        break
                if not interrupted and self._deadline is not None and time.monotonic() > self._deadline:
                    interrupted = not handle.get().exhausted  # the timer stopped the search
            if interrupted:
                raise LimitReached("time", self.time_limit or 0, f"{count} model(s) found before stopping")
        finally:
            if timer is not None:
                timer.cancel()
            self.stats.solve_ms += (time.perf_counter() - start) * 1000
            self.stats.solves += 1
            self.stats.models += count

    def model_ids(self, literals: Sequence[int]) -> Iterator[list[int]]:
        """Every model under the program literals ``literals``, each as the
        ids of its shown symbols (solver.terms.symbol_id): the fast path of a
        search that solves many small problems (queries/chainstates.py).  The
        time limit is checked before the solve."""
        self._check_time("solving")
        conf = self._ctl.configuration
        conf.solve.models = "0"  # type: ignore[union-attr]
        conf.solve.project = "no"  # type: ignore[union-attr]
        lits = list(self._standing)
        lits.extend(literals)
        start = time.perf_counter()
        count = 0
        try:
            with self._ctl.solve(assumptions=lits, yield_=True) as handle:
                for model in handle:
                    count += 1
                    yield [s._rep for s in model.symbols(shown=True)]
        finally:
            self.stats.solve_ms += (time.perf_counter() - start) * 1000
            self.stats.solves += 1
            self.stats.models += count

    def brave(self, assumptions: Sequence[Assumption] = ()) -> list[clingo.Symbol] | None:
        """The shown atoms true in some model (brave consequences), or None if
        there is no model."""
        self._check_time("solving")
        conf = self._ctl.configuration
        conf.solve.models = "0"  # type: ignore[union-attr]
        conf.solve.project = "no"  # type: ignore[union-attr]
        conf.solve.enum_mode = "brave"  # type: ignore[union-attr]
        last: list[clingo.Symbol] | None = None
        start = time.perf_counter()
        try:
            with self._ctl.solve(assumptions=self._assumption_literals(assumptions), yield_=True) as handle:
                for model in handle:
                    last = list(model.symbols(shown=True))
        finally:
            conf.solve.enum_mode = "auto"  # type: ignore[union-attr]
            self.stats.solve_ms += (time.perf_counter() - start) * 1000
            self.stats.solves += 1
        return last

    def set_heuristic(self, name: str) -> None:
        """Choose the solver's decision heuristic (e.g. ``Domain`` to follow
        the program's #heuristic statements)."""
        self._ctl.configuration.solver.heuristic = name  # type: ignore[union-attr]

    def size(self) -> tuple[int, int]:
        """The ground program's size (atoms, rules) as the solver sees it."""
        self._refresh_size()
        return self.stats.atoms, self.stats.rules

    def minimal_core(
        self,
        fixed: Sequence[Assumption],
        candidates: Sequence[clingo.Symbol],
    ) -> list[clingo.Symbol] | None:
        """A subset-minimal set of ``candidates`` (assumed true) that, with
        ``fixed``, is unsatisfiable; None if all of them together are satisfiable.

        Starts from the solver's core and removes one element at a time
        (deletion-based minimisation).
        """
        out = self.solve(list(fixed) + [(c, True) for c in candidates], models=1)
        if out.satisfiable:
            return None
        cand_set = set(candidates)
        core = [c for c in out.core if c in cand_set]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            res = self.solve(list(fixed) + [(c, True) for c in trial] + [(c, False) for c in candidates if c not in trial], models=1)
            if res.satisfiable:
                i += 1
            else:
                shrunk = [c for c in res.core if c in set(trial)]
                core = shrunk if len(shrunk) < len(trial) else trial
        return core
