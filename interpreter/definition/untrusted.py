"""Reading what a user hands the tool besides a definition: records (replay files), saved states and
`--option` values. Every reader is capped in size, nesting and number size, and fails only with
`InputError` (a `DefinitionError`: located problems), whatever the bytes.

Limits (also in the README):
- a record or saved-state file: at most `MAX_RECORD_BYTES`, JSON nested at most `MAX_JSON_DEPTH` levels,
  integers of at most `MAX_INT_DIGITS` digits, at most `MAX_RECORD_ITEMS` actions;
- an `--option` value: at most `MAX_OPTION_BYTES`, read by the definition's hardened YAML loader.
"""

from __future__ import annotations

import json

from .files import read_regular
from .loader import Limits, load_yaml_text
from .problems import DefinitionError, InputError, Location, Problem

MAX_RECORD_BYTES = 4 * 1024 * 1024
MAX_RECORD_ITEMS = 100_000
MAX_JSON_DEPTH = 64
MAX_INT_DIGITS = 30
MAX_OPTION_BYTES = 1024
OPTION_LIMITS = Limits(max_bytes=MAX_OPTION_BYTES, max_depth=8, max_aliases=0, max_alias_nodes=0,
                       max_values=100)


def _fail(file: str, message: str, line: int = 0, col: int = 0, hint: str | None = None):
    return InputError(Problem(message, Location(file, line, col), hint))


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _check_depth(text: str, file: str, max_depth: int) -> None:
    """Refuse JSON nested deeper than `max_depth` before the parser recurses into it (linear scan)."""
    depth, in_string, escaped = 0, False, False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > max_depth:
                raise _fail(file, f"JSON nested too deep: more than {max_depth} levels", *_line_col(text, i))
        elif c in "]}":
            depth -= 1


def parse_json(text: str, file: str, max_depth: int = MAX_JSON_DEPTH, max_int_digits: int = MAX_INT_DIGITS):
    """JSON text as plain data; InputError at file:line:col for bad JSON, deep nesting, huge numbers,
    NaN/Infinity."""
    _check_depth(text, file, max_depth)

    def integer(s: str) -> int:
        if len(s.lstrip("-")) > max_int_digits:
            at = text.find(s)
            raise _fail(file, f"invalid JSON: an integer of {len(s)} digits (at most {max_int_digits})",
                        *_line_col(text, max(at, 0)))
        return int(s)

    def constant(s: str):
        raise ValueError(f"{s} is not a number meeple reads")

    try:
        return json.loads(text, parse_int=integer, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise _fail(file, f"invalid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except (ValueError, RecursionError) as exc:
        raise _fail(file, f"invalid JSON: {exc}") from None


def read_text(path: str, max_bytes: int = MAX_RECORD_BYTES) -> str:
    """A regular UTF-8 file of at most `max_bytes`."""
    raw = read_regular(path, max_bytes)
    if len(raw) > max_bytes:
        raise _fail(path, f"the file is larger than the limit of {max_bytes} bytes")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        raise _fail(path, "not a UTF-8 text file", before.count(b"\n") + 1,
                    len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1) from None


def read_action_list(path: str) -> list:
    """The actions of a record: action ids one per line (blank lines and `#` comments skipped), or a
    JSON list of ids and action objects."""
    text = read_text(path)
    if text.lstrip().startswith("["):
        actions = parse_json(text, path)
        if not isinstance(actions, list):
            raise _fail(path, "a JSON record is a list of actions")
        for i, a in enumerate(actions, 1):
            if not isinstance(a, (str, dict)):
                raise _fail(path, f"item {i} is neither an action id nor an action object")
    else:
        actions = [s for s in (line.strip() for line in text.splitlines()) if s and not s.startswith("#")]
    if len(actions) > MAX_RECORD_ITEMS:
        raise _fail(path, f"more than {MAX_RECORD_ITEMS} actions")
    return actions


def read_state(path: str) -> dict:
    """The JSON object of a saved state (its meaning is checked by `Game.from_json`)."""
    data = parse_json(read_text(path), path)
    if not isinstance(data, dict):
        raise _fail(path, "a saved state is a JSON object")
    return data


def option_value(name: str, raw: str):
    """An `--option NAME=VALUE` value read as YAML (7, true, text) by the hardened loader: no aliases,
    shallow, small. Text that is not YAML stays text."""
    if not raw.strip():
        return ""
    where = f"--option {name}"
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_OPTION_BYTES:
        raise _fail(where, f"the value is longer than {MAX_OPTION_BYTES} bytes")
    try:
        return load_yaml_text(raw, where, OPTION_LIMITS).data
    except DefinitionError as exc:
        if any("alias" in p.message or "too" in p.message for p in exc.problems):
            raise InputError(exc.problems) from None
        return raw
