"""Game records: a self-describing file of one game, enough to play it again with no other input.

    rec = new_record(game, "my_game", players=3, seed=7, options={}, seats=["human", "random", "random"])
    add_action(rec, seat=0, action=chosen, seconds=4.2)
    write_record("game.yaml", rec)
    rec = read_record("game.yaml")              # RecordError (file:line:col: ...) for a bad file
    game, state, log = replay(rec)              # load the game it names and apply its actions

A record is YAML: `format` (`meeple-record/N`, N the format version it was written for:
`interpreter/definition/versions.py`; a record without it is of version 1, one of a later version is
refused), `game` (its id), `path` (how the game was named: a name under gamedefs/ or a
directory), `title`, `definition_hash` (`Game.content_hash`), `variants` (overlay files), `options`,
`players`, `seed`, `seats` (human or a bot name per seat, from seat 1), then `actions`: each the `seat`
(from 1), the action's `id`, its English `label` for readers, and optionally `seconds` taken to decide;
`result` (scores, winners, end triggers) once the game is over. It is read with the hardened loader.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..definition.versions import CURRENT, RECORD_PREFIX, record_version

FORMAT = f"{RECORD_PREFIX}{CURRENT}"
FIELDS = ("format", "game", "path", "title", "definition_hash", "variants", "options", "players", "seed",
          "seats", "actions")


class RecordError(ValueError):
    """A file that is not a readable game record; the message says where and why."""


def new_record(game, path: str, players: int, seed: Any, options: dict | None, seats: list[str],
               variants: list[str] | None = None) -> dict:
    name = game.name.get("en", game.id) if isinstance(game.name, dict) else str(game.name)
    return {"format": FORMAT, "game": game.id, "path": str(path), "title": name,
            "definition_hash": game.content_hash, "variants": [str(v) for v in variants or []],
            "options": dict(options or {}), "players": players, "seed": seed, "seats": list(seats),
            "actions": []}


def add_action(record: dict, seat: int | None, action: dict | str, seconds: float | None = None) -> None:
    entry: dict[str, Any] = {"seat": None if seat is None else seat + 1}
    if isinstance(action, dict):
        entry["id"] = action["id"]
        label = action.get("label")
        if isinstance(label, dict) and label.get("en"):
            entry["label"] = label["en"]
    else:
        entry["id"] = str(action)
    if seconds is not None:
        entry["seconds"] = round(seconds, 2)
    record["actions"].append(entry)


def finish(record: dict, outcome: dict) -> None:
    from ..engine.exact import plain  # an exact fractional score as "n/d"
    record["result"] = {"scores": [plain(v) for v in outcome.get("scores", [])], "winners": [w + 1 for w in outcome.get("winners", [])],
                        "ends": list(outcome.get("ends") or [])}


def dump(record: dict) -> str:
    head = "# meeple game record: replay it with `meeple replay FILE`\n"
    return head + yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=110)


def write_record(path: str | Path, record: dict) -> None:
    """Write the record atomically: a reader (or a run stopped by Ctrl-C) finds the whole file or none."""
    import os
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".record-", suffix=".tmp", dir=path.parent)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as a plain write would make it (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dump(record))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_record(path: str | Path) -> dict:
    """A record read with the hardened loader and checked for shape; RecordError otherwise."""
    return read_located(path)[0]


def read_located(path: str | Path):
    """(the record, where): `where(*path)` is the `file:line:col` of a value of the record (`where("seats",
    1)`), for messages about what the record asks of a game; RecordError for a file that is no record."""
    from ..definition.loader import load_yaml
    from ..definition.problems import DefinitionError

    try:
        doc = load_yaml(path)
    except DefinitionError as exc:
        raise RecordError("; ".join(str(p) for p in exc.problems)) from None
    record = check_record(doc.data, str(path), doc)

    def where(*at) -> str:
        loc = doc.where(at)
        return str(loc) if loc is not None else str(path)
    return record, where


def is_record(data) -> bool:
    """A game record: `format: meeple-record/N`, or every other field of one (read as version 1)."""
    if not isinstance(data, dict):
        return False
    if "format" in data:
        return str(data["format"]).startswith(RECORD_PREFIX)
    return all(f in data for f in FIELDS if f != "format")


def check_record(data, name: str = "<record>", doc=None) -> dict:
    def where(*path) -> str:
        loc = doc.where(path) if doc is not None else None
        return str(loc) if loc is not None else name

    if not is_record(data):
        raise RecordError(f"{where()}: not a meeple game record (expected `format: {FORMAT}`)")
    version = record_version(data.get("format", f"{RECORD_PREFIX}1"))
    if version is None or version < 1:
        raise RecordError(f"{where('format')}: format: {data['format']!r} is not a record format; expected "
                          f"{RECORD_PREFIX}N, N a format version from 1 to {CURRENT}")
    if version > CURRENT:
        raise RecordError(f"{where('format')}: this record is written for format version {version}, and this "
                          f"meeple reads versions 1 to {CURRENT}; install a newer meeple to read it")
    data.setdefault("format", f"{RECORD_PREFIX}1")
    missing = [f for f in FIELDS if f not in data]
    if missing:
        raise RecordError(f"{where()}: the record lacks {', '.join(missing)}")
    if type(data["players"]) is not int:
        raise RecordError(f"{where('players')}: players must be a number")
    if type(data["seed"]) is not int:
        raise RecordError(f"{where('seed')}: the seed must be a whole number")
    for name in ("game", "path"):
        if not isinstance(data[name], str):
            raise RecordError(f"{where(name)}: {name} must be text")
    if not isinstance(data["seats"], list) or len(data["seats"]) != data["players"]:
        raise RecordError(f"{where('seats')}: seats must list one player kind per seat")
    for i, kind in enumerate(data["seats"]):
        if not isinstance(kind, str):
            raise RecordError(f"{where('seats', i)}: seat {i + 1} must be human or a bot spec (text)")
    if not isinstance(data["options"] or {}, dict) or not isinstance(data["variants"] or [], list):
        raise RecordError(f"{where()}: options must be a mapping and variants a list")
    if not isinstance(data["actions"], list):
        raise RecordError(f"{where('actions')}: actions must be a list")
    for i, a in enumerate(data["actions"]):
        if not (isinstance(a, dict) and isinstance(a.get("id"), str)):
            raise RecordError(f"{where('actions', i)}: action {i + 1} needs an `id`")
    data["options"] = data["options"] or {}
    data["variants"] = data["variants"] or []
    return data


def action_ids(record: dict) -> list[str]:
    return [a["id"] for a in record["actions"]]
