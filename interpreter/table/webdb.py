"""The web table's database: every table written to SQLite at each decision, read back when the server
starts, so a restarted server (or one killed) resumes every game where it was.

    db = Database("tables.sqlite3")      # or default_path(); ":memory:" keeps nothing past the process
    db.save(table)                       # one transaction: the table's whole row (state, record, version...)
    for data in db.rows(): table = restore(catalog, data, config)
    db.key()                             # the server's secret key (made once): invites and CSRF tokens stay
                                         # valid across restarts

A table's row is JSON (`table_data`): its game by served name and variants, seats (the digests of the
seat tokens only, never a token), the state (`Game.to_json`), the record, each seat's log and menu
numbering, the decisions undo may take back, and its version. Reading it back checks the state like any
saved state (`Game.from_json`); if the game's definition changed since, the record is replayed instead,
and a table whose game is not served any more is left in the database, not resumed. Finished games keep
their row (and so their record for download) until they expire. The file is created readable by its owner
only; SQLite runs in WAL mode, so a killed server loses at most the decision being written.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from pathlib import Path

FORMAT = "meeple-table/1"
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, version INTEGER NOT NULL, over INTEGER NOT NULL,
    touched REAL NOT NULL, data TEXT NOT NULL);
"""


def default_path() -> Path:
    """Where `meeple serve` keeps its tables: `$XDG_DATA_HOME/meeple/tables.sqlite3`, else
    `~/.local/share/meeple/tables.sqlite3`."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "meeple" / "tables.sqlite3"


class Database:
    def __init__(self, path):
        self.path = str(path)
        if self.path != ":memory:":
            folder = Path(self.path).parent
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            if not Path(self.path).exists():
                Path(self.path).touch(mode=0o600)
        self.conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.lock = threading.Lock()
        with self.lock:
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)

    def key(self) -> bytes:
        """The server's secret key, made on first use and kept."""
        with self.lock:
            row = self.conn.execute("SELECT value FROM meta WHERE name = 'key'").fetchone()
            if row is None:
                value = secrets.token_hex(32)
                self.conn.execute("INSERT INTO meta (name, value) VALUES ('key', ?)", (value,))
                return bytes.fromhex(value)
            return bytes.fromhex(row[0])

    def save(self, table) -> None:
        """The table's row, written in one transaction."""
        with table.lock:
            data = json.dumps(table_data(table), ensure_ascii=False, separators=(",", ":"))
            row = (table.id, table.record["path"], table.version, int(table.over), table.touched, data)
        with self.lock:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                self.conn.execute("INSERT OR REPLACE INTO tables (id, game, version, over, touched, data) "
                                  "VALUES (?, ?, ?, ?, ?, ?)", row)
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

    def delete(self, ids) -> None:
        with self.lock:
            self.conn.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in ids])

    def rows(self) -> list[dict]:
        with self.lock:
            found = self.conn.execute("SELECT data FROM tables ORDER BY touched").fetchall()
        out = []
        for (text,) in found:
            try:
                out.append(json.loads(text))
            except ValueError:
                continue
        return out

    def close(self) -> None:
        with self.lock:
            self.conn.close()


# ---------------------------------------------------------------------------------------------- tables

def table_data(t) -> dict:
    """All of a table as plain data (no token, only digests)."""
    g = t.game
    return {
        "format": FORMAT, "id": t.id, "title": t.title, "lang": t.lang, "hot_seat": t.hot_seat, "public": t.public,
        "kinds": t.kinds, "seed": t.seed, "version": t.version, "created": t.created, "touched": t.touched,
        "state": g.to_json(t.state), "record": t.record,
        "sessions": {str(s): d for s, d in t.sessions.items()}, "invites": {str(s): n for s, n in t.invites.items()},
        "logs": {str(s): lines for s, lines in t.logs.items()}, "told": {str(s): n for s, n in t.told.items()},
        "numbering": {str(s): {"step": list(n.step) if n.step else None, "numbers": n.numbers, "top": n.top}
                      for s, n in t.numbering.items()},
        "shown": t.shown,
        "runs": [{"seat": d.seat, "before": g.to_json(d.before), "action": d.action_id, "marks": d.marks}
                 for d in t.runs],
    }


class NotResumed(Exception):
    """A stored table that cannot be played on here (its game is not served, or its state is gone)."""


def restore(catalog, data: dict, config):
    """The table a row holds, its game found by name among the served ones."""
    from .tables import Table
    from .terminal import Numbering
    from .undo import Decision

    if data.get("format") != FORMAT:
        raise NotResumed("not a table of this version of meeple")
    record = data["record"]
    try:
        game = catalog.game(record["path"], tuple(record["variants"]))
    except Exception as exc:
        raise NotResumed(f"its game is not served: {exc}") from None
    state = _state(game, data["state"], record)
    players = record["players"]
    t = Table(game, record["path"], players, data["seed"], data["kinds"], record["options"] or None,
              list(record["variants"]), data["lang"], data["hot_seat"], data["title"], data["public"], data["id"],
              config.log_keep, bots_now=False, bot_ceiling_ms=config.max_bot_ms, state=state)
    t.record = record
    t.version, t.created, t.touched, t.shown = data["version"], data["created"], data["touched"], data["shown"]
    t.sessions = {int(s): d for s, d in data["sessions"].items()}
    t.invites = {int(s): n for s, n in data["invites"].items()}
    t.logs = {int(s): lines for s, lines in data["logs"].items()}
    t.told = {int(s): n for s, n in data["told"].items()}
    for s, n in data["numbering"].items():
        numbering = t.numbering[int(s)] = Numbering()
        numbering.step = tuple(n["step"]) if n["step"] else None
        numbering.numbers, numbering.top = dict(n["numbers"]), n.get("top", 0)
    try:
        for d in data["runs"]:
            t.runs.append(Decision(d["seat"], game.from_json(d["before"]), d["action"], d["marks"]))
    except Exception:  # a position undo would go back to that the game cannot read: nothing to undo
        t.runs.clear()
    return t


def _state(game, data: dict, record: dict):
    """The stored state, checked like any saved state; else the record played again from its seed."""
    from ..engine.playout import new_game

    try:
        return game.from_json(data)
    except Exception:
        pass
    try:
        state = new_game(game, record["players"], record["seed"], record["options"] or None)
        for a in record["actions"]:
            state = game.apply(state, a["id"])
        return state
    except Exception as exc:
        raise NotResumed(f"its position cannot be read or played again: {exc}") from None
