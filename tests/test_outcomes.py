"""Outcomes: shared wins and losses (cooperative games), winners named by an end trigger, teams, and an end
trigger with `now` that stops the flow at once, in the middle of a round."""

import pytest

from interpreter.game import load_game

from conftest import ROOT
from games import make_game

LEVEE = ROOT / "examples" / "mechanisms" / "levee"
CROWN = ROOT / "examples" / "mechanisms" / "crown_race"


def test_a_cooperative_game_is_lost_by_everyone():
    game = load_game(LEVEE)
    s = game.new_game(2)
    s = game.apply(game.apply(s, "shore"), "shore")  # water 0 + 2 = 2
    s = game.apply(game.apply(s, "shore"), "shore")  # 0 + 3 = 3
    s = game.apply(game.apply(s, "build"), "build")  # 3 + 4 = 7: flooded
    out = game.outcome(s)
    assert game.is_over(s) and out["ends"] == ["flooded"]
    assert out["winners"] == [] and out["shared"] == "loss" and out["results"] == ["loss", "loss"]
    assert out["decided_by"] == "flooded"


def test_a_cooperative_game_is_won_by_everyone_mid_round():
    game = load_game(LEVEE)
    s = game.new_game(3)
    for _ in range(4):
        s = game.apply(s, "build")
    out = game.outcome(s)
    assert game.is_over(s) and game.current_player(s) is None and game.legal_actions(s) == []
    assert out["winners"] == [0, 1, 2] and out["shared"] == "win" and out["results"] == ["win"] * 3


def test_an_immediate_win_stops_the_round_and_names_the_winner():
    game = load_game(CROWN)
    s = game.new_game(3)
    for _ in range(4):  # everyone steps four times: 4, 4, 4
        for _seat in range(3):
            s = game.apply(s, "step")
    s = game.apply(s, "step")  # seat 1 reaches 5: seats 2 and 3 do not get their turn
    out = game.outcome(s)
    assert game.is_over(s) and out["winners"] == [0] and out["results"] == ["win", "loss", "loss"]
    assert out["scores"] == [5, 4, 4]
    assert game.from_json(game.to_json(s)).flow == []


HOOKED = """
game: {id: hooked, players: [2]}
vars:
  global:
    heard: {}
  player:
    side: {}
events:
  rang: {}
hooks:
  listen: {on: rang, do: {effect: "heard += 1"}}
flow:
  repeat:
    - each_player: {step: s}
  max: 5
steps:
  s:
    actions:
      ring: {effect: "emit rang()"}
      ring_and_stop: {effect: "emit rang(); end_game(stop)"}
      defect: {effect: "player.side = 1; end_game(stop)"}
end:
  triggers:
    stop: {now: true}
scoring:
  items:
    heard: {expr: "heard + player.side"}
  teams: "player.side"
"""


def test_an_end_now_runs_no_hook_after_it(tmp_path):
    game = make_game(tmp_path, HOOKED)
    s = game.apply(game.new_game(2), "ring")
    assert game.evaluate(s, "heard") == 1
    s = game.apply(s, "ring_and_stop")
    assert game.is_over(s) and game.evaluate(s, "heard") == 1


def test_teams_sum_their_scores_and_win_together(tmp_path):
    game = make_game(tmp_path, HOOKED)
    out = game.outcome(game.apply(game.new_game(2), "ring_and_stop"))
    assert out["teams"] == [0, 0] and out["team_scores"] == [0, 0] and out["winners"] == [0, 1]
    out = game.outcome(game.apply(game.new_game(2), "defect"))  # seat 1 joins team 1 and scores 1
    assert out["teams"] == [1, 0] and out["team_scores"] == [1, 0] and out["winners"] == [0]


def test_a_plain_game_keeps_its_outcome_keys():
    game = load_game(ROOT / "examples" / "high_card")
    s = game.new_game(2)
    while not game.is_over(s):
        s = game.apply(s, game.legal_actions(s)[0])
    out = game.outcome(s)
    assert {"scores", "breakdown", "tiebreak", "winners", "over", "ends"} <= set(out)
    assert out["results"] == ["win" if p in out["winners"] else "loss" for p in range(2)]
    assert "shared" not in out and "teams" not in out


def test_the_outcome_picture_tells_a_shared_loss():
    from interpreter.table.presentation import Labels, outcome_model
    game = load_game(LEVEE)
    s = game.new_game(2)
    for a in ("shore", "shore", "shore", "shore", "build", "build"):
        s = game.apply(s, a)
    line = outcome_model(Labels(game, "en"), game.outcome(s))["line"]
    assert line == "Everyone loses together"


RACE = """
game: {id: race_outcomes, players: [2]}
scripted_seats:
  ghost: {label: {en: The ghost, zh: 幽灵}}
vars:
  player: {pos: {}}
steps:
  s:
    actions:
      ghost_wins: {effect: "end_game(named)"}
      lose_then_win: {effect: "end_game(flood); end_game(rescue)"}
      win_then_lose: {effect: "end_game(rescue); end_game(flood)"}
      run: {effect: "player.pos += 1"}
flow:
  repeat:
    - each_player: {step: s}
  max: 5
end:
  triggers:
    named: {now: true, winners: "list(p for p in [ghost, players[1]])"}
    flood: {now: true, result: all_lose}
    rescue: {now: true, result: all_win}
scoring:
  items:
    pos: {expr: "player.pos"}
"""


def test_a_trigger_names_only_seats_that_play_among_the_winners(tmp_path):
    game = make_game(tmp_path, RACE)
    out = game.outcome(game.apply(game.new_game(2), "ghost_wins"))
    assert out["winners"] == [1] and out["results"] == ["loss", "win"]


def test_the_first_trigger_set_decides_the_shared_result(tmp_path):
    game = make_game(tmp_path, RACE)
    out = game.outcome(game.apply(game.new_game(2), "lose_then_win"))
    assert out["ends"] == ["flood", "rescue"] and out["decided_by"] == "flood"
    assert out["shared"] == "loss" and out["winners"] == []
    out = game.outcome(game.apply(game.new_game(2), "win_then_lose"))
    assert out["decided_by"] == "rescue" and out["shared"] == "win" and out["winners"] == [0, 1]


def test_where_the_lowest_score_wins_the_team_with_the_lowest_total_wins(tmp_path):
    game = make_game(tmp_path, """
        game: {id: low_teams, players: [4]}
        vars:
          player: {pos: {}}
        steps:
          s:
            actions:
              run: {effect: "player.pos += 1 + player.seat_index"}
        flow:
          each_player: {step: s}
        scoring:
          order: low
          items:
            pos: {expr: "player.pos"}
          teams: "player.seat_index % 2"
    """.replace("player.seat_index", "index(players, player)"))
    s = game.new_game(4)
    while not game.is_over(s):
        s = game.apply(s, "run")
    out = game.outcome(s)
    assert out["scores"] == [1, 2, 3, 4] and out["team_scores"] == [4, 6, 4, 6]
    assert out["winners"] == [0, 2] and out["results"] == ["win", "loss", "win", "loss"]

# ---------------------------------------------------------------- ending at a boundary: at: turn | round
BOUNDARY = """
    game: {id: boundary, players: [3]}
    vars:
      global: {round: {init: 0}}
      player: {picks: {init: 0}}
    steps:
      pick:
        actions:
          pick:
            effect: |
              player.picks += 1
              if player.picks == 1 and player == players[PLAYER]:
                  end_game(done)
    flow:
      repeat:
        - effect: "round += 1"
        - each_player: [{step: pick}, {step: pick}]
      until: "round == 5"
    end:
      triggers:
        done: {at: AT}
    scoring:
      items: {picks: {expr: "player.picks"}}
"""


def boundary(tmp_path, at, player=1):
    g = make_game(tmp_path, BOUNDARY.replace("AT", at).replace("PLAYER", str(player)))
    s = g.new_game(3, seed=1)
    moves = []
    while not g.is_over(s):
        moves.append(g.current_player(s))
        s = g.apply(s, "pick")
        assert g.to_json(g.from_json(g.to_json(s))) == g.to_json(s)  # a pending end is a saved state too
    return moves, s, g


@pytest.mark.parametrize("at,moves", [
    ("turn", [0, 0, 1, 1]),                 # Player 2's first pick sets it: their second pick ends the game
    ("round", [0, 0, 1, 1, 2, 2]),          # the round goes on: Player 3 still plays
    ("flow", [0, 0, 1, 1, 2, 2] * 5),       # the flow does not read game_ending: the game goes on
    ("now", [0, 0, 1]),
])
def test_an_end_trigger_takes_effect_when_its_at_says(tmp_path, at, moves):
    got, s, g = boundary(tmp_path, at)
    assert got == moves and g.outcome(s)["ends"] == ["done"]


def test_the_round_ends_where_the_repeat_s_pass_ends(tmp_path):
    got, s, g = boundary(tmp_path, "round", player=2)
    assert got == [0, 0, 1, 1, 2, 2] and g.evaluate(s, "round") == 1


def test_a_saved_state_that_ends_where_no_trigger_says_is_refused(tmp_path):
    from interpreter.engine.state import StateFormatError
    g = make_game(tmp_path, BOUNDARY.replace("AT", "turn").replace("PLAYER", "0"))
    s = g.apply(g.new_game(3, seed=1), "pick")
    data = g.to_json(s)
    ends = [fr for fr in data["flow"] if fr[0] == g.end_node]
    assert len(ends) == 1 and list(ends[0][2]) == ["done"]
    data["ends"] = []
    with pytest.raises(StateFormatError, match="ends the game for no end trigger"):
        g.from_json(data)


def test_now_and_another_at_is_a_definition_error(tmp_path):
    from interpreter.definition.problems import DefinitionError
    with pytest.raises(DefinitionError, match="ends the game now or at the end of the turn, not both"):
        make_game(tmp_path, BOUNDARY.replace("{at: AT}", "{at: turn, now: true}").replace("PLAYER", "0"))
