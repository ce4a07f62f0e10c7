"""A game definition: the YAML files of a game directory merged into one set of sections.

Each top-level key of a file is a section. Id-map sections from several files are merged, and an id defined
twice is an error naming both places. The merged definition remembers which document every entry came
from, so any problem found later can point at `file:line:col`.
"""

from __future__ import annotations

from pathlib import Path

from .loader import Document, load_yaml
from .problems import DefinitionError, Location, Problem

# Sections that are one mapping (or list/string) rather than a map of ids.
SINGLE = ("game", "flow", "setup", "scoring", "end")
# Sections with two scopes, each a map of ids.
SCOPED = ("vars", "zones")
ID_MAPS = ("options", "kinds", "tables", "resources", "parameters", "components", "defs", "events",
           "hooks", "phases", "steps")
SECTIONS = SINGLE + SCOPED + ID_MAPS


class Definition:
    """The merged sections of a game and where each entry was written."""

    def __init__(self, root: Path):
        self.root = root
        self.sections: dict = {k: ({} if k not in ("flow", "setup") else None) for k in SECTIONS}
        self.sections["vars"] = {"global": {}, "player": {}}
        self.sections["zones"] = {"global": {}, "player": {}}
        self.docs: list[Document] = []
        self._origin: dict[tuple, Document] = {}

    def __getitem__(self, key):
        return self.sections[key]

    def doc_for(self, path: tuple) -> Document | None:
        for n in (3, 2, 1):
            d = self._origin.get(tuple(path[:n]))
            if d is not None:
                return d
        return self.docs[0] if self.docs else None

    def where(self, path: tuple) -> Location | None:
        d = self.doc_for(path)
        return d.where(tuple(path)) if d is not None else None

    def locate(self, path: tuple, line: int = 1, col: int = 1) -> Location | None:
        """The file position of (line, col) inside the DSL string found at `path`."""
        d = self.doc_for(path)
        if d is None:
            return None
        try:
            return d.locate_in_scalar(tuple(path), line, col)
        except Exception:  # an odd scalar: the start of the value is close enough
            return d.where(tuple(path))

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
                    first = self._origin[(section,)]
                    problems.append(Problem(f"section '{section}' is defined in two files",
                                            doc.key_where((section,)),
                                            f"first defined at {first.key_where((section,))}"))
                    continue
                self._origin[(section,)] = doc
                self.sections[section] = body
            elif section in SCOPED:
                if not isinstance(body, dict):
                    continue
                for scope, entries in body.items():
                    if scope not in ("global", "player") or not isinstance(entries, dict):
                        continue
                    self._merge(doc, (section, scope), entries, self.sections[section][scope], problems)
            else:
                if isinstance(body, dict):
                    self._merge(doc, (section,), body, self.sections[section], problems)

    def _merge(self, doc, prefix, entries, into, problems):
        for key, value in entries.items():
            path = prefix + (key,)
            if key in into:
                first = self._origin[path]
                problems.append(Problem(f"'{key}' is defined twice in {'.'.join(prefix)}",
                                        doc.key_where(path), f"first defined at {first.key_where(path)}"))
                continue
            into[key] = value
            self._origin[path] = doc


def game_files(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*.yaml") if p.is_file())


def load_definition(root: Path) -> Definition:
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
    from .schema import validate_document
    problems: list[Problem] = []
    d = Definition(root)
    for f in files:
        try:
            doc = load_yaml(f, lenient=True)
        except DefinitionError as ex:
            problems.extend(ex.problems)
            continue
        problems.extend(doc.problems)
        problems.extend(validate_document(doc))
        d.add(doc, problems)
    d.problems = problems
    return d
