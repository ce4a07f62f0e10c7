"""The tables a server holds: at most `max_tables` (the expired let go first), an unfinished table
dropped after `table_idle_hours` without a move, a finished one kept `finished_days`."""
import time

import pytest

from interpreter.game import load_game
from interpreter.table.tables import Table
from interpreter.table.webconfig import ServerConfig
from interpreter.table.webstore import Full, TableStore


def table(game):
    return Table(game, "phoenicia", 2, 1, ["human", "human"])


def test_the_store_holds_at_most_its_cap_and_lets_the_expired_go_first():
    game = load_game("phoenicia")
    store = TableStore(ServerConfig(max_tables=2, table_idle_hours=1))
    a, b = table(game), table(game)
    store.add(a)
    store.add(b)
    with pytest.raises(Full):
        store.add(table(game))
    a.touched = time.time() - 2 * 3600
    c = table(game)
    store.add(c)
    assert a.id not in store and store[c.id] is c and len(store) == 2


class Finished(Table):
    over = True


def test_finished_games_are_kept_longer_than_idle_ones():
    game = load_game("phoenicia")
    store = TableStore(ServerConfig(table_idle_hours=1, finished_days=2))
    idle, done = table(game), Finished(game, "phoenicia", 2, 1, ["human", "human"])
    store.add(idle)
    store.add(done)
    for t in (idle, done):
        t.touched = time.time() - 3 * 3600
    assert store.expire() == 1 and done.id in store and idle.id not in store
    done.touched = time.time() - 3 * 86400
    assert store.expire() == 1 and len(store) == 0
