"""The tables a server holds: at most `max_tables`, each dropped when nobody moved in it for a while.

    store = TableStore(config)
    store.add(table)          # Full (a 503) when the server holds its most tables, the expired let go first
    store[tid]; store.get(tid); store.public(); store.expire()

An unfinished table expires `table_idle_hours` after its last move; a finished one keeps its record
`finished_days`. With a database (`webdb`), every table is also written there at each decision and read
back when the server starts.
"""
from __future__ import annotations

import threading
import time


class Full(Exception):
    """The server holds its most tables."""


class TableStore:
    def __init__(self, config, db=None):
        self.config, self.db = config, db
        self.tables: dict = {}
        self.lock = threading.RLock()

    # ------------------------------------------------------------------ a dict of tables
    def __getitem__(self, tid):
        return self.tables[tid]

    def __setitem__(self, tid, table):
        self.add(table)

    def __contains__(self, tid) -> bool:
        return tid in self.tables

    def __len__(self) -> int:
        return len(self.tables)

    def get(self, tid, default=None):
        return self.tables.get(tid, default)

    def values(self) -> list:
        with self.lock:
            return list(self.tables.values())

    # ------------------------------------------------------------------ keeping
    def add(self, table) -> None:
        with self.lock:
            if len(self.tables) >= self.config.max_tables:
                self.expire()
            if len(self.tables) >= self.config.max_tables:
                raise Full()
            self.tables[table.id] = table
        self.save(table)

    def save(self, table) -> None:
        """Write the table to the database (when there is one): at each decision, in one transaction."""
        if self.db is not None:
            self.db.save(table)

    def public(self) -> list:
        return [t for t in self.values() if t.public and not t.over]

    def expire(self, now: float | None = None) -> int:
        """Drop the tables whose time is up; how many."""
        now = time.time() if now is None else now
        idle, finished = self.config.table_idle_hours * 3600, self.config.finished_days * 86400
        with self.lock:
            gone = [tid for tid, t in self.tables.items() if now - t.touched > (finished if t.over else idle)]
            for tid in gone:
                del self.tables[tid]
        if self.db is not None and gone:
            self.db.delete(gone)
        return len(gone)
