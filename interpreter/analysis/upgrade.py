"""`meeple upgrade PATH`: files rewritten to the current format version, every change listed.

A file states the format version it was written for (`definition/versions.py`); this module rewrites a file
of an earlier version so that it states the current one and means, read as the current version, what it
meant as written. The rewrite edits the file's text where a value must change (comments, layout and
quoting stay), and lists each change at the `file:line:col` it was made.

What changes from version 1 to 2 (only scenario files changed meaning):
- a `then` expression whose value is a player, or a list of players: the numbers become seats from 1;
- a piece's player field given in `given`: the number becomes a seat from 1;
- a number given for a player argument of an action: written `pN` (the seat from 1);
- a zone listed in `given` that kept, below the listed pieces, pieces whose starting zone it is: written
  `{top: [...]}` (a plain list holds exactly its pieces from version 2);
- `start: {step: X}` where the flow takes X in several places: `in:` names the place version 1 took (the
  first the definition lists).
Definitions, overlays and records only state the version.

    report = upgrade(Path("gamedefs/my_game"))          # a game directory, an overlay, a scenario file or a record
    for change in report.changes: print(change)
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from ..definition import versions
from ..definition.loader import load_yaml, load_yaml_text
from ..definition.problems import DefinitionError, Location, Problem
from ..definition.schema import validate_document


class Change:
    """One change made (or, with check, to make) in a file: where and what."""

    def __init__(self, where: Location, what: str):
        self.where, self.what = where, what

    def __str__(self):
        return f"{self.where}: {self.what}"


class Report:
    """What `upgrade` did: the changes, the files rewritten, the files already current, and the problems
    (a file it could not read, a file of a later version, a scenario it could not read)."""

    def __init__(self):
        self.changes: list[Change] = []
        self.rewritten: list[str] = []
        self.current: list[str] = []
        self.problems: list[Problem] = []


# --------------------------------------------------------------------------- text edits

class _Edits:
    """Edits of one file's text: replacements of spans, applied from the end so that offsets hold."""

    def __init__(self, doc):
        self.doc = doc
        self.text = doc.text
        self.root = yaml.compose(self.text, Loader=yaml.SafeLoader)
        self.edits: list[tuple[int, int, str, Change]] = []

    def node(self, path):
        """The YAML node at `path` (mapping keys as they are written, list indices), or None."""
        node = self.root
        for element in path:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if k.value == str(element)), None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(element, int) and element < len(node.value):
                node = node.value[element]
            else:
                return None
        return node

    def location(self, index: int) -> Location:
        line = self.text.count("\n", 0, index) + 1
        return Location(_display(self.doc.file), line, index - (self.text.rfind("\n", 0, index) + 1) + 1)

    def replace(self, node, new_text: str, what: str):
        a, b = node.start_mark.index, node.end_mark.index
        if isinstance(node, yaml.CollectionNode) and not node.flow_style:
            b = a + len(self.text[a:b].rstrip())  # a block collection ends where the next token starts
        self.edits.append((a, b, new_text, Change(self.location(a), what)))

    def scalar(self, node, value, what: str):
        """Replace a scalar node by `value` (an int or a text), keeping its quoting style."""
        self.replace(node, _scalar_text(value, node.style), what)

    def insert_key(self, mapping_path, key: str, value_text: str, what: str, after: str | None = None):
        """Add `key: value` to the mapping at `mapping_path`: first, or after the entry `after`."""
        node = self.node(mapping_path)
        if node is None or (isinstance(node, yaml.ScalarNode) and node.tag.endswith(":null")):
            if node is None:
                return False
            self.replace(node, f"{{{key}: {value_text}}}", what)
            return True
        if not isinstance(node, yaml.MappingNode) or not node.value:
            return False
        pairs = node.value
        if after is not None and any(k.value == after for k, _ in pairs):
            k, v = next((k, v) for k, v in pairs if k.value == after)
            end = v.end_mark.index
            if node.flow_style:
                new = f", {key}: {value_text}"
            else:
                end = v.start_mark.index + len(self.text[v.start_mark.index:end].rstrip())
                new = f"\n{' ' * k.start_mark.column}{key}: {value_text}"
            self.edits.append((end, end, new, Change(self.location(k.start_mark.index), what)))
            return True
        first = pairs[0][0]
        at = first.start_mark.index
        if node.flow_style:
            new = f"{key}: {value_text}, "
        else:
            at = self.text.rfind("\n", 0, at) + 1
            new = f"{' ' * first.start_mark.column}{key}: {value_text}\n"
        self.edits.append((at, at, new, Change(self.location(first.start_mark.index), what)))
        return True

    def result(self) -> str:
        text = self.text
        for a, b, new, _ in sorted(self.edits, key=lambda e: (e[0], e[1]), reverse=True):
            text = text[:a] + new + text[b:]
        return text

    def changes(self) -> list[Change]:
        return [c for *_, c in sorted(self.edits, key=lambda e: e[0])]


def _display(file) -> str:
    """A file's name as the command shows it: relative to the working directory when it lies below it."""
    try:
        return str(Path(file).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(file)


def _scalar_text(value, style) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    text = str(value)
    if style == "'":
        return "'" + text.replace("'", "''") + "'"
    if style == '"':
        return json.dumps(text, ensure_ascii=False)
    try:
        plain = yaml.safe_load(text) == text and "\n" not in text
    except yaml.YAMLError:
        plain = False
    return text if plain else json.dumps(text, ensure_ascii=False)


def _flow_text(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1 << 20).strip()


# --------------------------------------------------------------------------- the files

def upgrade(path, variants=(), game=None, check: bool = False) -> Report:
    """Upgrade the files at `path` (a game directory with its scenarios and variants, an overlay with its
    scenario files, a scenario file, or a record) to the current format version; with `check`, write
    nothing. `game` (and `variants`) name the game a scenario file belongs to when its folder does not say."""
    report = Report()
    path = Path(path)
    if path.is_dir():
        _game_dir(path, report, check)
        return report
    if path.suffix not in (".yaml", ".yml"):
        report.problems.append(Problem("not a YAML file: give a game directory, an overlay, a scenario file "
                                       "or a record", Location(str(path), 0, 0)))
        return report
    try:
        doc = load_yaml(path)
    except DefinitionError as ex:
        report.problems.extend(ex.problems)
        return report
    data = doc.data if isinstance(doc.data, dict) else {}
    from ..table.record import is_record
    if is_record(data):
        _record(doc, report, check)
    elif "overlay" in data:
        _overlay(doc, None, list(variants), report, check)
    elif "scenarios" in data:
        loaded = _game_for_scenarios(path, game, list(variants), report)
        if loaded is not None:
            _scenario_file(doc, loaded, report, check)
    else:
        _game_dir(path.parent, report, check)
    return report


def _game_dir(root: Path, report: Report, check: bool):
    from ..definition.model import game_files
    from .scenario import scenario_files
    files = game_files(root)
    if not files:
        report.problems.append(Problem(f"'{root}' is no game directory, overlay, scenario file or record"))
        return
    docs = []
    for f in files:
        try:
            docs.append(load_yaml(f))
        except DefinitionError as ex:
            report.problems.extend(ex.problems)
            return
    heads = [d for d in docs if isinstance(d.data, dict) and "game" in d.data]
    if not heads:
        report.problems.append(Problem(f"no file of '{root}' has the `game:` section that states the version"))
        return
    for d in heads:
        _stamp(d, "game", report, check, "definition")
    game = _load(root, [], report)
    if game is None:
        return
    for f in scenario_files(root):
        try:
            _scenario_file(load_yaml(f), game, report, check)
        except DefinitionError as ex:
            report.problems.extend(ex.problems)
    for f in sorted((root / "variants").glob("*.yaml")) if (root / "variants").is_dir() else []:
        try:
            _overlay(load_yaml(f), root, [], report, check)
        except DefinitionError as ex:
            report.problems.extend(ex.problems)


def _overlay(doc, root, before: list, report: Report, check: bool):
    from ..definition.overlay import scenario_files
    head = doc.data.get("overlay") if isinstance(doc.data, dict) else None
    if not isinstance(head, dict):
        report.problems.append(Problem("an overlay starts with `overlay: {base: GAME}`", doc.where(())))
        return
    _stamp(doc, "overlay", report, check, "overlay")
    folder = Path(doc.file).parent
    if root is None and folder.name == "variants" and any(folder.parent.glob("*.yaml")):
        root = folder.parent  # a game's own variant
    if root is None:
        from ..game import find_game
        try:
            root = find_game(head.get("base"))
        except DefinitionError as ex:
            report.problems.extend(ex.problems)
            return
    files, problems = scenario_files(doc)
    report.problems.extend(problems)
    if not files:
        return
    game = _load(root, before + [doc.file], report)
    if game is None:
        return
    for f in files:
        try:
            _scenario_file(load_yaml(f), game, report, check)
        except DefinitionError as ex:
            report.problems.extend(ex.problems)


def _load(root, variants, report):
    from ..game import load_game
    try:
        return load_game(root, variant=variants or None)
    except DefinitionError as ex:
        report.problems.extend(ex.problems)
        return None


def _game_for_scenarios(path: Path, game, variants, report):
    """The game a scenario file is for: `game` (with `variants`), or the game directory its folder is in."""
    if game is None:
        folder = path.parent
        if folder.name == "scenarios" and any(folder.parent.glob("*.yaml")):
            game = folder.parent
        else:
            report.problems.append(Problem("which game are these scenarios for? give --game GAME (and --variant "
                                           "FILE for a variant's scenarios)", Location(str(path), 0, 0)))
            return None
    from ..game import find_game
    try:
        return _load(find_game(game), variants, report)
    except DefinitionError as ex:
        report.problems.extend(ex.problems)
        return None


def _finish(edits: _Edits, report: Report, check: bool, schema: str | None):
    """Write the edited file (unless check) after making sure it still reads and fits its schema."""
    file = edits.doc.file
    if not edits.edits:
        report.current.append(file)
        return
    new = edits.result()
    try:
        doc = load_yaml_text(new, file)
    except DefinitionError as ex:  # a rewrite that breaks the file is never written
        report.problems.append(Problem(f"the upgraded text would not read ({ex.problems[0].message}); "
                                       "the file is left as it is", Location(file, 0, 0)))
        return
    if schema is not None:
        wrong = validate_document(doc, schema)
        if wrong:
            report.problems.append(Problem(f"the upgraded text would not fit the schema ({wrong[0]}); the "
                                           "file is left as it is", Location(file, 0, 0)))
            return
    report.changes.extend(edits.changes())
    report.rewritten.append(file)
    if not check:
        Path(file).write_text(new, encoding="utf-8")


def _version(doc, header, report) -> int | None:
    version, wrong = versions.header_version(doc, header)
    if wrong is not None:
        report.problems.append(wrong)
        return None
    return version


def _stamp(doc, header: str, report: Report, check: bool, kind: str):
    """A definition's or an overlay's header states the current version (their meaning never changed)."""
    if _version(doc, header, report) is None:
        return
    edits = _Edits(doc)
    _state_version(edits, (header,), doc.data.get(header), f"{kind} of format {{old}}: states format "
                   f"{versions.CURRENT} (its meaning is the same)")
    _finish(edits, report, check, "overlay" if header == "overlay" else "gamedef")


def _state_version(edits: _Edits, path: tuple, holder, what: str):
    old = holder.get("format") if isinstance(holder, dict) else None
    if old == versions.CURRENT:
        return
    what = what.format(old=old or 1)
    if old is not None:
        edits.scalar(edits.node(path + ("format",)), versions.CURRENT, what)
    elif path:
        edits.insert_key(path, "format", str(versions.CURRENT), what)
    else:
        key = edits.node(())
        first = key.value[0][0] if isinstance(key, yaml.MappingNode) and key.value else None
        at = edits.text.rfind("\n", 0, first.start_mark.index) + 1 if first is not None else 0
        edits.edits.append((at, at, f"format: {versions.CURRENT}\n", Change(edits.location(at), what)))


def _record(doc, report: Report, check: bool):
    version = versions.record_version(doc.data.get("format", f"{versions.RECORD_PREFIX}1"))
    if version is None or version > versions.CURRENT:
        report.problems.append(Problem(f"format: {doc.data.get('format')!r} is not a record format this meeple "
                                       f"reads (meeple-record/1 to meeple-record/{versions.CURRENT})",
                                       doc.where(("format",))))
        return
    edits = _Edits(doc)
    new = f"{versions.RECORD_PREFIX}{versions.CURRENT}"
    what = f"record of format {version}: states format {versions.CURRENT} (its meaning is the same)"
    if version != versions.CURRENT:
        if "format" in doc.data:
            edits.scalar(edits.node(("format",)), new, what)
        else:
            edits.insert_key((), "format", new, what)
    _finish(edits, report, check, None)


def _scenario_file(doc, game, report: Report, check: bool):
    version = _version(doc, None, report)
    if version is None:
        return
    edits = _Edits(doc)
    if version < 2:
        from .upgrade_scenarios import one_to_two
        report.problems.extend(one_to_two(doc, game, edits))
    _state_version(edits, (), doc.data, "scenario file of format {old}: states format "
                   f"{versions.CURRENT}")
    _finish(edits, report, check, "scenario")
