"""A loaded YAML file as the loader gives it: the data, and where each value was written, down to the
character of a string (`Document.where`, `Document.locate_in_scalar`), so that a problem found in a rule's text
points at its line and column in the file.

The offsets inside a scalar are worked out from the file's text and the scalar's style (plain, quoted,
literal or folded block), as PyYAML reads it: escapes, folded line breaks, indentation and chomping.
"""

from __future__ import annotations

import bisect
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import attrs

from .problems import Location, Problem

if TYPE_CHECKING:  # the YAML library is not imported for a document read back from the cache
    from yaml.nodes import ScalarNode

Path = tuple[Hashable, ...]  # mapping keys and list indices from the root
_TAG = "tag:yaml.org,2002:"

_BREAKS = "\n\x85\u2028\u2029"  # line breaks as PyYAML counts them (after \r normalisation)


@attrs.frozen
class _Pos:
    key: tuple[int, int] | None  # 1-based line, col of the mapping key (None: root, list item)
    value: tuple[int, int]  # 1-based line, col of the value
    node: ScalarNode | None  # the scalar node, for locate_in_scalar


class Document:
    """A loaded YAML file: `data`, `file` (the name used in locations), `text` (the source
    with line ends normalised to \\n), and positions of every value.

    Paths are tuples of mapping keys and list indices from the root. A path element may
    also be the text of a key (`"3"` for the int key `3`), as JSON tools report it.
    """

    __slots__ = ("data", "file", "text", "_positions", "_line_starts", "_offsets", "_value_lines", "problems")

    def __init__(self, data: Any, file: str, text: str, positions: dict[Path, _Pos]):
        self.problems: list[Problem] = []  # recoverable problems, kept only by lenient loading
        self.data = data
        self.file = file
        self.text = text
        self._positions = positions
        self._line_starts: list[int] | None = None
        self._offsets: dict[Path, list[int] | None] = {}
        self._value_lines: dict[Path, list[int]] = {}

    def __repr__(self) -> str:
        return f"Document({self.file!r})"

    def resolve(self, path: Path) -> tuple[Path, bool]:
        """The path with each element replaced by the actual key or index, and whether
        the whole path exists (else the longest existing prefix)."""
        node, real = self.data, []
        for element in path:
            if isinstance(node, dict):
                if element in node and type(element) is not bool:
                    key = element
                else:
                    text = _key_text(element)
                    key = next((k for k in node if _key_text(k) == text), _MISSING)
                    if key is _MISSING:
                        return tuple(real), False
            elif isinstance(node, list):
                try:
                    key = int(element)
                except (TypeError, ValueError):
                    return tuple(real), False
                if not 0 <= key < len(node) or isinstance(element, bool):
                    return tuple(real), False
            else:
                return tuple(real), False
            real.append(key)
            node = node[key]
        return tuple(real), True

    def _pos(self, path: Path) -> tuple[_Pos, bool]:
        real, exact = self.resolve(path)
        while real not in self._positions:  # the root is always present
            real, exact = real[:-1], False
        return self._positions[real], exact

    def where(self, path: Path = ()) -> Location:
        """Where the value at `path` starts (a block scalar: at its `|` or `>`); for a path
        that does not exist, the nearest existing ancestor."""
        pos, _ = self._pos(path)
        return Location(self.file, *pos.value)

    def key_where(self, path: Path) -> Location:
        """Where the key of the mapping entry at `path` is; `where(path)` for list items,
        the root and paths that do not exist."""
        pos, exact = self._pos(path)
        if exact and pos.key is not None:
            return Location(self.file, *pos.key)
        return self.where(path)

    def locate_in_scalar(self, path: Path, line: int, col: int) -> Location:
        """The file position of the character at 1-based (`line`, `col`) of the string at
        `path` (as a parser of that string reports it). Handles plain, quoted, literal and
        folded scalars; positions past the end of a line or of the text are clamped. Falls
        back to `where(path)` when the value is not a string or cannot be mapped exactly."""
        pos, exact = self._pos(path)
        node = pos.node
        if not exact or node is None or not _is_str_node(node):
            return self.where(path)
        real, _ = self.resolve(path)
        if real not in self._offsets:
            self._offsets[real] = _scalar_offsets(self.text, node, self._column)
        offsets = self._offsets[real]
        if offsets is None:
            return self.where(path)
        starts = self._value_lines.get(real)
        if starts is None:  # where each line of the value starts: locating many statements stays linear
            starts = self._value_lines[real] = [0] + [i + 1 for i, c in enumerate(node.value) if c == "\n"]
        line = min(max(line, 1), len(starts))
        end = starts[line] - 1 if line < len(starts) else len(node.value)
        col = min(max(col, 1), end - starts[line - 1] + 1)
        return self._location_of_index(offsets[starts[line - 1] + col - 1])

    def _row(self, index: int) -> int:
        if self._line_starts is None:
            self._line_starts = [0] + [i + 1 for i, c in enumerate(self.text) if c in _BREAKS]
        return bisect.bisect_right(self._line_starts, index) - 1

    def _column(self, index: int) -> int:
        """0-based column of text[index]."""
        row = self._row(index)  # fills _line_starts
        return index - self._line_starts[row]

    def _location_of_index(self, index: int) -> Location:
        row = self._row(index)
        return Location(self.file, row + 1, index - self._line_starts[row] + 1)


_MISSING = object()


def _key_text(key: object) -> str:
    """A key as JSON would spell it: the identity used for duplicate detection too."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    return str(key)


def _is_str_node(node: ScalarNode) -> bool:
    return node.tag == _TAG + "str"


# --------------------------------------------------------------------------- scalar positions


def _scalar_offsets(text: str, node: ScalarNode, column) -> list[int] | None:
    """For each character of the scalar's value, the index in `text` it comes from, plus
    one entry for the end of the value. None when the reconstruction does not reproduce
    the value exactly: a wrong position is worse than an approximate one."""
    start, end, style = node.start_mark.index, node.end_mark.index, node.style
    start = _skip_properties(text, start, end)
    try:
        if style in ("|", ">"):
            pairs = _block_pairs(text, start, node.value, style, column)
        elif style in ("'", '"'):
            pairs = _flow_pairs(text, start + 1, end - 1, style)
        else:
            pairs = _flow_pairs(text, start, end, None)
    except (IndexError, ValueError):
        return None
    if pairs is None or "".join(c for c, _ in pairs) != node.value:
        return None
    indices = [i for _, i in pairs]
    if indices:
        indices.append(indices[-1] + 1)
    else:
        indices.append(start + 1 if style in ("'", '"') else start)
    return indices


def _skip_properties(text: str, i: int, end: int) -> int:
    """The start of the scalar itself: a node's mark is at its anchor or tag, if any."""
    while i < end and text[i] in "&!":
        while i < end and text[i] not in " \t" + _BREAKS:
            i += 1
        while i < end and text[i] in " \t" + _BREAKS:
            i += 1
    return i


def _flow_pairs(text: str, a: int, b: int, style: str | None) -> list[tuple[str, int]] | None:
    """(character, source index) of a plain or quoted scalar spanning text[a:b], folding
    line breaks as YAML does (one break: a space; n breaks: n-1 newlines)."""
    from yaml.scanner import Scanner  # the escapes of double-quoted text, as PyYAML reads them
    out: list[tuple[str, int, bool]] = []  # third: unescaped white space (dropped before a fold)
    i = a
    while i < b:
        c = text[i]
        if c in _BREAKS:
            while out and out[-1][2]:
                out.pop()
            breaks, j = _count_breaks(text, i, b)
            if breaks == 1:
                out.append((" ", i, False))
            else:
                out.extend(("\n", i, False) for _ in range(breaks - 1))
            i = j
        elif style == "'" and c == "'":
            out.append(("'", i, False))
            i += 2
        elif style == '"' and c == "\\":
            escape = text[i + 1]
            if escape in Scanner.ESCAPE_REPLACEMENTS:
                out.append((Scanner.ESCAPE_REPLACEMENTS[escape], i, False))
                i += 2
            elif escape in Scanner.ESCAPE_CODES:
                width = Scanner.ESCAPE_CODES[escape]
                out.append((chr(int(text[i + 2 : i + 2 + width], 16)), i, False))
                i += 2 + width
            elif escape in _BREAKS:  # an escaped line break joins the lines
                breaks, j = _count_breaks(text, i + 1, b)
                out.extend(("\n", i, False) for _ in range(breaks - 1))
                i = j
            else:
                return None
        else:
            out.append((c, i, c in " \t"))
            i += 1
    return [(c, i) for c, i, _ in out]


def _count_breaks(text: str, i: int, b: int) -> tuple[int, int]:
    """Line breaks in the white space starting at text[i], and the index after it."""
    breaks = 0
    while i < b and text[i] in " \t" + _BREAKS:
        breaks += text[i] in _BREAKS
        i += 1
    return breaks, i


def _block_pairs(text: str, start: int, value: str, style: str, column) -> list[tuple[str, int]] | None:
    """(character, source index) of a literal or folded block scalar whose indicator is at
    text[start]. The indentation is found by trying the candidates YAML allows and keeping
    the one that reproduces `value` (the parent's indentation is not known here)."""
    i = start + 1
    chomping = None
    explicit = False
    while i < len(text) and text[i] in "+-0123456789":
        if text[i] in "+-":
            chomping = text[i] == "+"
        else:
            explicit = True
        i += 1
    while i < len(text) and text[i] not in _BREAKS:  # spaces and a comment
        i += 1
    body = i + 1
    # Auto-detected indentation: the widest run of leading spaces up to the first content.
    widest, j, col = 0, body, 0
    while j < len(text) and text[j] in " " + _BREAKS:
        col = col + 1 if text[j] == " " else 0
        widest = max(widest, col)
        j += 1
    candidates = [max(widest, 1)]
    if explicit:
        candidates += [n for n in range(1, max(widest, 1) + 1) if n != candidates[0]]
    for indent in candidates:
        pairs = _block_with_indent(text, body, indent, style, chomping, column)
        if "".join(c for c, _ in pairs) == value:
            return pairs
    return None


def _block_with_indent(text: str, i: int, indent: int, style: str, chomping, column) -> list[tuple[str, int]]:
    """PyYAML's scan_block_scalar, tracking source indices; `column(k)` is the 0-based
    column of text[k]."""
    n = len(text)

    def breaks_from(k: int) -> tuple[list[tuple[str, int]], int]:
        found = []
        while column(k) < indent and k < n and text[k] == " ":
            k += 1
        while k < n and text[k] in _BREAKS:
            found.append((_norm_break(text[k]), k))
            k += 1
            while column(k) < indent and k < n and text[k] == " ":
                k += 1
        return found, k

    out: list[tuple[str, int]] = []
    found, i = breaks_from(i)
    line_break: tuple[str, int] | None = None
    while column(i) == indent and i < n:
        out.extend(found)
        leading_non_space = text[i] not in " \t"
        while i < n and text[i] not in _BREAKS:
            out.append((text[i], i))
            i += 1
        line_break = (_norm_break(text[i]), i) if i < n else None
        i += 1 if i < n else 0
        found, i = breaks_from(i)
        if column(i) == indent and i < n:
            if style == ">" and line_break and line_break[0] == "\n" and leading_non_space \
                    and text[i] not in " \t":
                if not found:
                    out.append((" ", line_break[1]))
            elif line_break:
                out.append(line_break)
        else:
            break
    if chomping is not False and line_break:
        out.append(line_break)
    if chomping is True:
        out.extend(found)
    return out


def _norm_break(char: str) -> str:
    return "\n" if char in "\n\x85" else char
