"""meters: a game compiled with a read meter counts its rules' reads of the names asked, and plays exactly as
without one; a game compiled without one carries no meter code."""
import pytest

from conftest import ROOT
from interpreter.engine.playout import play_game
from interpreter.game import load_game
from interpreter.language.meters import ReadMeter

MARKET = ROOT / "examples" / "market_day"
NAMES = {("table", "start_price"), ("table", "hand_limit"), ("param", "sale_bonus"), ("prop", "crop"),
         ("prop", "cost"), ("var", "sales")}


@pytest.fixture(scope="module")
def market():
    return load_game(MARKET)


def _meter_code(game) -> list:
    """The pool entries of a game's compiled rules that are methods of a read meter."""
    return [k for k in game.world.compiler.pool.K if isinstance(getattr(k, "__self__", None), ReadMeter)]


def test_a_game_compiled_without_a_meter_carries_no_meter_code(market):
    assert market.world.meter is None and _meter_code(market) == []
    metered = market.metered(NAMES)
    assert metered.world.meter is not None and _meter_code(metered)
    assert market.world.meter is None  # the game it was made from is left as it was


def test_a_metered_game_plays_the_same_games(market):
    metered = market.metered(NAMES)
    for seed in (1, 2):
        plain, counted = play_game(market, 3, seed, "random"), play_game(metered, 3, seed, "random")
        assert counted["actions"] == plain["actions"] and counted["outcome"] == plain["outcome"]
    assert metered.content_hash == market.content_hash and metered.origin == market.origin
    assert metered.meter_names == frozenset(NAMES)


def test_reads_are_counted_by_entry_and_a_menu_counts_a_value_once(market):
    metered = market.metered(NAMES)
    metered.new_game(3, seed=1)
    counts = metered.world.meter.counts
    # the setup reads each start price once (the vars' init), by its key
    assert {k: n for k, n in counts.items() if k[1] == "start_price"} == {
        ("table", "start_price", "apple", False): 1, ("table", "start_price", "pear", False): 1,
        ("table", "start_price", "plum", False): 1}
    # the first menu asks the hand's room (the capacity hand_limit) for draw and for rest: one read
    assert counts[("table", "hand_limit", None, True)] == 1
    assert ("param", "sale_bonus", None, False) not in counts  # no sale yet


def test_a_property_filter_is_counted_per_piece_type_where_it_would_be_indexed(market):
    """`x.crop == k` (an indexed filter when not counted) reads the property as written, per piece type."""
    metered = market.metered({("prop", "crop")})
    plain, counted = play_game(market, 2, 4, "random"), play_game(metered, 2, 4, "random")
    assert counted["actions"] == plain["actions"]
    in_menus = {k[2] for k in metered.world.meter.counts if k[1] == "crop" and k[3]}  # held() in the sell menu
    assert in_menus == {"apple_card", "pear_card", "plum_card"}


def test_a_meter_counts_only_the_kinds_it_knows():
    with pytest.raises(ValueError, match="table, param, var, prop"):
        ReadMeter({("zone", "deck")})
