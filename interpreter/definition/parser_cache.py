"""A per-user cache of the DSL parser's LALR tables, stored as JSON (never a pickle).

Contract:

- `build(grammar_text, options, runtime)` returns a Lark parser equal to `Lark(grammar_text, **options,
  **runtime)`; `runtime` holds the options that are objects (the post-lexer, callbacks), never stored.
- The cache is one JSON file per grammar, Lark version and Python version, in a directory of the user's
  own: `$MEEPLE_CACHE_DIR`, else `$XDG_CACHE_HOME/meeple`, else `~/.cache/meeple`. The directory is
  created with mode 0700; it and the file are used only when owned by the current user and writable by
  nobody else. The file holds the tables and the SHA-256 of their text, checked before use.
- Written atomically (a temporary file in the same directory, then renamed). Any failure to read or
  write the cache (read-only home, foreign owner, corrupt file) falls back to building the tables:
  the cache only saves time (about 70 ms a process), it never changes a result.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import tempfile
from pathlib import Path

from lark import Lark
from lark.grammar import Rule
from lark.lark import _LOAD_ALLOWED_OPTIONS
from lark.lexer import TerminalDef
import lark

MAX_CACHE_BYTES = 4 * 1024 * 1024


def cache_dir() -> Path | None:
    """The user's cache directory for meeple (None when there is no home to put it in)."""
    explicit = os.environ.get("MEEPLE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "meeple"
    try:
        return Path.home() / ".cache" / "meeple"
    except (RuntimeError, KeyError):
        return None


def _private(st: os.stat_result, kind) -> bool:
    """Owned by this user, of the expected kind, and writable by nobody else."""
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return owner_ok and kind(st.st_mode) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _key(grammar_text: str, options: dict) -> str:
    ident = json.dumps([grammar_text, sorted(options.items(), key=lambda kv: kv[0]), lark.__version__,
                        sys.version_info[:2]], default=str)
    return hashlib.sha256(ident.encode()).hexdigest()[:32]


def _int_keys(d: dict) -> dict:
    """JSON turns Lark's integer memo and state keys into strings: turn them back."""
    return {int(k) if k.isascii() and k.isdigit() else k: v for k, v in d.items()}


def _read(path: Path):
    """The verified tables at `path`, or None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not _private(st, stat.S_ISREG) or st.st_size > MAX_CACHE_BYTES:
            return None
        raw = f.read(MAX_CACHE_BYTES + 1)
    try:
        digest, _, body = raw.partition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() != digest:
            return None
        return json.loads(body, object_hook=_int_keys)
    except (ValueError, UnicodeDecodeError):
        return None


def _write(directory: Path, path: Path, tables: dict) -> None:
    body = json.dumps(tables, separators=(",", ":")).encode()
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".parser-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _directory() -> Path | None:
    """The cache directory, created private if missing; None when it is missing or not private."""
    d = cache_dir()
    if d is None:
        return None
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(d)
    except OSError:
        return None
    return d if _private(st, stat.S_ISDIR) and not st.st_mode & stat.S_IRWXO else None


def build(grammar_text: str, options: dict, runtime: dict) -> Lark:
    """The parser of `grammar_text`, from the cache when a verified entry exists."""
    directory = _directory()
    path = directory / f"dsl-{_key(grammar_text, options)}.json" if directory else None
    if path is not None:
        tables = _read(path)
        if tables is not None:
            try:
                return Lark.__new__(Lark)._load(tables, **runtime, propagate_positions=options.get(
                    "propagate_positions", False))
            except Exception:  # a stale or foreign layout: rebuild below
                pass
    parser = Lark(grammar_text, **options, **runtime)
    if path is not None:
        data, memo = parser.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_ALLOWED_OPTIONS}
        try:
            _write(directory, path, {"data": data, "memo": memo})
        except (TypeError, ValueError):
            pass
    return parser
