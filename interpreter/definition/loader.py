"""Hardened YAML loading: plain data plus the file position of every value.

Contract:

- `load_yaml(path)` / `load_yaml_text(text, filename)` return a `Document` whose `.data` is
  plain Python (dict, list, str, int, float, bool, None), or raise `DefinitionError` listing
  every problem found (I/O failures raise its subclass `InputError`). Bad input never
  produces any other exception.
- Safe only: PyYAML's composer (over libyaml's parser or PyYAML's, see Speed) builds the node
  graph; this module turns nodes into values itself, so no YAML tag can construct a Python object. Tags other than the
  core ones (`!!str`, `!!int`, `!!float`, `!!bool`, `!!null`, `!!seq`, `!!map`) are errors.
- Scalars follow the YAML 1.2 core schema, not YAML 1.1: booleans are only
  true/True/TRUE/false/False/FALSE (`on`, `off`, `yes`, `no`, `y`, `n` stay strings);
  integers are decimal, `0o17` or `0x1F` (no `1_000`, no sexagesimal: `1:30` is a string);
  no timestamps (dates stay strings); `.inf` and `.nan` stay strings (the engine has no
  use for them). Integer keys stay integers (`3:` in a per-player-count table).
- Errors: duplicate keys (naming the first line), keys that are lists, mappings or empty,
  merge keys `<<` (not supported: write the keys out, or use anchors for whole values),
  more than one document, syntax errors located at the marks PyYAML gives.
- Caps (`Limits`): file size, values per file, nesting depth, number of aliases, and the number of values
  created by expanding aliases, so that a "billion laughs" file fails fast.
- Speed: libyaml's parser (when PyYAML was built with it) reads the events of a file, several times
  faster than PyYAML's own; the same composer builds the nodes, with PyYAML's marks (line and column in
  characters). Any problem found on that path, and any file holding what libyaml reads differently
  (`_LEFT_TO_PYYAML`), is read again by PyYAML's own parser, so values, positions and messages are the
  same either way (the tests compare the two on every shipped file and on random text).
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

import attrs
import yaml
from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent, StreamEndEvent
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .document import _MISSING, _TAG, Document, Path, _key_text, _Pos
from .files import MAX_FILE_BYTES, read_regular
from .problems import DefinitionError, InputError, Location, Problem




@attrs.frozen
class Limits:
    """Caps that keep hostile or mistaken input from exhausting time or memory."""

    max_bytes: int = MAX_FILE_BYTES
    max_depth: int = 64  # nested lists/mappings (keep far below the recursion limit)
    max_aliases: int = 1_000  # alias uses (`*name`) in one file
    max_alias_nodes: int = 100_000  # values created by expanding aliases
    max_values: int = 10_000  # values written in one file (composing one costs ~30 µs)


DEFAULT_LIMITS = Limits()


# --------------------------------------------------------------------------- document


# --------------------------------------------------------------------------- entry points


def load_yaml(path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS, lenient: bool = False) -> Document:
    """Read and load one YAML file (UTF-8, an optional BOM is ignored).

    With `lenient`, problems that leave the data usable (a duplicate key: the first one is kept) are
    returned in `Document.problems` instead of raised, so that later checks can report theirs too."""
    file = os.fspath(path)
    raw = read_regular(file, limits.max_bytes)
    if len(raw) > limits.max_bytes:
        raise DefinitionError(_too_large(file, limits))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise DefinitionError(
            Problem("the file is not valid UTF-8", Location(file, line, col),
                    "save it with UTF-8 encoding")
        ) from None
    return _load(text, file, limits, lenient)


def load_yaml_text(text: str, filename: str = "<string>", limits: Limits = DEFAULT_LIMITS) -> Document:
    """Load YAML from a string; `filename` names it in locations."""
    if len(text) > limits.max_bytes or len(text.encode("utf-8", "surrogatepass")) > limits.max_bytes:
        raise DefinitionError(_too_large(filename, limits))
    return _load(text.removeprefix("\ufeff"), filename, limits)


def _too_large(file: str, limits: Limits) -> Problem:
    return Problem(f"the file is larger than the limit of {limits.max_bytes} bytes", Location(file, 0, 0))


class _Capped(DefinitionError):
    """A file that exceeds a cap (`Limits`), or that cannot be composed at all."""


class _Abort(Exception):
    """Stops loading at once (a cap was exceeded, or the input cannot be composed)."""

    def __init__(self, problem: Problem):
        self.problem = problem


def _load(text: str, file: str, limits: Limits, lenient: bool = False) -> Document:
    # Normalise line ends first: marks and our own line counting then agree, and \r at a
    # line end does not shift any column.
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _CLoader is not None and not _LEFT_TO_PYYAML.search(text):
        try:
            doc = _read(text, file, limits, lenient, _CLoader)
            if not doc.problems:
                return doc
        except _Capped:
            raise  # a cap is met at the same value whichever parser reads: not read again (its cost is bounded)
        except Exception:  # noqa: BLE001 - any other problem is reported as PyYAML's reading reports it
            pass
    return _read(text, file, limits, lenient, _Loader)


def _read(text: str, file: str, limits: Limits, lenient: bool, parser) -> Document:
    loader = None
    try:
        loader = parser(text, file, limits)  # PyYAML's checks the characters at once: inside the try
        root = loader.get_single_node()
        builder = _Builder(file, limits, loader.alias_marks)
        data = builder.build_root(root)
    except _Abort as abort:
        raise _Capped(abort.problem) from None
    except yaml.MarkedYAMLError as error:
        raise DefinitionError(_syntax_problem(error, file)) from None
    except yaml.reader.ReaderError as error:
        raise DefinitionError(_reader_problem(error, text, file)) from None
    finally:
        if loader is not None:
            loader.dispose()
    if builder.problems and not lenient:
        raise DefinitionError(builder.problems)
    doc = Document(data, file, text, builder.positions)
    doc.problems = list(builder.problems)
    return doc


def _loc(file: str, mark) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


def _syntax_problem(error: yaml.MarkedYAMLError, file: str) -> Problem:
    mark = error.problem_mark or error.context_mark
    message = error.problem or error.context or "invalid YAML"
    if error.context and error.problem and error.context_mark is not None:
        message += f" ({error.context} at line {error.context_mark.line + 1})"
    hint = None
    if "'\\t'" in message:
        hint = "indent with spaces: YAML does not allow tabs there"
    return Problem(f"invalid YAML: {message}", _loc(file, mark) if mark else Location(file, 0, 0), hint)


def _reader_problem(error: yaml.reader.ReaderError, text: str, file: str) -> Problem:
    index = max(0, min(error.position, len(text)))
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    char = error.character if isinstance(error.character, str) else chr(error.character)
    return Problem(f"unacceptable character U+{ord(char):04X} in the file", Location(file, line, col))


# --------------------------------------------------------------------------- composing


# Where libyaml reads a file differently from PyYAML (found by comparing the two on random text, see the
# tests), the file is left to PyYAML: a tab (libyaml allows more of them), a comment glued to a block
# scalar's indicator, a question mark (read differently in some flow collections), an empty value before
# the end of a flow collection (placed one character further), a character YAML does not allow.
_LEFT_TO_PYYAML = re.compile(r"[\t?]|[|>][-+0-9]*#|: *[]},]|" + yaml.reader.Reader.NON_PRINTABLE.pattern)


class _Composing:
    """The composer's caps (depth, aliases, values) and the one-document rule, for either parser.

    Only the composer is used (`get_single_node`); values are built by `_Builder`.
    """

    def _setup(self, file: str, limits: Limits) -> None:
        self.file = file
        self.limits = limits
        self.depth = 0
        self.aliases = 0
        self.values = 0
        # (id(parent node), index or id(key node)) -> mark of the alias used there, so
        # that errors about expanded aliases point at the alias, not at its anchor.
        self.alias_marks: dict[tuple[int, int], Any] = {}

    def compose_node(self, parent, index):
        self.values += 1
        if self.values > self.limits.max_values:
            raise _Abort(Problem(
                f"too many values: more than {self.limits.max_values} in one file",
                _loc(self.file, self.peek_event().start_mark), "split the data or make it smaller"))
        if self.check_event(AliasEvent):
            self.aliases += 1
            mark = self.peek_event().start_mark
            if self.aliases > self.limits.max_aliases:
                raise _Abort(Problem(
                    f"too many aliases: more than {self.limits.max_aliases} in one file",
                    _loc(self.file, mark)))
            if parent is not None:
                slot = index if isinstance(index, int) else id(index)
                self.alias_marks[(id(parent), slot)] = mark
            return super().compose_node(parent, index)
        if not self.check_event(SequenceStartEvent, MappingStartEvent):
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > self.limits.max_depth:
                raise _Abort(Problem(
                    f"nesting is too deep: more than {self.limits.max_depth} levels",
                    _loc(self.file, self.peek_event().start_mark)))
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def get_single_node(self):
        self.get_event()  # STREAM-START
        document = None
        if not self.check_event(StreamEndEvent):
            document = self.compose_document()
        if not self.check_event(StreamEndEvent):
            raise _Abort(Problem(
                "a file holds one YAML document, but a second one starts here",
                _loc(self.file, self.peek_event().start_mark),
                "remove the '---' line or split the file"))
        self.get_event()  # STREAM-END
        return document


class _Loader(_Composing, yaml.SafeLoader):
    """PyYAML's own parser, with YAML 1.2 core scalar resolution and the composer's caps."""

    # A fresh table, not SafeLoader's YAML 1.1 one (which makes `on`/`yes` booleans,
    # `1:30` an int and dates timestamps).
    yaml_implicit_resolvers: dict = {}

    def __init__(self, text: str, file: str, limits: Limits):
        super().__init__(text)
        self._setup(file, limits)


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml
    _CParser = None
if _CParser is not None:
    class _CLoader(_Composing, _CParser, yaml.composer.Composer, yaml.resolver.BaseResolver):
        """libyaml's parser feeding the same composer and the same resolution as `_Loader`."""

        yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers  # the same table, filled below

        def __init__(self, text: str, file: str, limits: Limits):
            _CParser.__init__(self, text)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.BaseResolver.__init__(self)
            self._setup(file, limits)
            self.text = text

        def compose_scalar_node(self, anchor):
            # Where libyaml's events differ from PyYAML's, made PyYAML's.
            event = self.peek_event()
            if event.tag == "!":  # the non-specific tag: resolved by the text, as PyYAML's parser does
                event.implicit = (True, False)
            node = super().compose_scalar_node(anchor)
            if node.style == "":  # libyaml's plain style; PyYAML's is None
                node.style = None
            if node.start_mark.index == len(self.text):  # an empty value at the end: libyaml's mark
                node.start_mark = node.end_mark = self._end_mark()  # is one line further down
            return node

        def _end_mark(self):
            text = self.text
            start = text.rfind("\n") + 1
            return yaml.Mark(self.file, len(text), text.count("\n"), len(text) - start, None, None)
else:
    _CLoader = None




def _resolver(tag: str, pattern: str, first: str) -> None:
    _Loader.add_implicit_resolver(_TAG + tag, re.compile(pattern + r"\Z"), list(first))


# YAML 1.2 core schema, minus .inf/.nan. Order matters: int before float.
_resolver("null", r"(?:~|null|Null|NULL|)", ["~", "n", "N", ""])
_resolver("bool", r"(?:true|True|TRUE|false|False|FALSE)", "tTfF")
_resolver("int", r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)", "-+0123456789")
_resolver("float", r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?", "-+.0123456789")


# --------------------------------------------------------------------------- building values


class _Builder:
    """Turns the node graph into plain values, recording positions and problems."""

    def __init__(self, file: str, limits: Limits, alias_marks: dict):
        self.file = file
        self.limits = limits
        self.alias_marks = alias_marks
        self.positions: dict[Path, _Pos] = {}
        self.problems: list[Problem] = []
        self.visited: set[int] = set()  # nodes built once: meeting one again is an alias
        self.open: set[int] = set()  # collections being built: meeting one is a cycle
        self.expanded = 0

    def build_root(self, root) -> Any:
        if root is None:  # an empty file
            self.positions[()] = _Pos(None, (1, 1), None)
            return None
        return self.build(root, (), None, None, False)

    def build(self, node, path: Path, key: tuple[int, int] | None, alias_mark, expanding: bool) -> Any:
        if id(node) in self.visited:
            expanding = True
        self.visited.add(id(node))
        if expanding:
            self.expanded += 1
            if self.expanded > self.limits.max_alias_nodes:
                raise _Abort(Problem(
                    f"aliases expand to more than {self.limits.max_alias_nodes} values",
                    _loc(self.file, alias_mark or node.start_mark),
                    "an alias of an alias of ... multiplies; write the values out"))
        if len(path) > self.limits.max_depth:  # nesting built up through aliases
            raise _Abort(Problem(
                f"nesting is too deep: more than {self.limits.max_depth} levels",
                _loc(self.file, alias_mark or node.start_mark)))
        mark = node.start_mark
        self.positions[path] = _Pos(
            key, (mark.line + 1, mark.column + 1), node if isinstance(node, ScalarNode) else None)
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        if id(node) in self.open:
            raise _Abort(Problem("an alias refers to a value that contains it",
                                 _loc(self.file, alias_mark or mark)))
        self.open.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                return self.sequence(node, path, alias_mark, expanding)
            return self.mapping(node, path, alias_mark, expanding)
        finally:
            self.open.discard(id(node))

    def _child_alias_mark(self, parent, slot, inherited):
        # The outermost alias is the one the author wrote at this place: keep it.
        return inherited or self.alias_marks.get((id(parent), slot))

    def sequence(self, node: SequenceNode, path: Path, alias_mark, expanding: bool) -> list:
        if node.tag != _TAG + "seq":
            self.problem(f"unsupported tag {_short_tag(node.tag)}", node.start_mark)
        return [
            self.build(item, (*path, i), None, self._child_alias_mark(node, i, alias_mark), expanding)
            for i, item in enumerate(node.value)
        ]

    def mapping(self, node: MappingNode, path: Path, alias_mark, expanding: bool) -> dict:
        if node.tag != _TAG + "map":
            self.problem(f"unsupported tag {_short_tag(node.tag)}", node.start_mark)
        result: dict = {}
        first_line: dict[str, int] = {}  # key text -> line of its first definition
        for key_node, value_node in node.value:
            key = self.key(key_node)
            if key is _MISSING:
                continue
            text = _key_text(key)
            # Python merges 1, 1.0 and True into one dict key: that is a duplicate too.
            clash = text in first_line or key in result
            if clash:
                line = first_line.get(text) or next(
                    (first_line[_key_text(k)] for k in result if k == key), 0)
                self.problem(f"duplicate key '{text}' (first defined at line {line})", key_node.start_mark)
                continue
            first_line[text] = key_node.start_mark.line + 1
            key_pos = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            slot_mark = self._child_alias_mark(node, id(key_node), alias_mark)
            result[key] = self.build(value_node, (*path, key), key_pos, slot_mark, expanding)
        return result

    def key(self, node) -> Any:
        if not isinstance(node, ScalarNode):
            kind = "list" if isinstance(node, SequenceNode) else "mapping"
            self.problem(f"a key must be a plain value, not a {kind}", node.start_mark)
            return _MISSING
        if node.style is None and node.value == "<<":
            self.problem("merge keys ('<<') are not supported", node.start_mark,
                         "write the keys out; an alias (*name) may stand for a whole value")
            return _MISSING
        key = self.scalar(node)
        if key is None:
            self.problem("a key must not be empty", node.start_mark, "quote it: '' or 'null'")
            return _MISSING
        return key

    def scalar(self, node: ScalarNode) -> Any:
        tag, value = node.tag, node.value
        if tag == _TAG + "str":
            return value
        if tag == _TAG + "null":
            if value in ("", "~", "null", "Null", "NULL"):
                return None
        elif tag == _TAG + "bool":
            if value in ("true", "True", "TRUE"):
                return True
            if value in ("false", "False", "FALSE"):
                return False
        elif tag == _TAG + "int":
            if len(value) > 40:  # never read: an integer this long is beyond any limit (±2**53, 16 digits)
                self.problem(f"an integer of {len(value)} digits is beyond the limit of ±2**53", node.start_mark)
                return 0
            try:
                return _parse_int(value)
            except ValueError:
                pass
        elif tag == _TAG + "float":
            # Only reached through the float resolver or an explicit !!float; the engine
            # has no use for infinities or NaN, which also have no JSON form.
            if _FLOAT.fullmatch(value) and math.isfinite(float(value)):
                return float(value)
        else:
            self.problem(f"unsupported tag {_short_tag(tag)}", node.start_mark,
                         "only plain values, lists and mappings are allowed")
            return None
        self.problem(f"{value!r} is not a valid {tag.removeprefix(_TAG)}", node.start_mark)
        return None

    def problem(self, message: str, mark, hint: str | None = None) -> None:
        self.problems.append(Problem(message, _loc(self.file, mark), hint))


_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")


def _parse_int(text: str) -> int:
    # int() would accept '1_000' and spaces, which YAML 1.2 core does not: check first.
    if re.fullmatch(r"[-+]?[0-9]+", text):
        return int(text, 10)  # raises ValueError past Python's digit limit: a problem
    if re.fullmatch(r"0o[0-7]+", text):
        return int(text[2:], 8)
    if re.fullmatch(r"0x[0-9a-fA-F]+", text):
        return int(text[2:], 16)
    raise ValueError(text)


def _short_tag(tag: str) -> str:
    return "'!!" + tag.removeprefix(_TAG) + "'" if tag.startswith(_TAG) else repr(tag)
