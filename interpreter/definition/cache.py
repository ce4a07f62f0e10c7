"""Load once: a game's checked definition, its parsed rules and its generated code, kept per user on disk.

    game = load_cached(root, overlays, make_game)   # what load_game does

Loading a game reads YAML, checks it against the schemas, parses every rule and compiles it. All of that
depends only on the text of the game's files (and of its overlays) and on the engine. So the first load
of a game stores, in one file of a per-user cache directory, the checked definition (data, positions in
the files), the tree of every rule text, the code object of every generated function and the defs found
not pure; a later load (in any process) finds that file by a key hashed from the engine and the files,
and skips the YAML parser, the schema checker, the rule parser and the trial compiles of those defs.
The compiler still runs (it is what ties names to slots), but on trees and code it does not have to make
again.

The cache is a convenience, never a source of truth:
- the key covers the text of every file read, the engine's own source, schemas and grammar, the Python
  version and the working directory (file names in messages are relative to it): a change of any of them
  is a miss; each file is read once (`files.read_once`), so the key is hashed from the very bytes that
  are compiled, even when a file is saved during the load;
- the directory is `$MEEPLE_CACHE_DIR`, else `$XDG_CACHE_HOME/meeple`, else `~/.cache/meeple`, created
  with mode 0700; it is used only when it is a real directory owned by this user that nobody else may
  read or write, and an entry only when it is a regular file owned by this user that nobody else may
  write (the entry holds code, so it must be as trusted as the user's own files);
- an entry is plain data and code objects in `marshal` format (no pickle; a rule's tree as a flat list, so
  no rule is too deep to store), behind a header with its
  SHA-256; written to a temporary file in the same directory and renamed, so a reader sees a whole
  entry or none; anything unexpected (a bad header, a checksum or key mismatch, an error while reading)
  is a miss, and the game is loaded from its files as if there were no cache;
- a definition with problems is never stored (its problems are reported from the files each time);
- `MEEPLE_CACHE=off` turns it off; at most MAX_ENTRIES entries are kept (the oldest go first).
"""
from __future__ import annotations

import functools
import hashlib
import marshal
import os
import stat
import sys
import tempfile
import time
from pathlib import Path

from .files import read_once

MAGIC = b"meeple-cache 2\n"
MAX_ENTRIES = 64
MAX_BYTES = 64 << 20  # an entry larger than this is not read (a PR entry is well under 1 MiB)


def directory() -> Path | None:
    """The cache directory, or None when the cache is off or this platform cannot check ownership."""
    if os.environ.get("MEEPLE_CACHE", "").lower() in ("0", "off", "no", "false"):
        return None
    if not hasattr(os, "getuid"):
        return None
    base = os.environ.get("MEEPLE_CACHE_DIR")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    root = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return root / "meeple"


def _private_dir(path: Path) -> bool:
    """Create `path` (0700) if needed; whether it is a directory of this user that only this user can use."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of what decides how files become a game: this engine's source, schemas and grammar, the
    cache format and the Python version (code objects are specific to it)."""
    return fingerprint_of(engine_folders())


def engine_folders() -> list[Path]:
    """The folders whose files make the engine: all of interpreter/, the schemas and the grammar."""
    from .resources import data_dir
    folders = [Path(__file__).resolve().parent.parent]
    for name in ("schemas", "grammar"):
        try:
            folders.append(data_dir(name))
        except FileNotFoundError:
            pass
    return folders


def fingerprint_of(folders) -> str:
    """The hash of the cache format, the Python version and the name and text of every source file
    (`_source_files`) of `folders`."""
    h = hashlib.sha256(MAGIC + sys.version.encode() + str(marshal.version).encode())
    for folder in folders:
        for name, path in _source_files(folder):
            with open(path, "rb") as f:
                _feed(h, name.encode(), f.read())
    return h.hexdigest()


def _source_files(folder: Path) -> list:
    """(name relative to `folder`, path) of every .py, .json and .lark file under it, sorted by name.
    os.walk rather than Path.rglob: a load from the cache pays this, and rglob took 4-6 ms of it."""
    out = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(top, folder)
        for f in files:
            if f.endswith((".py", ".json", ".lark")):
                out.append((f if rel == "." else f"{rel}/{f}", os.path.join(top, f)))
    out.sort()
    return out


def _feed(h, *parts: bytes):
    for p in parts:
        h.update(len(p).to_bytes(8, "big"))
        h.update(p)


def key(root, overlays) -> str:
    """The key of a game directory with its overlay files: the engine, the working directory, and the
    name and text of every file the loader reads."""
    from .files import MAX_FILE_BYTES, read_regular
    from .model import game_files
    h = hashlib.sha256(engine_fingerprint().encode())
    _feed(h, os.getcwd().encode("utf-8", "surrogatepass"), str(root).encode("utf-8", "surrogatepass"))
    for kind, files in ((b"file", game_files(Path(root))), (b"overlay", [Path(o) for o in overlays])):
        for f in files:
            # as the loader reads it (inside read_once(): the very bytes it will compile)
            _feed(h, kind, str(f).encode("utf-8", "surrogatepass"), read_regular(str(f), MAX_FILE_BYTES))
    return h.hexdigest()


# ------------------------------------------------------------------ reading and writing entries
def read(folder: Path, k: str):
    """The payload stored under key k, or None (a miss) for anything but a whole, trusted entry."""
    path = folder / f"{k}.bin"
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o022
                or st.st_size > MAX_BYTES):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            blob = f.read()
    except OSError:
        return None
    finally:
        os.close(fd)
    head = len(MAGIC) + 65
    if not blob.startswith(MAGIC) or len(blob) < head:
        return None
    digest, body = blob[len(MAGIC):head - 1], blob[head:]
    if hashlib.sha256(body).hexdigest().encode() != digest:
        return None
    try:
        payload = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    if not isinstance(payload, dict) or payload.get("key") != k:
        return None
    return payload


def write(folder: Path, k: str, payload: dict) -> bool:
    """Store payload under key k, atomically; False (and nothing left behind) if it cannot be done."""
    try:
        body = marshal.dumps(dict(payload, key=k))
    except ValueError:  # something that is not plain data: do not cache it
        return False
    blob = MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)  # mode 0600
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.replace(tmp, folder / f"{k}.bin")
        tmp = None
    except OSError:
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    _evict(folder)
    return True


def _evict(folder: Path):
    """Keep the newest MAX_ENTRIES entries."""
    try:
        entries = sorted(folder.glob("*.bin"), key=lambda p: p.stat().st_mtime)
        for p in entries[:-MAX_ENTRIES]:
            p.unlink()
    except OSError:
        pass


# ------------------------------------------------------------------ loading a game through the cache
def load_cached(root, overlays, make_game):
    """`make_game(load_definition(root, overlays))`, through the cache when it is on (see the module doc).
    The game's `load_source` says where it came from: "cache" or "files"."""
    from ..language import compiler
    from ..language import dsl
    from ..language import puredefs
    from .model import load_definition
    folder = directory()
    if folder is None or not _private_dir(folder):
        game = make_game(load_definition(root, overlays))
        game.load_source = "files"
        return game
    with read_once():  # the key is hashed from the bytes that are compiled: each file is read once
        return _load_cached(folder, root, overlays, make_game)


def _load_cached(folder, root, overlays, make_game):
    from ..language import compiler
    from ..language import dsl
    from ..language import puredefs
    from .model import load_definition
    from .problems import InputError
    try:
        k = key(root, overlays)
    except (OSError, InputError):  # a file that cannot be read: the load from the files says why
        k = None
    payload = read(folder, k) if k is not None else None
    if payload is not None:
        try:
            definition = decode_definition(payload["definition"])
            dsl.TREES.update((tuple(x), decode_tree(t)) for x, t in payload["trees"])
            compiler.CODES.update(payload["codes"])
            impure = [(name, tuple(types)) for name, types in payload["impure_defs"]]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            definition = None  # not an entry this code can read: a miss
        if definition is not None:
            puredefs.assume_impure(impure)
            try:
                game = make_game(definition)
            finally:
                puredefs.assume_impure()
            game.load_source = "cache"
            return game
    trees, codes, impure = dsl.record(), compiler.record(), puredefs.record_impure()
    try:
        definition = load_definition(root, overlays)
        game = make_game(definition)  # raises DefinitionError for a definition with problems
    finally:
        dsl.record(None)
        compiler.record(None)
        puredefs.record_impure(None)
    game.load_source = "files"
    if k is not None:
        try:
            entry = {"definition": encode_definition(definition),
                     "trees": [(list(x), encode_tree(dsl.TREES[x])) for x in trees if x in dsl.TREES],
                     "codes": {src: compiler.CODES[src] for src in codes if src in compiler.CODES},
                     "impure_defs": [[name, list(types)] for name, types in impure],
                     "made": time.time()}
        except (TypeError, ValueError, AttributeError):
            entry = None  # something this format does not cover: no entry
        if entry is not None:
            write(folder, k, entry)
    return game


# ------------------------------------------------------------------ the definition as plain data
def encode_definition(d) -> dict:
    docs = list(d.docs)
    for doc in d.overlays:
        if not any(doc is x for x in docs):
            docs.append(doc)
    index = {id(doc): i for i, doc in enumerate(docs)}
    if d.problems:
        raise ValueError("a definition with problems is not cached")
    return {
        "root": str(d.root),
        "docs": [_encode_doc(doc) for doc in docs],
        "main": [index[id(doc)] for doc in d.docs],
        "overlays": [index[id(doc)] for doc in d.overlays],
        "sections": d.sections,
        "origin": [(list(p), index[id(doc)], list(q)) for p, (doc, q) in d._origin.items()],
    }


def decode_definition(data: dict):
    from .model import Definition
    d = Definition.__new__(Definition)
    d.root = Path(data["root"])
    docs = [_decode_doc(x) for x in data["docs"]]
    d.docs = [docs[i] for i in data["main"]]
    d.overlays = [docs[i] for i in data["overlays"]]
    d.sections = data["sections"]
    d._origin = {tuple(p): (docs[i], tuple(q)) for p, i, q in data["origin"]}
    d.problems = []
    return d


def _encode_doc(doc) -> dict:
    positions = []
    for path, pos in doc._positions.items():
        node = pos.node
        n = None
        if node is not None:
            n = (node.value if isinstance(node.value, str) else None, node.style, node.tag,
                 _mark(node.start_mark), _mark(node.end_mark))
        positions.append((list(path), pos.key, pos.value, n))
    return {"data": doc.data, "file": doc.file, "text": doc.text, "positions": positions,
            "line_starts": doc._line_starts,
            "offsets": [(list(p), v) for p, v in doc._offsets.items()]}


def _mark(m):
    return (m.index, m.line, m.column)


def _decode_doc(x: dict):
    from .document import Document, _Pos
    doc = Document.__new__(Document)
    doc.problems = []
    doc.data = x["data"]
    doc.file = x["file"]
    doc.text = x["text"]
    positions = {}
    for path, k, v, n in x["positions"]:
        positions[tuple(path)] = _Pos(tuple(k) if k is not None else None, tuple(v),
                                      _Scalar(*n) if n is not None else None)
    doc._positions = positions
    doc._line_starts = x["line_starts"]
    doc._offsets = {tuple(p): v for p, v in x["offsets"]}
    doc._value_lines = {}
    return doc


class _Mark:
    """Where a scalar starts or ends in its file (what the loader reads of a YAML mark)."""

    __slots__ = ("index", "line", "column")

    def __init__(self, index, line, column):
        self.index, self.line, self.column = index, line, column


class _Scalar:
    """What the loader reads of a YAML scalar node to place positions inside its text."""

    __slots__ = ("value", "style", "tag", "start_mark", "end_mark")

    def __init__(self, value, style, tag, start, end):
        self.value, self.style, self.tag = value, style, tag
        self.start_mark, self.end_mark = _Mark(*start), _Mark(*end)


# ------------------------------------------------------------------ rule trees as plain data
def encode_tree(t) -> list:
    """The tree as a flat list of its nodes, children before their parent and the root last, a node naming
    its children by their places in the list: no nesting, so a rule of any depth (an `and` of 500 terms)
    is stored without recursion, by this function, by `decode_tree` or by marshal."""
    from lark import Token
    out: list = []
    place: dict = {}  # id of a node already listed -> its place
    todo = [(t, False)]
    while todo:
        node, children_listed = todo.pop()
        if isinstance(node, Token):
            place[id(node)] = len(out)
            out.append((1, node.type, str(node), node.start_pos, node.line, node.column, node.end_line,
                        node.end_column, node.end_pos))
        elif children_listed:
            meta = node._meta.__dict__ if getattr(node, "_meta", None) is not None else None
            place[id(node)] = len(out)
            out.append((0, str(node.data), meta, [place[id(c)] for c in node.children]))
        else:
            todo.append((node, True))
            todo.extend((c, False) for c in reversed(node.children))
    return out


def decode_tree(entries):
    """The tree `encode_tree` listed, built without Lark's constructors (a few thousand nodes a game)."""
    from lark import Token, Tree
    from lark.tree import Meta
    new, snew = object.__new__, str.__new__
    built: list = []
    for x in entries:
        if x[0] == 1:
            tok = snew(Token, x[2])
            (tok.type, tok.value, tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column,
             tok.end_pos) = x[1:]
            built.append(tok)
            continue
        meta = None
        if x[2] is not None:
            meta = new(Meta)
            meta.__dict__.update(x[2])
        tree = new(Tree)
        tree.data, tree.children, tree._meta = x[1], [built[i] for i in x[3]], meta
        built.append(tree)
    return built[-1]
