"""Static checks of declared values that the schema cannot express: mistakes that would load and then
fail (or silently misbehave) in every game.

- An option's `default` must be one of its `values` (compared with their types: `no` is a string, not
  false; `1` is not `true`), and all its values must be of one type.
- Every integer a definition writes (a table entry, an init, a property, a count) is within ±2**53, the
  limit every value of a game keeps.
"""

from __future__ import annotations

from .problems import did_you_mean


def same_value(a, b) -> bool:
    """Equal and of the same type (`True` is not `1`, `"1"` is not `1`)."""
    return type(a) is type(b) and a == b


def _type_name(v) -> str:
    return {bool: "true/false", int: "a number", str: "text", type(None): "none", list: "a list",
            dict: "a mapping"}.get(type(v), type(v).__name__)


def option_problems(options: dict) -> list[tuple[str, tuple, str | None]]:
    """(message, path, hint) for every option whose default or values are inconsistent."""
    out = []
    for name, spec in options.items():
        values = spec.get("values")
        if not isinstance(values, list) or not values:
            continue
        kinds = {type(v) for v in values}
        if len(kinds) > 1:
            out.append((f"option {name}: its values mix " + " and ".join(sorted(map(_type_name, values[:1] + [
                next(v for v in values if type(v) is not type(values[0]))]))), ("options", name, "values"), None))
        if "default" in spec:
            d = spec["default"]
            if not any(same_value(d, v) for v in values):
                hint = None
                if isinstance(d, str) and d.lower() in ("no", "off", "yes", "on", "n", "y"):
                    hint = "write false or true (`no` and `yes` are text)"
                else:
                    hint = did_you_mean(str(d), [str(v) for v in values])
                out.append((f"option {name}: default {d!r} ({_type_name(d)}) is not one of its values "
                            f"{values}", ("options", name, "default"), hint))
    return out


def _unwrap(v, path):
    if isinstance(v, dict) and "value" in v and set(v) <= {"value", "source", "provisional", "label", "note"}:
        return v["value"], path + ("value",)
    return v, path


def table_problems(tables: dict) -> list[tuple[str, tuple]]:
    """(message, path) for a table whose entries mix numbers, true/false and text (`four` among numbers):
    a rule reading it would work for some entries and fail for the others. The odd entry is named."""
    out = []
    for name, raw in tables.items():
        v, path = _unwrap(raw, ("tables", name))
        if isinstance(v, dict) and set(v) == {"by_players"} and isinstance(v["by_players"], dict):
            v, path = v["by_players"], path + ("by_players",)
        items = list(v.items()) if isinstance(v, dict) else list(enumerate(v)) if isinstance(v, list) else []
        scalars = []
        for k, x in items:
            x, p = _unwrap(x, path + (k,))
            if x is not None:
                scalars.append((p, x))
        types = [type(x) for _, x in scalars]
        if len(set(types)) < 2:
            continue
        usual = max(set(types), key=types.count)
        for p, x in scalars:
            if type(x) is not usual:
                out.append((f"table {name}: {x!r} is {_type_name(x)}, but its other entries are "
                            f"{_type_name(usual())}", p))
    return out


def check_uncalled_defs(world) -> None:
    """Compile each def that no rule calls, its parameters of any type, so that a mistake in it (an unknown
    name, a wrong function) is reported now rather than when a later change first calls it. The result is
    thrown away; problems go to the world's list, located in the def's body."""
    import re

    from ..language.compiler import CompileError, Scope, Unit
    if world.problems:  # a def may be uncalled only because its caller failed: judge a clean game only
        return
    called = {n for kind, n in world.reads if kind == "def"}
    reads, writes = set(world.reads), set(world.writes)  # what the rules use is not changed by checking
    keys = {str(k).split("(", 1)[0].strip(): k for k in world.d["defs"]}
    for name, (params, tree, _where) in list(world.defs.items()):
        if name in called or name not in keys:
            continue
        unit = Unit(player=True, effects=True)  # as permissive as the most permissive caller
        scope = Scope(unit)
        for p in params:
            scope.bind(p, "any")
        world.compiler.def_stack.append(name)
        try:
            world.compiler.expr(tree, scope)
        except CompileError as ex:
            if re.search(r"\bany\b", ex.message):  # about a parameter's unknown type: only a call can tell
                continue
            world.error(f"in def '{name}' (called by no rule): {ex.message}", ("defs", keys[name]), ex.hint,
                        line=ex.line, col=ex.col)
        except (RecursionError, SyntaxError):
            world.error(f"def '{name}' is too deep to compile: the nesting limit", ("defs", keys[name]))
        finally:
            world.compiler.def_stack.pop()
    world.reads.clear()
    world.reads.update(reads)
    world.writes.clear()
    world.writes.update(writes)


INT_LIMIT = 2 ** 53


def integer_problems(sections: dict) -> list[tuple[str, tuple]]:
    """(message, path) for every integer written in the definition beyond ±2**53 (the rules could never
    compute with it: found here, where it is written, instead of in the first game that reads it)."""
    out: list = []
    todo = [((name,), body) for name, body in sections.items()]
    while todo:
        path, v = todo.pop()
        if isinstance(v, dict):
            todo.extend((path + (k,), x) for k, x in v.items())
        elif isinstance(v, list):
            todo.extend((path + (i,), x) for i, x in enumerate(v))
        elif type(v) is int and not -INT_LIMIT <= v <= INT_LIMIT:
            out.append((f"integer {v} is beyond the limit of ±2**53", path))
    return sorted(out, key=lambda p: [str(x) for x in p[1]])
