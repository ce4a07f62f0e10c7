"""Scripted seats (interpreter/engine/scripted.py): a seat at the table that makes no decisions.

The example is examples/mechanisms/pacer: one or two runners race with a pacer, whose stride the rules roll.
"""

import json
import random

import pytest

from interpreter.players.bots import decide, make_bot
from interpreter.language.compiler import RuleError
from interpreter.game import load_game
from interpreter.table.presentation import present
from interpreter.readback.rules_text import rulebook
from interpreter.engine.state import StateFormatError
from interpreter.table.textview import picture

from conftest import ROOT
from games import make_game, problem_about, problems_of

PACER = ROOT / "examples" / "mechanisms" / "pacer"


@pytest.fixture(scope="module")
def game():
    return load_game(PACER)


def play(game, players, seed, log=None):
    """A random game to its end: every state on the way, and the seats that were asked to decide."""
    s = game.new_game(players, seed=seed, log=log)
    r = random.Random(seed)
    states, asked = [s], set()
    while not game.is_over(s):
        asked.update(game.pending_players(s))
        asked.add(game.current_player(s))
        s = game.apply(s, r.choice(game.legal_actions(s)), log=log)
        states.append(s)
    return states, asked


def test_the_seat_is_at_the_table_when_its_condition_holds(game):
    one, three = game.new_game(1, seed=1), game.new_game(3, seed=1)
    assert game.evaluate(one, "pacer") == 1          # after the players' seats
    assert game.evaluate(one, "player_count") == 1
    assert list(game.evaluate(one, "players")) == [0]
    assert game.evaluate(one, "pacer in players") is False
    assert len(one.p) == 2 and len(game.to_json(one)["player_zones"]) == 2
    assert game.evaluate(three, "pacer") is None
    assert len(three.p) == 3


def test_it_is_never_asked_for_a_decision(game):
    for players in (1, 2):
        for seed in range(1, 6):
            states, asked = play(game, players, seed)
            assert asked <= set(range(players))


def test_its_scripted_moves_run(game):
    log = []
    states, _ = play(game, 1, seed=3, log=log)
    end = states[-1]
    pos = game.evaluate(end, "pacer.pos")
    assert 6 <= pos <= 12                              # six strides of 1 or 2
    told = [e["en"] for e in log if isinstance(e, dict)]
    assert sum("The pacer runs to" in t for t in told) == 6
    # the hook of a flag runs for the seat that ran: the pacer's flags are its own pieces
    assert game.evaluate(end, "size(pacer.taken) + sum(size(p.taken) for p in players) + size(flags)") == 3


def test_it_takes_no_part_in_winning(game):
    for seed in range(1, 30):
        end = play(game, 2, seed)[0][-1]
        out = game.outcome(end)
        assert len(out["scores"]) == 2 and len(out["results"]) == 2
        assert set(out["winners"]) <= {0, 1} and out["winners"]


def test_it_is_shown_in_every_view_as_a_public_area(game):
    s = play(game, 1, seed=2)[0][4]
    view = game.view(s, 0)
    assert len(view["player_vars"]) == 2 and view["player_vars"][1]["pos"] == game.evaluate(s, "pacer.pos")
    model = present(game, view, "en")
    area = model["areas"][-1]
    assert area["title"] == "The pacer" and area["seat"] == 1
    assert [z["id"] for z in area["zones"]] == ["taken"]      # display.scripted
    marks = model["areas"][1]["tracks"][0]["marks"]
    assert [(m["name"], m["player"]) for m in marks] == [("Player 1", True), ("The pacer", False)]
    text = picture(present(game, view, "zh"))
    assert "── 配速员" in text


def test_it_cannot_be_viewed_from(game):
    s = game.new_game(1, seed=1)
    with pytest.raises(ValueError):
        game.view(s, 1)


def test_save_and_load_in_the_middle_of_a_game(game):
    states, _ = play(game, 2, seed=4)
    mid = states[len(states) // 2]
    data = json.loads(json.dumps(game.to_json(mid)))
    back = game.from_json(data)
    assert back == mid and game.legal_actions(back) == game.legal_actions(mid)
    # the scripted seat's row is part of the state: a state without it is refused
    cut = dict(data, player_vars=data["player_vars"][:2], player_zones=data["player_zones"][:2])
    with pytest.raises(StateFormatError):
        game.from_json(cut)


def test_bots_play_for_the_players_only(game):
    s = game.new_game(2, seed=5)
    bot = make_bot("mcts:iterations=5", seed=1)
    while not game.is_over(s):
        assert game.current_player(s) in (0, 1)
        s = game.apply(s, decide(bot, game, s))
    assert game.evaluate(s, "pacer.pos") >= 6


def test_the_rules_text_names_it(game):
    text = "\n".join(str(b) for b in rulebook(game, "en"))
    assert "Scripted seats" in text and "The pacer (`pacer`)" in text


def test_a_step_for_a_scripted_seat_is_a_rule_error(tmp_path):
    g = make_game(tmp_path, """
        game: {id: dummy_turn, players: [2]}
        scripted_seats:
          dummy: {label: Dummy}
        vars: {player: {n: {}}}
        steps:
          go: {actions: {go: {effect: "player.n += 1"}}}
        flow:
          - each_player: {step: go}
          - each_player: {step: go}
            order: "[dummy]"
    """)
    s = g.new_game(2, seed=1)
    s = g.apply(s, "go")
    with pytest.raises(RuleError, match="a scripted seat makes no decisions"):
        g.apply(s, "go")


def test_load_errors(tmp_path):
    problems = problems_of(tmp_path, """
        game: {id: bad_seats, players: [2]}
        scripted_seats:
          bot: {if: "score > 2"}
          score: {}
        vars: {global: {score: {}}}
        flow: []
    """)
    problem_about(problems, "its `if` may read only player_count, options and tables")
    problem_about(problems, "scripted seat 'score' has the name of another thing")


def test_a_presence_condition_that_reads_the_state_fails_as_a_rule(tmp_path):
    g = make_game(tmp_path, """
        game: {id: odd_presence, players: [2]}
        scripted_seats:
          dummy: {if: "len(pieces) > 0"}
        flow: []
    """)
    with pytest.raises(RuleError, match="scripted seat dummy, its `if`"):
        g.new_game(2, seed=1)
