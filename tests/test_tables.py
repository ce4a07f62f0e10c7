"""A game at the web table: every action is for a version of the position (a repeated or stale one is
refused, never applied to a newer position), undo takes back only the seat's own last decision while no
other seat has decided since, bots decide on a copy and a decision for a position that is gone is
dropped, and a table is its state and record: kilobytes, sharing its compiled game."""
import tracemalloc

import pytest

from interpreter.game import load_game
from interpreter.table.tables import Refused, Table
from interpreter.table.webgames import Catalog
from test_terminal_table import TALLY


def first_number(table, seat):
    return min(m["number"] for m in table.menu(seat))


def test_a_repeated_or_stale_action_is_refused_and_changes_nothing():
    table = Table(load_game("phoenicia"), "phoenicia", 2, 1, ["human", "human"])
    seat, version = table.to_move(), table.version
    table.act(seat, first_number(table, seat), version)
    state, actions = table.state, len(table.record["actions"])
    for _ in range(3):                              # the same click again, and again
        with pytest.raises(Refused, match="moved on") as info:
            table.act(seat, 1, version)
        assert info.value.conflict
    assert table.state is state and len(table.record["actions"]) == actions and table.version == version + 1


def test_undo_takes_back_only_the_seats_own_last_decision(tmp_path):
    from games import make_game

    table = Table(make_game(tmp_path, TALLY), "tally", 2, 1, ["human", "human"])
    start = table.state
    with pytest.raises(Refused, match="Nothing to undo"):
        table.undo(0)
    table.act(0, 1)                                  # seat 1 counts one
    with pytest.raises(Refused, match="Another seat"):
        table.undo(1)                                # seat 2 cannot take back seat 1's decision
    assert table.page(0)["can_undo"] and not table.page(1)["can_undo"]
    table.undo(0, table.version)
    assert table.state is start and table.record["actions"] == [] and table.logs[0][-1] == "Player 1: Undo"
    table.act(0, 1)
    table.act(1, 1)                                  # now seat 2 decided since
    with pytest.raises(Refused, match="Another seat") as info:
        table.undo(0)
    assert info.value.conflict and len(table.record["actions"]) == 2


def test_undo_of_a_decision_that_revealed_something_is_refused(tmp_path):
    from games import make_game

    table = Table(make_game(tmp_path, TALLY), "tally", 2, 1, ["human", "human"])
    table.act(0, 2)                                  # seat 1 draws a card into its hidden hand
    assert not table.page(0)["can_undo"]
    with pytest.raises(Refused, match="showed something that was hidden"):
        table.undo(0)


def test_a_bots_decision_for_a_position_that_is_gone_is_dropped(tmp_path):
    from games import make_game

    table = Table(make_game(tmp_path, TALLY), "tally", 2, 1, ["human", "random"], bots_now=False)
    table.act(0, 1)
    seat, version, state, legal = table.bot_turn()
    assert seat == 1 and state is not table.state          # the bot thinks on a copy
    table.undo(0)                                          # meanwhile seat 1 takes its decision back
    assert table.bot_move(seat, version, legal[0]) is False
    assert table.to_move() == 0 and table.bot_turn() is None


def test_tables_share_one_compiled_game_and_each_is_kilobytes():
    catalog = Catalog()
    game = catalog.game("puerto_rico")
    assert catalog.game("puerto_rico") is game and catalog.game("puerto_rico", ("two_players",)) is not game
    Table(game, "puerto_rico", 4, 0, ["human", "random", "random", "random"])   # what is made once per game
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tables = [Table(game, "puerto_rico", 4, seed, ["human", "random", "random", "random"]) for seed in range(10)]
    for t in tables:
        t.act(0, first_number(t, 0))
    per_table = (tracemalloc.get_traced_memory()[0] - before) / len(tables)
    tracemalloc.stop()
    assert all(t.game is game for t in tables)
    assert per_table < 512 * 1024, f"{per_table / 1024:.0f} KiB per table"
