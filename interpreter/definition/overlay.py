"""Variants and house rules: small overlay files that change a game by path.

    overlay:
      base: market_day                   # the game it changes (a name under gamedefs/ or its id)
      label: {en: Better carts, zh: 更好的手推车}
      description: "Carts pay better: +2 coins on each sale."
    set:                                 # replace values that exist (a new last key is allowed)
      components.tool.types.cart.modifies.sale_bonus: 2
    add:                                 # new entries (their path must not exist yet)
      components.tool.types.wagon: {cost: 9, label: Wagon, modifies: {sale_bonus: 3}}
    remove:                              # entries to take out
      - options.short_game

Paths are the definition's own keys joined by dots (`tables.x.value.by_players.2`). Overlays stack: each
applies to the result of the ones before it. Every problem is located in the overlay that caused it: a path
that does not exist gets a did-you-mean, and the merged game is checked against the schema and compiled
like any other, so a value an overlay sets that breaks a rule is reported at the overlay's line.
"""

from __future__ import annotations

from pathlib import Path

from .loader import Document, load_yaml
from .problems import DefinitionError, Location, Problem, close_matches, did_you_mean

OPS = ("set", "add", "remove")


def read_overlay(path) -> tuple[Document, list]:
    """The overlay's document and its own problems (YAML and schema); DefinitionError if unreadable."""
    from .schema import validate_document
    from . import versions
    doc = load_yaml(Path(path), lenient=True)
    version, wrong = versions.header_version(doc, "overlay")
    if wrong is not None and version > versions.CURRENT:  # a later format: the rest would be noise
        raise DefinitionError([wrong])
    return doc, list(doc.problems) + validate_document(doc, "overlay")


def overlay_base(path) -> str | None:
    """The `base` an overlay file names (None when it is not an overlay)."""
    try:
        doc = load_yaml(Path(path), lenient=True)
    except DefinitionError:
        return None
    head = doc.data.get("overlay") if isinstance(doc.data, dict) else None
    return head.get("base") if isinstance(head, dict) else None


def split_path(text) -> list:
    """Path elements: split at dots outside parentheses (a def's key `price(p, b)` stays whole)."""
    out, depth, cur = [], 0, ""
    for ch in str(text):
        if ch == "." and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += (ch == "(") - (ch == ")")
        cur += ch
    out.append(cur)
    return out


def _step(node, element):
    """The key of `node` that the path element names (int keys and list indices from digits; a def by its
    whole key `price(p, b)` or by its name `price`)."""
    if isinstance(node, dict):
        if element in node:
            return element
        if element.lstrip("-").isascii() and element.lstrip("-").isdigit() and int(element) in node:
            return int(element)
        for k in node:
            if isinstance(k, str) and "(" in k and k.split("(", 1)[0].strip() == element.split("(", 1)[0].strip():
                return k
        return None
    if isinstance(node, list) and element.isascii() and element.isdigit() and int(element) < len(node):
        return int(element)
    return None


def _new_key(node, element):
    return int(element) if isinstance(node, dict) and element.isascii() and element.isdigit() and all(
        isinstance(k, int) for k in node) and node else element


def apply_overlays(d, files):
    """Apply overlay files in order to definition `d` (problems go to d.problems)."""
    for f in files:
        try:
            doc, problems = read_overlay(f)
        except DefinitionError as ex:
            d.problems.extend(ex.problems)
            continue
        d.problems.extend(problems)
        if not isinstance(doc.data, dict) or "overlay" not in doc.data:
            if not problems:  # an empty file, or one without its header: never silently nothing
                d.problems.append(Problem("an overlay starts with `overlay: {base: GAME}` and changes something "
                                          "with set, add or remove", doc.where(()) if doc.data is not None
                                          else Location(doc.file, 1, 1)))
            continue
        # A mistake in the header does not hide the others: every path is still checked.
        head = doc.data.get("overlay") if isinstance(doc.data.get("overlay"), dict) else {}
        base = head.get("base")
        game_id = (d["game"] or {}).get("id") if isinstance(d["game"], dict) else None
        if base not in (d.root.name, game_id):
            d.problems.append(Problem(f"this overlay is for '{base}', not for '{d.root.name}'",
                                      doc.where(("overlay", "base"))))
            continue
        d.overlays.append(doc)
        d.problems.extend(scenario_files(doc)[1])
        for path_text, value in _mapping(doc.data.get("set")).items():
            _set(d, doc, path_text, value, adding=False)
        for path_text, value in _mapping(doc.data.get("add")).items():
            _set(d, doc, path_text, value, adding=True)
        removes = doc.data.get("remove")
        for i, path_text in enumerate(removes if isinstance(removes, list) else []):
            _remove(d, doc, path_text, i)
    if d.overlays:
        _check_merged(d)


def scenario_files(doc) -> tuple[list[Path], list[Problem]]:
    """The scenario files an overlay's `scenarios` names, and the problems of its entries. Each entry is
    a path relative to the overlay's folder that stays inside it (no `..` out, no absolute path, no link
    out), naming a regular `.yaml` file or a folder of them."""
    head = doc.data.get("overlay") if isinstance(doc.data, dict) else None
    entries = head.get("scenarios") if isinstance(head, dict) else None
    files, problems = [], []
    if not isinstance(entries, list):
        return files, problems
    base = Path(doc.file).parent.resolve()

    def inside(p: Path) -> bool:
        try:
            return p.resolve().is_relative_to(base)
        except (OSError, RuntimeError):
            return False
    for i, entry in enumerate(entries):
        if not isinstance(entry, str):
            continue  # the schema reports it
        where = doc.where(("overlay", "scenarios", i))
        p = base / entry
        if Path(entry).is_absolute() or not inside(p):
            problems.append(Problem(f"scenario path '{entry}' leaves the overlay's folder", where,
                                    "name a file or folder beside the overlay, e.g. scenarios/"))
        elif p.is_dir():
            files.extend(f for f in sorted(p.glob("*.yaml")) if inside(f) and f.is_file())
        elif p.is_file() and p.suffix == ".yaml":
            files.append(p)
        else:
            problems.append(Problem(f"scenario path '{entry}' is not a .yaml file or a folder", where))
    return files, problems


def _mapping(v):
    return v if isinstance(v, dict) else {}


def _walk_to_parent(d, doc, op_path, path_text):
    """(parent node, real path of the parent, last element) or None after recording a problem."""
    parts = split_path(path_text)
    if parts[0] not in d.sections:
        d.problems.append(Problem(f"unknown section '{parts[0]}'", doc.key_where(op_path),
                                  did_you_mean(parts[0], d.sections)))
        return None
    node = d.sections
    real = []
    for element in parts[:-1]:
        key = _step(node, element)
        if key is None:
            keys = list(node) if isinstance(node, dict) else []
            d.problems.append(Problem(f"'{'.'.join(real + [element])}' does not exist in the base game",
                                      doc.key_where(op_path), did_you_mean(element, [str(k) for k in keys])))
            return None
        real.append(key)
        node = node[key]
        if node is None:
            d.problems.append(Problem(f"'{'.'.join(map(str, real))}' is empty in the base game",
                                      doc.key_where(op_path)))
            return None
    if not isinstance(node, (dict, list)):
        d.problems.append(Problem(f"'{'.'.join(map(str, real))}' is a value, not a mapping", doc.key_where(op_path)))
        return None
    return node, tuple(real), parts[-1]


def _set(d, doc, path_text, value, adding):
    op = "add" if adding else "set"
    op_path = (op, path_text)
    hit = _walk_to_parent(d, doc, op_path, path_text)
    if hit is None:
        return
    parent, real, last = hit
    key = _step(parent, last)
    if adding and key is not None:
        d.problems.append(Problem(f"'{path_text}' already exists in the base game: use set to change it",
                                  doc.key_where(op_path)))
        return
    if not adding and key is None:
        close = close_matches(last, [str(k) for k in parent]) if isinstance(parent, dict) else []
        if close or isinstance(parent, list) or _is_id_map(real):
            # A new entry is written with add; a new key next to a similar one is most likely a typo.
            d.problems.append(Problem(f"'{path_text}' does not exist in the base game (add creates new "
                                      f"entries)", doc.key_where(op_path),
                                      did_you_mean(last, [str(k) for k in parent]) if isinstance(parent, dict)
                                      else None))
            return
    if value is None and _must_be_mapping(real + ((key if key is not None else last),)):
        d.problems.append(Problem(f"'{path_text}' is a mapping of entries, not null: to empty it set it to {{}}, or "
                                  "take entries out with remove", doc.where(op_path)))
        return
    if key is None:
        if isinstance(parent, list):  # only add into a list here; a list grows only at its end: `add` to path.N
            if not (last.isascii() and last.isdigit() and int(last) == len(parent)):
                d.problems.append(Problem(f"'{path_text}': a list takes a new item at its end, index {len(parent)}",
                                          doc.key_where(op_path)))
                return
            parent.append(value)
            d._origin[real + (len(parent) - 1,)] = (doc, op_path)
            return
        key = _new_key(parent, last)
    if isinstance(parent, list):
        parent[key] = value
    else:
        parent[key] = value
    d._origin[real + (key,)] = (doc, op_path)
    if len(real) == 0:
        d._origin[(key,)] = (doc, op_path)


def _must_be_mapping(path) -> bool:
    """A place the engine reads as a mapping whatever the definition says: a section (but the flow and the
    setup), a scope of vars or zones."""
    from .model import ID_MAPS, SCOPED, SINGLE
    n = len(path)
    return ((n == 1 and (path[0] in ID_MAPS or path[0] in SCOPED or (path[0] in SINGLE and path[0] not in
                                                                       ("flow", "setup"))))
            or (n == 2 and path[0] in SCOPED))


def _is_id_map(real) -> bool:
    """Is this place a map of ids (where new entries are added, never set)?"""
    from .model import ID_MAPS, SCOPED
    n = len(real)
    return ((n == 1 and real[0] in ID_MAPS) or (n == 2 and real[0] in SCOPED)
            or (n == 3 and real[0] == "components" and real[2] in ("types", "fields", "properties"))
            or (n == 3 and real[0] == "steps" and real[2] == "actions"))


def _remove(d, doc, path_text, i):
    op_path = ("remove", i)
    hit = _walk_to_parent(d, doc, op_path, path_text)
    if hit is None:
        return
    parent, real, last = hit
    key = _step(parent, last)
    if not real:  # a whole section: the schema names the mistake; removing it would leave no section at all
        return
    if key is None:
        d.problems.append(Problem(f"'{path_text}' does not exist in the base game", doc.where(op_path),
                                  did_you_mean(last, [str(k) for k in parent]) if isinstance(parent, dict) else None))
        return
    del parent[key]
    # What the removed entry leaves missing is the overlay's doing: locate it at the removal.
    d._origin[real + (key,)] = (doc, op_path)


class _MergedView:
    """The merged sections as a document for the schema check, locating through the definition."""

    def __init__(self, d):
        self.d = d
        self.data = {k: v for k, v in d.sections.items() if v not in (None, {}) and
                     not (k in ("vars", "zones") and not any(v.values()))}
        self.file = str(d.root)

    def resolve(self, path):
        return Document.resolve(self, path)

    def where(self, path):
        return self.d.where(tuple(path))

    def key_where(self, path):
        return self.d.key_where(tuple(path))


def _check_merged(d):
    from .schema import validate_document
    seen = {str(p) for p in d.problems}
    for p in validate_document(_MergedView(d)):
        if str(p) not in seen:
            seen.add(str(p))
            d.problems.append(p)


# ------------------------------------------------------------------ rules diff
def diff(base, variant, prefix=()):
    """[(path, old, new)] for every value that differs between two definitions' sections."""
    out = []
    if isinstance(base, dict) and isinstance(variant, dict):
        for k in list(base) + [k for k in variant if k not in base]:
            if k in ("label", "source", "provisional", "description", "note") and prefix:
                continue
            if k not in variant:
                out.append((prefix + (k,), base[k], None))
            elif k not in base:
                out.append((prefix + (k,), None, variant[k]))
            else:
                out.extend(diff(base[k], variant[k], prefix + (k,)))
        return out
    if base != variant:
        out.append((prefix, base, variant))
    return out


def blame_overlays(d, problems: list) -> list:
    """Problems of a game with overlays, with those the base game alone does not have located in the overlay
    that caused them: at the change whose path names something on the reported line (else the last
    overlay's first change), the base file's place kept in the message."""
    from ..game import Game
    from .model import load_definition
    try:
        Game(load_definition(d.root, []))
        base: set = set()
    except DefinitionError as ex:
        base = {str(p) for p in ex.problems}
    except Exception:  # the base game cannot be judged alone: keep the problems as they are
        return problems
    files = {doc.file for doc in d.overlays}
    changes = [(doc, op, str(path)) for doc in d.overlays for op in OPS
               for path in (_mapping(doc.data.get(op)) if op != "remove" else
                            {p: None for p in (doc.data.get("remove") or []) if isinstance(p, str)})]
    out = []
    for p in problems:
        loc = p.location
        if loc is None or loc.file in files or str(p) in base or loc.line <= 0 or not changes:
            out.append(p)
            continue
        line = _line_of(d, loc)
        doc, op, path = next(((doc, op, path) for doc, op, path in changes
                              if any(len(e) > 2 and e in line for e in split_path(path))), changes[-1])
        at = doc.key_where((op, path)) if op != "remove" else doc.where(("remove", doc.data["remove"].index(path)))
        out.append(Problem(f"{p.message} (at {loc}, after the overlay's change of {path})", at, p.hint, p.severity))
    return out


def _line_of(d, loc) -> str:
    for doc in d.docs:
        if doc.file == loc.file:
            lines = doc.text.split("\n")
            return lines[loc.line - 1] if 0 < loc.line <= len(lines) else ""
    return ""
