"""The identity of a loaded definition: one hash of the text of every file it was read from.

Two loads with the same hash read the same rules (the same files, in the same order, with the same
overlays), so a record, a cache entry or a worker on another machine can tell whether it has the game
it expects. Paths are left out (the same game checked out elsewhere has the same hash); file names
are kept, since the order of merging follows them.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


def content_hash(definition) -> str:
    """The SHA-256 (hex) of the definition's documents, then its overlays, each by name and text."""
    h = hashlib.sha256()
    for kind, docs in (("doc", definition.docs), ("overlay", definition.overlays)):
        for doc in docs:
            for part in (kind, Path(doc.file).name, doc.text):
                data = part.encode("utf-8", "surrogatepass")
                h.update(len(data).to_bytes(8, "big"))
                h.update(data)
    return h.hexdigest()
