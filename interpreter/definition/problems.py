"""Problems: what is wrong with a definition, where, and what to do about it.

Every check of a definition reports `Problem`s; a phase that cannot continue raises a
`DefinitionError` holding all of them at once. The text form is the one authors read
(DESIGN.md §2, invariant 6)::

    gamedefs/pr/buildings.yaml:12:5: error: unknown key 'cots'; expected one of ...; did you mean 'cost'?

`InputError` is the `DefinitionError` for files that cannot be read at all (missing, a
directory, no permission); the CLI maps it to its own exit code.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

import attrs

SEVERITIES = ("error", "warning", "note")


@attrs.frozen(order=True)
class Location:
    """A position in a file; `line` and `col` are 1-based.

    `line == 0` means "the file as a whole" and `col == 0` "the line as a whole"; the
    text form then leaves them out.
    """

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        if self.col <= 0:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.col}"


@attrs.frozen
class Problem:
    """One thing wrong with a definition.

    `message` says what is wrong (and what was expected); `hint` is an optional
    suggestion such as "did you mean 'cost'?", appended after "; ".
    """

    message: str
    location: Location | None = None
    hint: str | None = None
    severity: str = attrs.field(default="error", validator=attrs.validators.in_(SEVERITIES))

    def __str__(self) -> str:
        text = f"{self.severity}: {self.message}"
        if self.location is not None:
            text = f"{self.location}: {text}"
        if self.hint:
            text = f"{text}; {self.hint}"
        return text

    def sort_key(self) -> tuple:
        """Order by file position, then severity (errors first), then message.

        Problems without a location come first: they concern the whole input.
        """
        loc = self.location
        where = ("", 0, 0) if loc is None else (loc.file, loc.line, loc.col)
        return (*where, SEVERITIES.index(self.severity), self.message)


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """The problems in file-position order (see `Problem.sort_key`)."""
    return sorted(problems, key=Problem.sort_key)


class DefinitionError(Exception):
    """A definition cannot be used; `problems` lists everything found wrong, in order."""

    def __init__(self, problems: Problem | Iterable[Problem]):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        # args carries the problems so that the exception pickles and reprs sensibly.
        super().__init__(self.problems)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class InputError(DefinitionError):
    """The input could not be read at all (I/O error): not a fault of its contents."""


def quote(name: object) -> str:
    """The way names are quoted in messages: 'name'."""
    return f"'{name}'"


def format_choices(names: Iterable[object], conjunction: str = "or") -> str:
    """'a', 'b' or 'c' — for "expected one of ..." messages."""
    quoted = [quote(n) for n in names]
    if not quoted:
        return "nothing"
    if len(quoted) == 1:
        return quoted[0]
    return f"{', '.join(quoted[:-1])} {conjunction} {quoted[-1]}"


def close_matches(name: object, candidates: Iterable[object], n: int = 1) -> list[str]:
    """The candidates (as text) that `name` is probably a misspelling of, best first.

    A candidate equal to `name` but for case wins; otherwise difflib's closest matches
    (at most `n`). Candidates are compared as text, so int keys work too.
    """
    text = str(name)
    pool = list(dict.fromkeys(str(c) for c in candidates if str(c) != text))
    same_case = [c for c in pool if c.lower() == text.lower()]
    return same_case[:n] or difflib.get_close_matches(text, pool, n=n, cutoff=0.6)


def did_you_mean(name: object, candidates: Iterable[object], n: int = 1) -> str | None:
    """A "did you mean 'x'?" hint for a misspelt `name`, or None if nothing is close."""
    matches = close_matches(name, candidates, n)
    if not matches:
        return None
    return f"did you mean {format_choices(matches)}?"
