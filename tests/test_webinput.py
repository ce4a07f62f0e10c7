"""Every value a request brings is read like the command line reads it: whole numbers of bounded size,
options through the hardened YAML reader (no aliases), bot specs within the server's caps, languages the
games speak. A bad value is a BadValue with a message for people (the server's 400)."""
import time

import pytest

from interpreter.game import load_game
from interpreter.table.webconfig import ServerConfig
from interpreter.table.webinput import (BadValue, read_bot, read_int, read_lang, read_options, read_players,
                                        read_seed)

BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n" \
       "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]"


def test_numbers_are_short_whole_numbers_within_their_range():
    assert read_int("12", "x", 0, 20) == 12
    for bad in ("", "1e9", "0x10", "٣", "²", "9" * 10, "1.5", None, "-1"):
        with pytest.raises(BadValue):
            read_int(bad, "x", 0, 10 ** 12)
    with pytest.raises(BadValue, match="from 0 to 20"):
        read_int("21", "x", 0, 20)


def test_a_blank_seed_is_random_and_a_given_one_is_a_bounded_number():
    seeds = {read_seed("") for _ in range(20)}
    assert len(seeds) > 1 and all(0 <= s < 1_000_000 for s in seeds)
    assert read_seed("42") == 42
    for bad in ("1" * 19, "seven", "-"):
        with pytest.raises(BadValue):
            read_seed(bad)


def test_players_must_be_a_count_the_game_takes():
    assert read_players("3", [3, 4, 5]) == 3
    with pytest.raises(BadValue, match="3, 4, 5"):
        read_players("2", [3, 4, 5])


def test_a_language_must_be_one_the_games_speak():
    assert read_lang("zh", ["en", "zh"]) == "zh" and read_lang(None, ["en", "zh"]) == "en"
    with pytest.raises(BadValue):
        read_lang("x';alert(1);'", ["en", "zh"])


def test_options_go_through_the_hardened_reader_and_an_alias_bomb_is_refused_at_once():
    game = load_game("examples/market_day")
    name = "short_game"
    assert read_options(game, {name: "true"}) == {name: True}
    assert read_options(game, {name: "false"}) is None        # the default is left out
    started = time.process_time()
    with pytest.raises(BadValue, match="alias"):
        read_options(game, {name: BOMB})
    assert time.process_time() - started < 0.5
    with pytest.raises(BadValue, match="longer than"):
        read_options(game, {name: "x" * 2000})
    with pytest.raises(BadValue, match="not an option"):
        read_options(game, {"no_such": "1"})


def test_bot_specs_are_held_to_the_servers_caps():
    config = ServerConfig(max_bot_ms=1000, max_bot_iterations=500, max_bot_depth=50, max_greedy_depth=2)
    assert read_bot("mcts:ms=300", config) == "mcts:ms=300"
    assert read_bot("greedy", config) == "greedy"
    for bad in ("mcts:ms=999999999999", "mcts:ms=inf", "mcts:ms=nan", "mcts:iterations=501", "mcts:depth=51",
                "greedy:depth=3", "mcts:c=1e308", "nobot", "mcts:ms=-1", "x" * 100, None):
        with pytest.raises(BadValue):
            read_bot(bad, config)
