"""Format versions: the version of meeple's file formats a file was written for, and the promise kept to it.

Every file an author writes states the format version it was written for, in its header:

    game: {id: my_game, format: 2, ...}          # a definition (the file that holds `game`)
    overlay: {base: my_game, format: 2, ...}     # an overlay
    format: 2                                    # a scenario file, beside `scenarios:`
    format: meeple-record/2                      # a game record

A file that states none is of version 1. This engine reads every version from 1 to `CURRENT` with the
meaning it had when it was current (where a later version changed a meaning, the reader asks the file's
version); `meeple upgrade PATH` rewrites files to `CURRENT` and lists every change it made. A file of a
version newer than `CURRENT` is refused with one located message (its other problems would be noise: they
come from what this engine does not know yet). Constructs added by a later version without changing any
meaning (a new key, a new function) are read in a file of any version.

`HISTORY` says what each version changed; README "Formats are promises" states the promise.
"""

from __future__ import annotations

from .problems import Location, Problem

CURRENT = 2

HISTORY = {
    1: "The format of every release up to the one that introduced format versions (files without `format`).",
    2: "Scenarios name a player by its seat from 1 everywhere: in `then` (an expression whose value is a player "
       "or a list of players), in a piece's player field in `given`, and as a number given for a player "
       "argument of an action (version 1 compared those as seats from 0). A zone listed in `given` holds "
       "exactly the listed pieces (version 1 kept, below them, the unlisted pieces whose starting zone it is: "
       "written `{top: [...]}` in version 2). Definitions, overlays and records mean the same as in version 1.",
}

RECORD_PREFIX = "meeple-record/"


def problem(value, where: Location | None, what: str = "this file") -> Problem | None:
    """Why `value`, the version a file states, cannot be read (None when it can: absent, or 1..CURRENT)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return Problem(f"format: {value!r} is not a format version; expected a whole number from 1 to {CURRENT} "
                       "(leave it out for version 1)", where)
    if value > CURRENT:
        return Problem(f"{what} is written for format version {value}, and this meeple reads versions 1 to "
                       f"{CURRENT}", where, "install a newer meeple to read it")
    return None


def of(value) -> int:
    """The version a `format` value states: 1 when absent or not a whole number (that is reported)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def header_version(doc, header: str | None) -> tuple[int, Problem | None]:
    """The version a document states (in `header.format`, or top-level `format` when header is None) and
    the problem with it, if any."""
    data = doc.data
    if not isinstance(data, dict):
        return 1, None
    path: tuple = ("format",) if header is None else (header, "format")
    holder = data if header is None else data.get(header)
    if not isinstance(holder, dict) or "format" not in holder:
        return 1, None
    value = holder["format"]
    return of(value), problem(value, doc.where(path))


def record_version(text) -> int | None:
    """The version of a record's `format: meeple-record/N` (None when it is not of that form)."""
    text = str(text)
    if not text.startswith(RECORD_PREFIX):
        return None
    digits = text[len(RECORD_PREFIX):]
    return int(digits) if digits.isascii() and digits.isdigit() and len(digits) < 6 else None
