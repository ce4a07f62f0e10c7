"""ratings: a table that names what a final score is worth, listed per player in the outcome."""

from games import make_game, problem_about, problems_of

GAME = """
game: {id: rated, players: [1, 2]}
vars:
  player:
    points: {}
flow:
  each_player: {step: turn}
steps:
  turn:
    actions:
      score:
        choose: {n: "range(0, 40)"}
        effect: "player.points = n"
scoring:
  items:
    points: {expr: "player.points"}
  ratings:
    if: "player_count == 1"
    bands:
      - {label: {en: Practise, zh: 練習}}
      - {min: 10, label: {en: Good, zh: 好}}
      - {min: 30, label: {en: Master, zh: 大師}}
"""


def final(game, players, *actions):
    s = game.new_game(players)
    for a in actions:
        s = game.apply(s, a)
    return game.outcome(s)


def test_each_score_gets_the_last_band_it_reaches(tmp_path):
    game = make_game(tmp_path, GAME)
    assert final(game, 1, "score(n=3)")["ratings"] == [{"en": "Practise", "zh": "練習"}]
    assert final(game, 1, "score(n=10)")["ratings"][0]["en"] == "Good"
    assert final(game, 1, "score(n=39)")["ratings"][0]["en"] == "Master"


def test_the_table_applies_only_when_its_condition_holds(tmp_path):
    game = make_game(tmp_path, GAME)
    assert "ratings" not in final(game, 2, "score(n=3)", "score(n=30)")


def test_a_game_without_ratings_has_none_in_its_outcome(tmp_path):
    game = make_game(tmp_path, GAME.split("  ratings:")[0])
    assert "ratings" not in final(game, 1, "score(n=3)")


def test_bands_must_rise(tmp_path):
    problems = problems_of(tmp_path, GAME.replace("min: 30", "min: 5"))
    assert problem_about(problems, "rating bands must rise: min 5 after 10")


def test_only_the_first_band_may_leave_out_its_min(tmp_path):
    problems = problems_of(tmp_path, GAME.replace("{min: 10, label", "{label"))
    assert problem_about(problems, "a rating band needs an integer min")
