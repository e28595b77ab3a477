"""Program transformations for the rulebook checker (queries/check.py).

Two rewrites of the encodings' syntax trees, both game-independent: they rely
only on the kernel's conventions (``#program step(t)`` for a transition, time
as the last argument, ``set(Key,Value,t)`` for a functional fluent's change,
every forbidding constraint guarded by ``rule(Id)``).

* :func:`decisions` -- for every rule ``set(K,V,t) :- Body.`` whose key K is
  one of the given constants, a companion ``decides(K,V,"file:line",t) :-
  Body.``: which rule decided the new value of the key.  Two companions with
  different values at one step are a conflict (two rules decide differently);
  none is a gap.

* :func:`lookahead` -- the ``#program lookahead(t)`` part: whether an event
  may happen at ``t``, asked for every event of the domain at once.  The rules
  that decide legality (every guarded constraint of the step part and the
  rules they depend on at ``t``) are copied with each atom of step ``t``
  renamed ``_la_<name>`` and given the event as a first argument; each
  constraint ``:- Body, rule(R).`` becomes ``_la_illegal(Ev,R,t) :- Body,
  rule(R).``.  ``_la_legal(t)`` holds when some event is legal.  Atoms of
  ``t-1`` are the real previous state, shared with the trace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from clingo import ast
from clingo.symbol import Function, String

_LOC = ast.Location(ast.Position("<check>", 1, 1), ast.Position("<check>", 1, 1))
_EV = "LaEv"
_PREFIX = "_la_"


@dataclass
class _Stm:
    file: str
    part: str
    param: str | None
    stm: ast.AST


def _parse(paths: Sequence[Path]) -> list[_Stm]:
    out: list[_Stm] = []
    for p in paths:
        from solver import sources

        stms = sources.parse(p)  # a file from outside: the text that was checked, not the file again
        part, param = "base", None
        for s in stms:
            if s.ast_type == ast.ASTType.Program:
                part = s.name
                param = s.parameters[0].name if s.parameters else None
                continue
            out.append(_Stm(str(p), part, param, s))
    return out


def _name(file: str, roots: Sequence[Path]) -> str:
    for r in roots:
        try:
            return str(Path(file).relative_to(r))
        except ValueError:
            continue
    return str(file)  # a file outside the rulebook (a user's rule file): its own path


def plain(paths: Sequence[Path]) -> list[ast.AST]:
    """The statements of the encoding files as written (without the
    ``applies`` companions of solver/program.py, which only explanations need
    and which are by far the largest part of a grounding over free positions).

    A rule of a ``step``/``state`` part that does not mention the step (a
    static helper such as ``_player_event(E) :- event(E), actor(E,_).``) is
    moved to ``base``: over free positions its body is no longer made of
    facts (the event domain depends on the chosen owners), and grounding it
    again at every step would redefine its atoms."""
    out: list[ast.AST] = []
    hoisted: list[ast.AST] = []
    current: tuple[str, str | None] | None = None
    for s in _parse(paths):
        stm = s.stm
        if s.part in ("step", "state") and s.param is not None and stm.ast_type == ast.ASTType.Rule \
                and not _is_constraint(stm) and _heads(stm) and not _mentions(stm, s.param):
            hoisted.append(stm)
            continue
        if current != (s.part, s.param):
            current = (s.part, s.param)
            out.append(ast.Program(_LOC, s.part, [ast.Id(_LOC, s.param)] if s.param else []))
        out.append(stm)
    return out + [ast.Program(_LOC, "base", [])] + hoisted


# ---------------------------------------------------------------- atoms


def _sym_atoms(node: ast.AST) -> list[ast.AST]:
    """Every symbolic atom's function term inside node (heads, bodies, aggregates)."""
    found: list[ast.AST] = []

    class _V(ast.Transformer):
        def visit_SymbolicAtom(self, a: ast.AST) -> ast.AST:  # noqa: N802 - clingo's visitor names
            if a.symbol.ast_type == ast.ASTType.Function:
                found.append(a.symbol)
            return a

    _V().visit(node)
    return found


def _is_param(term: ast.AST, param: str) -> bool:
    return (term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function"
            and term.symbol.name == param and not term.symbol.arguments) or \
           (term.ast_type == ast.ASTType.Function and term.name == param and not term.arguments)


def _time_of(fn: ast.AST, param: str) -> str:
    """'now' if the last argument is the step parameter, 'timeless' if the
    atom mentions no time, 'other' otherwise (t-1, a number ...)."""
    if not fn.arguments:
        return "timeless"
    last = fn.arguments[-1]
    if _is_param(last, param):
        return "now"
    if _mentions(fn, param):
        return "other"
    return "timeless"


def _mentions(node: ast.AST, param: str) -> bool:
    hit = [False]

    class _V(ast.Transformer):
        def visit_SymbolicTerm(self, term: ast.AST) -> ast.AST:  # noqa: N802
            if _is_param(term, param):
                hit[0] = True
            return term

        def visit_Function(self, term: ast.AST) -> ast.AST:  # noqa: N802
            if _is_param(term, param):
                hit[0] = True
                return term
            return term.update(**self.visit_children(term))

    _V().visit(node)
    return hit[0]


def _heads(stm: ast.AST) -> list[ast.AST]:
    """The atoms a rule defines (not the conditions of a choice's elements)."""
    if stm.ast_type != ast.ASTType.Rule:
        return []
    h = stm.head
    if h.ast_type == ast.ASTType.Literal:
        return _sym_atoms(h)
    if h.ast_type in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
        return [fn for e in h.elements for fn in _sym_atoms(e.literal)]
    if h.ast_type == ast.ASTType.HeadAggregate:
        return [fn for e in h.elements for fn in _sym_atoms(e.condition.literal)]
    return []


def _is_constraint(stm: ast.AST) -> bool:
    h = stm.head
    return (stm.ast_type == ast.ASTType.Rule and h.ast_type == ast.ASTType.Literal
            and h.atom.ast_type == ast.ASTType.BooleanConstant and not h.atom.value)


def _guard_of(stm: ast.AST) -> str | None:
    for lit in stm.body:
        if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign \
                and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
            fn = lit.atom.symbol
            if fn.ast_type == ast.ASTType.Function and fn.name == "rule" and len(fn.arguments) == 1:
                arg = fn.arguments[0]
                if arg.ast_type == ast.ASTType.SymbolicTerm:
                    return str(arg.symbol)
                return str(arg)
    return None


def _is_event_choice(stm: ast.AST) -> bool:
    h = stm.head
    if h.ast_type != ast.ASTType.Aggregate:
        return False
    return any(e.literal.atom.symbol.name == "occurs" for e in h.elements
               if e.literal.atom.ast_type == ast.ASTType.SymbolicAtom)


def _is_optional_choice(stm: ast.AST) -> bool:
    """A choice that may choose nothing (``{ a(X) : ... } 1 :- occurs(E,t), ...``):
    the details of an event (which creatures attack, which block).  In the
    look-ahead the solver would pick them against legality (attack with the
    opponent's creature, so "declare attackers" looks forbidden); leaving the
    rule out asks about the event with the empty choice instead, which is
    sound for dead ends: an event legal with nothing chosen is legal."""
    h = stm.head
    if h.ast_type != ast.ASTType.Aggregate:
        return False
    op = ast.ComparisonOperator
    lower = []  # guards that bound the count from below (clingo writes ``{a} 1`` as ``1 >= {a}``)
    if h.left_guard is not None and h.left_guard.comparison in (op.LessEqual, op.LessThan, op.Equal):
        lower.append(h.left_guard)
    if h.right_guard is not None and h.right_guard.comparison in (op.GreaterEqual, op.GreaterThan, op.Equal):
        lower.append(h.right_guard)
    for g in lower:
        t = g.term
        if not (t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type.name == "Number"
                and t.symbol.number <= 0 and g.comparison not in (op.LessThan, op.GreaterThan)):
            return False
    return True


# ---------------------------------------------------------------- decisions


def decisions(paths: Sequence[Path], keys: Iterable[str], roots: Sequence[Path] = ()) -> list[ast.AST]:
    """``decides(K,V,"file:line",t)`` companions of the step rules setting one of ``keys``."""
    wanted = set(keys)
    out: list[ast.AST] = [ast.Program(_LOC, "step", [ast.Id(_LOC, "t")])]
    for s in _parse(paths):
        if s.part != "step" or s.param is None or s.stm.ast_type != ast.ASTType.Rule:
            continue
        head = s.stm.head
        if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
            continue
        fn = head.atom.symbol
        if fn.ast_type != ast.ASTType.Function or fn.name != "set" or len(fn.arguments) != 3:
            continue
        key = fn.arguments[0]
        kname = key.symbol.name if key.ast_type == ast.ASTType.SymbolicTerm and key.symbol.type.name == "Function" \
            else getattr(key, "name", None)
        if kname not in wanted or not _is_param(fn.arguments[2], s.param):
            continue
        loc = f"{_name(s.file, roots)}:{s.stm.location.begin.line}"
        new_head = ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(
            _LOC, "decides", [key, fn.arguments[1], ast.SymbolicTerm(_LOC, String(loc)),
                              ast.SymbolicTerm(_LOC, Function("t", []))], False)))
        body = [_retime(b, s.param) for b in s.stm.body]
        out.append(ast.Rule(_LOC, new_head, body))
    return out


def _retime(node: ast.AST, param: str) -> ast.AST:
    """Rename the step parameter to ``t`` (the decisions part's parameter)."""
    if param == "t":
        return node

    class _T(ast.Transformer):
        def visit_SymbolicTerm(self, term: ast.AST) -> ast.AST:  # noqa: N802
            if _is_param(term, param):
                return term.update(symbol=Function("t", []))
            return term

    return _T().visit(node)


# ---------------------------------------------------------------- look-ahead


@dataclass
class Lookahead:
    statements: list[ast.AST]
    predicates: list[str] = field(default_factory=list)  # the step atoms copied (name/arity)
    rules: int = 0  # constraints turned into illegality


def lookahead(paths: Sequence[Path], exclude: Iterable[str] = ()) -> Lookahead:
    """The ``#program lookahead(t).`` part for the encodings in ``paths``.

    ``exclude`` lists guards (rule atoms) whose constraints are left out of the
    copy (the kernel's one-value rule, which would need the whole new state)."""
    skip = set(exclude)
    stms = [s for s in _parse(paths) if s.part == "step" and s.param is not None
            and s.stm.ast_type == ast.ASTType.Rule]
    defined: dict[tuple[str, int], list[_Stm]] = {}
    for s in stms:
        if _is_constraint(s.stm):
            continue
        for fn in _heads(s.stm):
            defined.setdefault((fn.name, len(fn.arguments)), []).append(s)
    needed: set[tuple[str, int]] = set()
    constraints = [s for s in stms if _is_constraint(s.stm) and _guard_of(s.stm) not in skip]

    def wants(stm: _Stm) -> list[tuple[str, int]]:
        out = []
        for fn in _sym_atoms(stm.stm):
            sig = (fn.name, len(fn.arguments))
            if sig in defined and _time_of(fn, stm.param or "t") == "now":
                out.append(sig)
        return out

    work = [sig for c in constraints for sig in wants(c)]
    while work:
        sig = work.pop()
        if sig in needed:
            continue
        needed.add(sig)
        for d in defined.get(sig, []):
            work.extend(wants(d))
    copied: list[ast.AST] = [ast.Program(_LOC, "lookahead", [ast.Id(_LOC, "t")])]
    seen: set[int] = set()
    for sig in sorted(needed):
        for d in defined.get(sig, []):
            if id(d) in seen:
                continue
            seen.add(id(d))
            if _is_event_choice(d.stm) or _is_optional_choice(d.stm):
                continue
            copied.append(_rename_rule(d, needed))
    for c in constraints:
        copied.append(_rename_rule(c, needed, illegal=_guard_of(c.stm)))
    copied += _glue()
    return Lookahead(copied, sorted(f"{n}/{a}" for n, a in needed), len(constraints))


def _rename_rule(s: _Stm, needed: set[tuple[str, int]], illegal: str | None = None) -> ast.AST:
    param = s.param or "t"
    uses_now = [False]

    class _R(ast.Transformer):
        def visit_SymbolicAtom(self, a: ast.AST) -> ast.AST:  # noqa: N802
            fn = a.symbol
            if fn.ast_type != ast.ASTType.Function or (fn.name, len(fn.arguments)) not in needed:
                return a
            when = _time_of(fn, param)
            if when == "now":
                uses_now[0] = True
                args = [ast.Variable(_LOC, _EV)] + list(fn.arguments)
                return a.update(symbol=fn.update(name=_PREFIX + fn.name.lstrip("_"), arguments=args))
            return a  # timeless atoms (and those of t-1) are the trace's own

    stm = _retime(s.stm, param)
    stm = _R().visit(stm)
    body = list(stm.body)
    if illegal is not None:
        uses_now[0] = True
        head = ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(
            _LOC, "_la_illegal", [ast.Variable(_LOC, _EV), ast.SymbolicTerm(_LOC, Function(illegal, [])),
                                  ast.SymbolicTerm(_LOC, Function("t", []))], False)))
        stm = stm.update(head=head)
    if uses_now[0]:
        body.append(_lit("_la_ev", [ast.Variable(_LOC, _EV), ast.SymbolicTerm(_LOC, Function("t", []))]))
    return stm.update(body=body)


def _lit(name: str, args: list[ast.AST]) -> ast.AST:
    return ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(ast.Function(_LOC, name, args, False)))


def _glue() -> list[ast.AST]:
    out: list[ast.AST] = []
    ast.parse_string(
        "#program lookahead(t)."
        "_la_ev(E,t) :- event(E)."
        "_la_occurs(E,E,t) :- _la_ev(E,t)."
        "_la_bad(E,t) :- _la_illegal(E,_,t)."
        "_la_legal(t) :- _la_ev(E,t), not _la_bad(E,t).",
        out.append,
    )
    return out[1:]
