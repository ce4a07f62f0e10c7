"""Untrusted input the tool reads besides a definition: the parser cache, records, option values,
overlay scenario paths. Each is capped and fails with a located message, never a traceback."""

import json
import os
import stat
import textwrap

import pytest

from interpreter.definition import parser_cache
from interpreter.cli import main
from interpreter.game import IllegalAction, load_game
from interpreter.definition.problems import DefinitionError, InputError
from interpreter.definition.untrusted import MAX_INT_DIGITS, MAX_JSON_DEPTH, option_value, parse_json, read_action_list

GRAMMAR = 'start: WORD\n%import common.WORD\n'
OPTIONS = dict(parser="lalr")


# ------------------------------------------------------------------ the parser cache

def cache_files(d):
    return [p for p in d.iterdir() if p.suffix == ".json"]


def test_parser_cache_is_verified_json_in_a_private_user_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path / "cache"))
    p = parser_cache.build(GRAMMAR, OPTIONS, {})
    (entry,) = cache_files(tmp_path / "cache")
    assert stat.S_IMODE(os.stat(tmp_path / "cache").st_mode) & 0o077 == 0
    digest, _, body = entry.read_bytes().partition(b"\n")
    json.loads(body)  # JSON, not a pickle
    again = parser_cache.build(GRAMMAR, OPTIONS, {})
    assert again.parse("hello") == p.parse("hello")


def test_a_tampered_cache_entry_is_ignored_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(tmp_path))
    os.chmod(tmp_path, 0o700)
    parser_cache.build(GRAMMAR, OPTIONS, {})
    (entry,) = cache_files(tmp_path)
    digest, _, body = entry.read_bytes().partition(b"\n")
    entry.write_bytes(digest + b"\n" + body.replace(b"WORD", b"WORX"))
    assert parser_cache._read(entry) is None  # the digest no longer matches
    assert parser_cache.build(GRAMMAR, OPTIONS, {}).parse("hi").children[0] == "hi"
    assert parser_cache._read(entry) is not None  # rewritten


def test_a_cache_others_may_write_is_not_used(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    monkeypatch.setenv("MEEPLE_CACHE_DIR", str(shared))
    parser_cache.build(GRAMMAR, OPTIONS, {})
    assert cache_files(shared) == []  # not written into a directory others can write
    os.chmod(shared, 0o700)
    parser_cache.build(GRAMMAR, OPTIONS, {})
    (entry,) = cache_files(shared)
    os.chmod(entry, 0o666)
    assert parser_cache._read(entry) is None


def test_the_dsl_parser_never_uses_a_pickle_in_the_temporary_directory():
    import inspect
    from interpreter.language import dsl
    source = inspect.getsource(dsl) + inspect.getsource(parser_cache)
    assert "cache=True" not in source and "pickle" not in source.replace("never a pickle", "")


# ------------------------------------------------------------------ records and JSON

@pytest.mark.parametrize("text, words", [
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ("[" + "9" * 5000 + "]", "digits"),
    ("[NaN]", "not a number"),
    ('["a",', "invalid JSON"),
])
def test_hostile_json_is_refused_with_a_location(text, words):
    with pytest.raises(InputError) as info:
        parse_json(text, "r.json")
    assert words in str(info.value) and str(info.value).startswith("r.json")


def test_json_within_the_limits_is_read():
    assert parse_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH, "x") is not None
    assert parse_json("[" + "9" * MAX_INT_DIGITS + "]", "x") == [int("9" * MAX_INT_DIGITS)]


def test_a_record_must_be_a_regular_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        read_action_list(str(fifo))  # returns at once: nothing waits on the FIFO
    with pytest.raises(InputError, match="directory"):
        read_action_list(str(tmp_path))


@pytest.mark.parametrize("record", ['[{"id": 5}]', "[{}]", '[{"args": [1]}]', '[{"action": "x", "args": 3}]',
                                    "[" * 90_000, '[' + '1' * 5000 + ']'])
def test_replay_of_malformed_records_exits_with_a_message(tmp_path, capsys, record):
    f = tmp_path / "r.json"
    f.write_text(record)
    code = main(["replay", "examples/market_day", str(f), "--players", "2"])
    err = capsys.readouterr().err
    assert code in (1, 2) and "internal error" not in err and "Traceback" not in err
    if record.startswith("[["):
        assert code == 2


def test_option_values_are_read_by_the_hardened_loader():
    assert option_value("x", "7") == 7 and option_value("x", "yes") == "yes" and option_value("x", "true") is True
    bomb = "[&a [1,1,1,1,1,1,1,1,1], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], [*b,*b,*b,*b,*b,*b,*b,*b,*b]]"
    with pytest.raises(InputError, match="alias"):
        option_value("x", bomb)
    with pytest.raises(InputError, match="longer"):
        option_value("x", "x" * 5000)


def test_option_alias_bomb_is_a_usage_error(capsys):
    bomb = "[&a [1,1,1,1,1,1,1,1,1], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]]"
    assert main(["simulate", "examples/market_day", "--games", "1", "--players", "2", "--option", f"short_game={bomb}"]) == 2
    assert "alias" in capsys.readouterr().err


# ------------------------------------------------------------------ malformed action shapes

@pytest.mark.parametrize("action", [{"id": 5}, {}, {"args": [1]}, {"action": 3}, {"action": "sell", "args": {1: 2}},
                                    None, 3, ["x"], {"id": None, "action": None}, "x" * 100_000, {"id": ["a"]}])
def test_malformed_actions_are_illegal_actions(action):
    game = load_game("examples/market_day")
    s = game.new_game(2, seed=1)
    before = game.to_json(s)
    with pytest.raises(IllegalAction):
        game.apply(s, action)
    assert game.to_json(s) == before


def test_typing_a_superscript_digit_at_the_prompt_asks_again(monkeypatch, capsys):
    import io
    import sys

    from interpreter.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("²\n1\nq\n"))
    code = main(["play", "examples/market_day", "--players", "2", "--seed", "1", "--seat", "1=human"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Please type one of the numbers" in out  # "²" is a digit to Python, not a choice


# ------------------------------------------------------------------ overlay scenario paths

def overlay(tmp_path, entry):
    f = tmp_path / "v.yaml"
    f.write_text(textwrap.dedent(f"""\
        overlay:
          base: market_day
          scenarios: [{entry}]
        set:
          tables.start_coins: 3
        """), encoding="utf-8")
    return f


@pytest.mark.parametrize("entry", ["/etc/passwd", "../outside", "/dev/stdin", "fifo"])
def test_overlay_scenario_paths_stay_in_the_overlays_folder(tmp_path, entry):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path.parent / "outside").mkdir(exist_ok=True)
    f = overlay(tmp_path, entry)
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(f)])
    problem = next(p for p in info.value.problems if "scenario path" in p.message)
    assert str(problem.location).startswith(f"{f}:3:")


# ------------------------------------------------------------------ the Python API takes a name or a game

def test_simulate_and_compare_take_a_game_name_or_a_game():
    from interpreter.analysis.compare import compare
    from interpreter.analysis.simulate import simulate
    by_name = simulate("examples/market_day", players=2, games=2)
    by_game = simulate(load_game("examples/market_day"), players=2, games=2)
    assert by_name["completed"] == by_game["completed"] == 2 and by_name["errors"] == []
    assert by_name["wins"] == by_game["wins"]
    result = compare("examples/market_day", "examples/market_day", players=2, games=2)
    assert result["base"]["completed"] == 2 and result["base"]["seats"][0]["seat"] == 1  # people count from 1


@pytest.mark.parametrize("bad", [42, None, ["market_day"]])
def test_simulate_refuses_what_is_no_game_with_a_message(bad):
    from interpreter.analysis.simulate import simulate
    with pytest.raises(TypeError, match="expected a game"):
        simulate(bad, players=2, games=1)


def test_a_seed_is_a_whole_number():
    from interpreter.game import GameSetupError
    game = load_game("examples/market_day")
    for seed in (None, "7", 1.5, True):
        with pytest.raises(GameSetupError, match="seed"):
            game.new_game(2, seed=seed)


@pytest.mark.parametrize("seat", [-1, 2, 7, None, "0"])
def test_a_seat_out_of_range_does_not_wrap(seat):
    game = load_game("examples/market_day")
    s = game.new_game(2, seed=1)
    with pytest.raises(ValueError, match="seats are 0 to 1"):
        game.view(s, seat)
    if seat is not None:
        with pytest.raises(ValueError, match="seats are 0 to 1"):
            game.evaluate(s, "player.coins", player=seat)
