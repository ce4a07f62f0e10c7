"""Generated source made cheaper to run before it is compiled: the same meaning, fewer interpreter steps.

The compiler writes a rule as Python expressions (`codegen.Pool`). Two shapes it writes cost more than
they need to, and `optimized(src)` rewrites them (the first in the text, the second in the syntax tree):

- `K[i]`, a constant of the pool, becomes the global name `K_i`, bound when the function is made: one
  load instead of a load, a constant and a subscript (inside a comprehension, a free variable's load
  too). The pool only grows (`Pool.ref` appends), so a function's constants never change after it is
  made. Only real subscripts of the name `K` are rewritten, never text inside a string.
- A function whose body returns `e.__setitem__(i, X) or ... or (BODY)` (a def's arguments bound to
  environment slots before its body, see `Calls.inline_def`) assigns `e[i] = X` in order and returns
  BODY: `__setitem__` returns None, so the chain evaluates the same operands in the same order, and a
  store costs a fraction of a method call.
"""
from __future__ import annotations

import ast
import re


def constant_name(i: int) -> str:
    """The global name a function made by the pool reads for `K[i]`."""
    return f"K_{i}"


def constants_read(code) -> tuple[int, ...]:
    """The pool indices a compiled function (and the comprehensions inside it) reads as globals."""
    found: set[int] = set()
    todo = [code]
    while todo:
        c = todo.pop()
        for name in c.co_names:
            if name.startswith("K_") and name[2:].isdigit():
                found.add(int(name[2:]))
        todo.extend(k for k in c.co_consts if hasattr(k, "co_names"))
    return tuple(sorted(found))


class _Unchain(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        body = []
        for stmt in node.body:
            body.extend(_unchained(stmt) if isinstance(stmt, ast.Return) else [stmt])
        node.body = body
        return node


def _slot_store(v):
    """(slot, value) when v is `e.__setitem__(slot, value)`, else None."""
    if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "__setitem__"
            and isinstance(v.func.value, ast.Name) and v.func.value.id == "e" and len(v.args) == 2
            and not v.keywords and isinstance(v.args[0], ast.Constant) and type(v.args[0].value) is int):
        return v.args
    return None


def _unchained(ret: ast.Return) -> list:
    """`return e.__setitem__(i, X) or ... or REST` as `e[i] = X` ...; `return REST`."""
    v = ret.value
    if not isinstance(v, ast.BoolOp) or not isinstance(v.op, ast.Or):
        return [ret]
    stmts = []
    values = list(v.values)
    while len(values) > 1 and (store := _slot_store(values[0])) is not None:
        values.pop(0)
        target = ast.Subscript(ast.Name("e", ast.Load()), store[0], ast.Store())
        stmts.append(ast.copy_location(ast.Assign([target], store[1]), ret))
        if len(values) == 1 and isinstance(values[0], ast.BoolOp) and isinstance(values[0].op, ast.Or):
            values = list(values[0].values)  # a nested chain (a def inside a def's body): same order
    rest = values[0] if len(values) == 1 else ast.BoolOp(ast.Or(), values)
    stmts.append(ast.copy_location(ast.Return(rest), ret))
    return stmts


QUOTED = r"'(?:[^'\\\n]|\\.)*'" + "|" + r'"(?:[^"\\\n]|\\.)*"'  # a string literal as repr() writes it
_CONSTANT = re.compile(f"({QUOTED})|\\bK\\[(\\d+)\\]")  # a string literal (left as it is), or a constant K[i]


def _constant(m) -> str:
    return m.group(1) or constant_name(int(m.group(2)))


def optimized(src: str):
    """`src` (the source of one generated function) rewritten as the module doc says, ready for compile():
    text, or the syntax tree where a chain of slot stores is unchained."""
    src = _CONSTANT.sub(_constant, src)
    if "return (e.__setitem__(" not in src:
        return src
    tree = _Unchain().visit(ast.parse(src))
    return ast.fix_missing_locations(tree)
