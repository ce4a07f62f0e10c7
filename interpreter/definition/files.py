"""Reading an author's files: regular files only, at most a cap of bytes, and each file once per load.

    raw = read_regular(path, max_bytes)      # InputError (located at the file) when it cannot be read
    with read_once():                        # inside, a second read of a path gives the first read's bytes
        ...

A load that hashes its files (the load cache's key) and then compiles them reads them inside `read_once()`,
so the key is computed from exactly the bytes that are compiled, even while an editor saves a file; the
listing of a game's folder is made once too. This module imports nothing heavy: a load from the cache uses
it without the YAML parser.
"""
from __future__ import annotations

import contextlib
import os
import stat

from .problems import InputError, Location, Problem

MAX_FILE_BYTES = 1024 * 1024  # a definition, overlay or scenario file (loader.Limits.max_bytes)

_READ_ONCE: dict | None = None  # inside read_once(): the bytes read of each file (by absolute path)


@contextlib.contextmanager
def read_once():
    """Inside, each file is read from disk once: a later `read_regular` of the same path gives the bytes
    of the first read. A load that hashes its files (the cache's key) and then compiles them so hashes
    exactly the bytes it compiles, even while an editor saves a file. Nested uses share the outer one."""
    global _READ_ONCE
    outer = _READ_ONCE
    if outer is None:
        _READ_ONCE = {}
    try:
        yield
    finally:
        _READ_ONCE = outer


def listed(folder, make) -> list:
    """`make()`, the listing of a folder's files; inside `read_once()` made once per folder, so the files
    hashed are the files compiled even when one is added or removed meanwhile."""
    if _READ_ONCE is None:
        return make()
    k = ("listing", os.path.abspath(folder))
    if k not in _READ_ONCE:
        _READ_ONCE[k] = list(make())
    return list(_READ_ONCE[k])


def read_regular(file: str, max_bytes: int) -> bytes:
    """At most `max_bytes + 1` bytes of a regular file (a FIFO, a device or a directory is refused
    without reading it, so that nothing can make a command wait); InputError when it cannot be read.
    Inside `read_once()`, a file already read is not read again."""
    if _READ_ONCE is None:
        return _read_regular(file, max_bytes)
    k = os.path.abspath(file)
    got = _READ_ONCE.get(k)
    if got is None or (max_bytes > got[0] and len(got[1]) > got[0]):  # unread, or read in part for a smaller cap
        got = _READ_ONCE[k] = (max_bytes, _read_regular(file, max_bytes))
    return got[1][:max_bytes + 1]


def _read_regular(file: str, max_bytes: int) -> bytes:
    try:
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(Problem(f"cannot read file: {reason}", Location(file, 0, 0))) from None
    try:
        with os.fdopen(fd, "rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise InputError(Problem("not a regular file", Location(file, 0, 0),
                                         "give the path of a file"))
            return stream.read(max_bytes + 1)  # never read more than the cap
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError(Problem(f"cannot read file: {reason}", Location(file, 0, 0))) from None
