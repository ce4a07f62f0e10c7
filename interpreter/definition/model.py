"""A game definition: the YAML files of a game directory merged into one set of sections.

Each top-level key of a file is a section. Id-map sections from several files are merged, and an id defined
twice is an error naming both places. The merged definition remembers which document every entry came
from, so any problem found later can point at `file:line:col`.
"""

from __future__ import annotations

from pathlib import Path

from .document import Document
from .problems import DefinitionError, Location, Problem

# Sections that are one mapping (or list/string) rather than a map of ids.
SINGLE = ("game", "flow", "setup", "scoring", "end", "display", "words")
# Sections with two scopes, each a map of ids.
SCOPED = ("vars", "zones")
ID_MAPS = ("options", "disputes", "kinds", "tables", "resources", "parameters", "components", "defs", "events",
           "hooks", "phases", "steps", "procedures", "scripted_seats", "labels")
SECTIONS = SINGLE + SCOPED + ID_MAPS


class Definition:
    """The merged sections of a game and where each entry was written."""

    def __init__(self, root: Path):
        self.root = root
        self.sections: dict = {k: ({} if k not in ("flow", "setup") else None) for k in SECTIONS}
        self.sections["vars"] = {"global": {}, "player": {}}
        self.sections["zones"] = {"global": {}, "player": {}}
        self.docs: list[Document] = []
        self.overlays: list[Document] = []
        # definition path prefix -> (document, the same place's path in that document); overlays add
        # deeper prefixes, so the longest match names the file that last wrote a value.
        self._origin: dict[tuple, tuple] = {}
        self.problems: list[Problem] = []
        self.format = 1  # the format version the definition states (`game.format`; versions.py)

    def __getitem__(self, key):
        return self.sections[key]

    def _source(self, path: tuple):
        path = tuple(path)
        for n in range(len(path), 0, -1):
            hit = self._origin.get(path[:n])
            if hit is not None:
                doc, prefix = hit
                return doc, prefix + path[n:]
        return (self.docs[0], path) if self.docs else (None, path)

    def doc_for(self, path: tuple) -> Document | None:
        return self._source(path)[0]

    def where(self, path: tuple) -> Location | None:
        d, p = self._source(path)
        return d.where(p) if d is not None else None

    def key_where(self, path: tuple) -> Location | None:
        d, p = self._source(path)
        return d.key_where(p) if d is not None else None

    def locate(self, path: tuple, line: int = 1, col: int = 1) -> Location | None:
        """The file position of (line, col) inside the DSL string found at `path`."""
        d, p = self._source(path)
        if d is None:
            return None
        try:
            return d.locate_in_scalar(p, line, col)
        except Exception:  # an odd scalar: the start of the value is close enough
            return d.where(p)

    def add(self, doc: Document, problems: list[Problem]):
        self.docs.append(doc)
        data = doc.data
        if data is None:
            return
        if not isinstance(data, dict):
            problems.append(Problem("a game file must be a mapping of sections", doc.where(())))
            return
        for section, body in data.items():
            if section not in SECTIONS:
                continue  # the schema reports unknown sections
            if section in SINGLE:
                if (section,) in self._origin:
                    first = self._origin[(section,)][0]
                    problems.append(Problem(f"section '{section}' is defined in two files",
                                            doc.key_where((section,)),
                                            f"first defined at {first.key_where((section,))}"))
                    continue
                self._origin[(section,)] = (doc, (section,))
                self.sections[section] = body
            elif section in SCOPED:
                if not isinstance(body, dict):
                    continue
                for scope, entries in body.items():
                    if scope not in ("global", "player", "piece") or not isinstance(entries, dict):
                        continue
                    self.sections[section].setdefault(scope, {})  # piece zones, when a game has some
                    self._merge(doc, (section, scope), entries, self.sections[section][scope], problems)
            else:
                if isinstance(body, dict):
                    self._merge(doc, (section,), body, self.sections[section], problems)

    def _merge(self, doc, prefix, entries, into, problems):
        for key, value in entries.items():
            path = prefix + (key,)
            if key in into:
                first = self._origin[path][0]
                problems.append(Problem(f"'{key}' is defined twice in {'.'.join(prefix)}",
                                        doc.key_where(path), f"first defined at {first.key_where(path)}"))
                continue
            into[key] = value
            self._origin[path] = (doc, path)


def game_files(root: Path) -> list[Path]:
    """The YAML files of a game directory, by name (listed once inside `loader.read_once()`)."""
    from .files import listed
    return listed(root, lambda: sorted(p for p in Path(root).glob("*.yaml") if p.is_file()))


def load_definition(root: Path, overlays=()) -> Definition:
    """Read, schema-check and merge every YAML file of a game directory.

    Problems found here are kept in `Definition.problems` (not raised) so that the compiler can add its
    own and the author sees them all at once; a file that cannot be read at all is left out."""
    root = Path(root)
    if not root.is_dir():
        from .problems import InputError
        raise InputError([Problem(f"no game directory at '{root}'")])
    files = game_files(root)
    if not files:
        from .problems import InputError
        raise InputError([Problem(f"'{root}' holds no .yaml files")])
    from .loader import load_yaml  # not imported for a definition read back from the cache
    from .schema import validate_document
    from . import versions
    problems: list[Problem] = []
    d = Definition(root)
    for f in files:
        try:
            doc = load_yaml(f, lenient=True)
        except DefinitionError as ex:
            problems.extend(ex.problems)
            continue
        version, wrong = versions.header_version(doc, "game")
        if wrong is not None and version > versions.CURRENT:
            # A definition of a later format: what this engine would say about the rest is noise.
            raise DefinitionError([wrong])
        d.format = max(d.format, version)
        problems.extend(doc.problems)
        problems.extend(validate_document(doc))
        d.add(doc, problems)
    d.problems = problems
    if overlays:
        from .overlay import apply_overlays
        apply_overlays(d, overlays)
    return d
