"""Value models (interpreter/players/valuemodel.py): plain JSON stamped with the rules, refused for other
rules, computed without building feature rows exactly as the rows say, and an objective that follows the
definition's outcome."""

import json
import random

import pytest

from interpreter.game import load_game
from interpreter.players.features import FeatureSpace
from interpreter.players.evaluator import Objective
from interpreter.players.valuemodel import ModelError, StaleModel, ValueModel, rules_hash

from conftest import ROOT
from games import make_game, run_random, write_game

GAMES = [("puerto_rico", 4), ("castles_of_burgundy", 2), ("phoenicia", 3), ("la_granja_no_siesta", 1),
         ("examples/mechanisms/pile_up", 2), ("examples/mechanisms/hint_cards", 2), ("examples/mechanisms/levee", 3)]


def load(name):
    return load_game(ROOT / name if "/" in name else name)


def random_model(game, players, seed=1, density=0.3):
    space = FeatureSpace.of(game)
    r = random.Random(seed)
    heads = {h: {n: r.uniform(-2, 2) for n in space.names if r.random() < density} for h in ("score", "result")}
    return ValueModel(game.id, rules_hash(game), [players], heads, {players: 300.0}, scale=10.0)


@pytest.mark.parametrize("name, players", GAMES)
def test_the_evaluator_computes_what_the_feature_rows_say(name, players):
    """`head` adds weights per piece; it must equal the dot product of the weights with each seat's row."""
    game = load(name)
    model = random_model(game, players)
    judge = model.bind(game)
    space = FeatureSpace.of(game)
    dense = {h: [model.heads[h].get(n, 0.0) for n in space.names] for h in model.heads}
    states = run_random(game, players, seed=2).states
    for s in states[:: max(1, len(states) // 15)]:
        r = judge.remaining(s)
        for h in ("score", "result"):
            rows = [space.extract(s, p, r) for p in range(players)]
            expected = [sum(dense[h][i] * v for i, v in row.items()) for row in rows]
            assert judge.head(s, h) == pytest.approx(expected, rel=1e-9, abs=1e-9), (name, h, s.decisions)


def test_a_model_is_plain_json_and_reads_back_the_same(tmp_path):
    game = load("castles_of_burgundy")
    model = random_model(game, 2)
    path = tmp_path / "models" / "value-2p.json"
    model.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["kind"] == "meeple value model" and data["format"] == 1 and data["rules_hash"] == rules_hash(game)
    again = ValueModel.load(path)
    s = game.new_game(2, seed=4)
    assert again.bind(game).scores(s) == pytest.approx(model.bind(game).scores(s))


@pytest.mark.parametrize("bad, words", [
    ("[]", "not a meeple value model"),
    ('{"kind": "meeple value model", "format": 99}', "format 99"),
    ('{"kind": "meeple value model", "format": 1, "game": "g", "rules_hash": "x", "players": [2], '
     '"length": {"2": 10}, "heads": {"score": {"bias": "NaN"}}}', "not a finite number"),
    ('{"kind": "meeple value model", "format": 1, "game": "g", "rules_hash": "x", "players": [2], '
     '"length": {"2": 10}, "heads": {"policy": {}}}', "unknown head"),
    ("{not json", "cannot read the model"),
])
def test_a_broken_model_file_is_a_model_error_with_its_name(tmp_path, bad, words):
    path = tmp_path / "value-2p.json"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(ModelError, match=words) as info:
        ValueModel.load(path)
    assert "value-2p.json" in str(info.value)


def test_a_model_of_other_rules_is_refused_and_a_relabelled_game_keeps_it(tmp_path):
    text = """
        game: {id: g, players: [2]}
        vars:
          player: {coins: {init: 1, label: {en: Coins, zh: 钱}}}
        steps:
          take:
            actions:
              take: {effect: "player.coins += AMOUNT"}
        flow:
          - each_player: {step: take}
        scoring:
          items:
            coins: {expr: "player.coins"}
    """
    game = make_game(tmp_path, text.replace("AMOUNT", "1"))
    model = random_model(game, 2)
    model.bind(game)  # the same rules
    relabelled = make_game(tmp_path, text.replace("AMOUNT", "1").replace("en: Coins", "en: Silver"))
    model.bind(relabelled)  # a label is not a rule
    changed = make_game(tmp_path, text.replace("AMOUNT", "2"))
    with pytest.raises(StaleModel, match="trained on other rules.*meeple train g"):
        model.bind(changed)


def test_the_objective_follows_the_outcome_rules(tmp_path):
    """Compete: my score against the best other; lowest-wins: reversed; cooperative: the shared result
    before any score; solo: the score."""
    compete = Objective(load("puerto_rico"))
    s = load("puerto_rico").new_game(3, seed=1)
    assert compete.mode(3) == "compete"
    assert compete.utilities(s, [10, 7, 12], None, 5.0) == [-2, -5, 2]
    low = Objective(load_game(ROOT / "tests" / "fixtures" / "low_cards"))
    assert low.sign == -1
    assert low.utilities(s, [10, 7, 12], None, 5.0) == [-3, 3, -5]
    levee = load("examples/mechanisms/levee")
    coop = Objective(levee)
    assert coop.mode(2) == "cooperate"
    t = levee.new_game(2, seed=1)
    lose_big, win_small = coop.utilities(t, [40, 40], [0.0, 0.0], 5.0), coop.utilities(t, [1, 1], [1.0, 1.0], 5.0)
    assert win_small[0] > lose_big[0]  # a loss for all is worse than any shared score
    assert Objective(load("la_granja_no_siesta")).mode(1) == "cooperate"


def test_in_a_team_game_a_seat_plays_for_its_teams_total(tmp_path):
    """Teams (`scoring.teams`): a seat's utility is its team's predicted total against the best other
    team's, so two seats of one team value a position alike."""
    game = make_game(tmp_path, """
        game: {id: duo, players: [4]}
        vars:
          player: {pts: {}, side: {}}
        setup: |
          k = 0
          for p in players:
              p.side = k % 2
              k += 1
        steps:
          s:
            actions:
              score: {effect: "player.pts += 1"}
        flow:
          - each_player: {step: s}
        scoring:
          items:
            pts: {expr: "player.pts"}
          teams: "player.side"
    """)
    objective = Objective(game)
    assert objective.mode(4) == "teams"
    s = game.new_game(4, seed=1)
    u = objective.utilities(s, [5, 1, 2, 3], None, 5.0)   # team 0: seats 0 and 2 (7); team 1: seats 1 and 3 (4)
    assert u == [3, -3, 3, -3]


def test_the_mean_of_models_averages_each_weight_and_refuses_models_of_other_rules_or_counts():
    """A weight one model lacks counts as 0 in the mean; the usual lengths and the scale are averaged too."""
    game = load("puerto_rico")
    a = ValueModel(game.id, rules_hash(game), [4], {"score": {"x": 2.0, "y": 1.0}, "result": {"x": 1.0}},
                   {4: 300.0}, scale=10.0)
    b = ValueModel(game.id, rules_hash(game), [4], {"score": {"x": 4.0}, "result": {"z": -1.0}},
                   {4: 500.0}, scale=20.0)
    m = ValueModel.mean([a, b], {"made": "test"})
    assert m.heads["score"] == {"x": 3.0, "y": 0.5} and m.heads["result"] == {"x": 0.5, "z": -0.5}
    assert m.length == {4: 400.0} and m.scale == 15.0 and m.trained == {"made": "test"}
    other_count = ValueModel(game.id, rules_hash(game), [3], {"score": {}}, {3: 300.0})
    other_rules = ValueModel(game.id, "0" * 64, [4], {"score": {}}, {4: 300.0})
    for odd in (other_count, other_rules):
        with pytest.raises(ModelError, match="differ"):
            ValueModel.mean([a, odd])
