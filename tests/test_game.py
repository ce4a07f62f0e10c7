"""game: the public API — load, new_game, legal_actions, apply, current_player, view, scores and outcome."""

import json

import pytest

from interpreter.game import GameSetupError, IllegalAction, load_game
from interpreter.definition.problems import DefinitionError, InputError

from conftest import ROOT
from games import action_ids, make_game, run_random

SHOP = """
game: {id: shop, name: {en: Shop, zh: 商店}, players: [2, 3]}
options:
  mode: {default: calm, values: [calm, wild]}
  size: {default: 3}
kinds:
  fruit:
    values: [apple, pear]
    labels: {apple: {en: Apple, zh: 苹果}, pear: {en: Pear, zh: 梨}}
vars:
  player:
    coins: {init: 5}
    secret: {init: 7, visible: owner}
zones:
  global:
    deck: {visibility: hidden}
    market: {}
  player:
    hand: {visibility: owner}
    shown: {}
    vault: {visibility: hidden}
components:
  card:
    zone: market
    fields: {marks: {}}
    properties: {vp: 1}
    types:
      gem: {label: {en: Gem, zh: 宝石}, count: 2, vp: 3}
      rock: {label: {en: Rock, zh: 石头}, count: 2}
  tile:
    zone: deck
    types:
      blank: {count: 5}
setup: |
  for p in players:
      draw(deck, p.hand)
      draw(deck, p.vault)
flow:
  each_player: {step: shop}
steps:
  shop:
    label: {en: Shop, zh: 商店}
    optional: true
    actions:
      buy:
        choose: {c: {from: market, distinct: true}}
        if: "player.coins >= c.vp"
        effect: "move(c, player.shown); player.coins -= c.vp"
        label: {en: "buy {c} for {c.vp}", zh: "买{c}（{c.vp}元）"}
      name:
        choose: {f: fruit}
        label: {en: "{player} names {f}", zh: "{player}说{f}"}
      check:
        if: "player.coins > 100"
scoring:
  items:
    coins: {expr: "player.coins", label: {en: Coins, zh: 金币}}
    vp: {expr: "sum(c.vp for c in player.shown)"}
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("shop"), SHOP)


@pytest.fixture(scope="module")
def market_day():
    return load_game(ROOT / "examples" / "market_day")


# ---------------------------------------------------------------- load
def test_a_game_knows_its_id_name_counts_and_options(shop):
    assert shop.id == "shop"
    assert shop.name == {"en": "Shop", "zh": "商店"}
    assert shop.player_counts == [2, 3]
    assert set(shop.options) == {"mode", "size"}


def test_load_game_of_a_missing_directory_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        load_game(tmp_path / "nowhere")


def test_load_game_of_a_bad_definition_is_a_definition_error(tmp_path):
    with pytest.raises(DefinitionError):
        make_game(tmp_path, "game: {id: x, players: [2]}\nflow: {step: missing}\n")


# ---------------------------------------------------------------- new_game
def test_new_game_stops_at_the_first_decision(shop):
    s = shop.new_game(2, seed=1)
    assert not shop.is_over(s)
    assert shop.current_player(s) == 0
    assert s.opts == {"mode": "calm", "size": 3}


def test_new_game_takes_options(shop):
    assert shop.new_game(2, options={"mode": "wild", "size": 9}).opts == {"mode": "wild", "size": 9}


@pytest.mark.parametrize("kwargs,message", [
    ({"players": 4}, "shop is for 2, 3 players, not 4"),
    ({"players": 1}, "not 1"),
    ({"players": 2, "options": {"mood": "calm"}}, "unknown option 'mood'; did you mean 'mode'?"),
    ({"players": 2, "options": {"mode": "crazy"}}, "option mode must be one of ['calm', 'wild'], not 'crazy'"),
])
def test_new_game_rejects_bad_setups(shop, kwargs, message):
    with pytest.raises(GameSetupError) as info:
        shop.new_game(**kwargs)
    assert message in str(info.value)


def test_game_setup_error_is_a_value_error():
    assert issubclass(GameSetupError, ValueError)


def test_new_game_is_a_function_of_its_arguments(market_day):
    assert market_day.new_game(3, seed=4) == market_day.new_game(3, seed=4)
    assert market_day.new_game(3, seed=4) != market_day.new_game(3, seed=5)


# ---------------------------------------------------------------- legal actions
def test_legal_actions_have_ids_steps_args_and_labels(shop):
    acts = shop.legal_actions(shop.new_game(2))
    assert [a["id"] for a in acts] == ["buy(c=0)", "buy(c=2)", "name(f=apple)", "name(f=pear)", "pass"]
    buy = acts[0]
    assert buy == {"id": "buy(c=0)", "step": "shop", "action": "buy", "args": {"c": 0},
                   "label": {"en": "buy Gem for 3", "zh": "买宝石（3元）"}}


def test_labels_render_pieces_kind_values_and_players_in_each_language(shop):
    labels = {a["id"]: a["label"] for a in shop.legal_actions(shop.new_game(2))}
    assert labels["buy(c=2)"] == {"en": "buy Rock for 1", "zh": "买石头（1元）"}
    assert labels["name(f=pear)"] == {"en": "Player 1 names Pear", "zh": "玩家1说梨"}
    assert labels["pass"] == {"en": "pass", "zh": "放弃"}


def test_an_action_without_a_label_is_labelled_by_its_name_in_words(tmp_path):
    game = make_game(tmp_path, """
    game: {id: t, players: [2]}
    flow:
      each_player: {step: s}
    steps:
      s:
        actions:
          take_all: {}
    """)
    assert game.legal_actions(game.new_game(2))[0]["label"] == {"en": "take all", "zh": "take all"}


def test_legal_actions_without_labels(shop):
    acts = shop.legal_actions(shop.new_game(2), labels=False)
    assert all(set(a) == {"id", "step", "action", "args"} for a in acts)


def test_distinct_offers_one_of_each_kind_of_equal_pieces(shop):
    ids = action_ids(shop, shop.new_game(2))
    assert "buy(c=1)" not in ids and "buy(c=3)" not in ids     # the second gem and rock are the same


def test_legal_actions_are_json(shop):
    acts = shop.legal_actions(shop.new_game(2))
    assert json.loads(json.dumps(acts, ensure_ascii=False)) == acts


# ---------------------------------------------------------------- apply
def test_apply_returns_a_new_state_and_leaves_the_old_one(shop):
    s = shop.new_game(2)
    before = shop.to_json(s)
    t = shop.apply(s, "buy(c=0)")
    assert t is not s
    assert shop.to_json(s) == before
    assert shop.legal_actions(s)[0]["id"] == "buy(c=0)"
    d = shop.to_json(t)
    assert d["player_zones"][0]["shown"] == [0] and d["player_vars"][0]["coins"] == 2
    assert d["decisions"] == 1 and shop.current_player(t) == 1


def test_apply_takes_an_id_a_legal_action_or_an_action_with_args(shop):
    s = shop.new_game(2)
    by_id = shop.apply(s, "name(f=pear)")
    by_dict = shop.apply(s, shop.legal_actions(s)[3])
    by_args = shop.apply(s, {"action": "name", "args": {"f": "pear"}})
    assert by_id == by_dict == by_args


def test_apply_can_log_what_happened(shop):
    log = []
    shop.apply(shop.new_game(2), "buy(c=0)", log)
    assert log == [{"player": 0, "en": "Player 1: buy Gem for 3", "zh": "玩家1：买宝石（3元）"}]


def test_illegal_unknown_action_names_the_step_and_its_actions(shop):
    with pytest.raises(IllegalAction) as info:
        shop.apply(shop.new_game(2), "biy(c=0)")
    msg = str(info.value)
    assert "step 'shop'" in msg and "player 1" in msg
    assert "buy, check, name, pass" in msg and "did you mean 'buy'?" in msg


def test_illegal_action_whose_condition_fails_shows_the_condition(shop):
    with pytest.raises(IllegalAction) as info:
        shop.apply(shop.new_game(2), "check")
    msg = str(info.value)
    assert "step 'shop'" in msg and "its condition is `player.coins > 100`" in msg


def test_illegal_argument_lists_the_legal_choices(shop):
    with pytest.raises(IllegalAction) as info:
        shop.apply(shop.new_game(2), "name(f=plum)")
    assert "name(f=apple)" in str(info.value)


def test_illegal_action_leaves_the_state_untouched(shop):
    s = shop.new_game(2)
    before = shop.to_json(s)
    for bad in ["fly", "buy(c=1)", "buy(c=99)", {"action": "name", "args": {"f": "plum"}}]:
        with pytest.raises(IllegalAction):
            shop.apply(s, bad)
    assert shop.to_json(s) == before


def test_an_action_of_the_wrong_kind_is_illegal(shop):
    with pytest.raises(IllegalAction, match="not int"):
        shop.apply(shop.new_game(2), 3)


def test_nothing_is_legal_once_the_game_is_over(market_day):
    end = run_random(market_day, 2, seed=3).final
    assert market_day.is_over(end)
    assert market_day.legal_actions(end) == [] and market_day.current_player(end) is None
    with pytest.raises(IllegalAction, match="the game is over"):
        market_day.apply(end, "draw")


def test_current_player_is_who_decides(shop):
    s = shop.new_game(3)
    seats = []
    for _ in range(3):
        seats.append(shop.current_player(s))
        s = shop.apply(s, "pass")
    assert seats == [0, 1, 2]
    assert shop.is_over(s)


# ---------------------------------------------------------------- view
def test_view_hides_what_the_viewer_may_not_see(shop):
    s = shop.new_game(2, seed=1)
    v = shop.view(s, 0)
    assert "rng" not in v
    assert v["viewer"] == 0 and v["to_move"] == 0
    assert v["zones"]["deck"] == {"hidden": 1}                    # hidden: only the size
    assert v["zones"]["market"] == [0, 1, 2, 3]                   # public
    assert v["player_zones"][0]["hand"] == [4]                    # own owner-only zone
    assert v["player_zones"][1]["hand"] == {"hidden": 1}          # someone else's
    assert v["player_zones"][0]["vault"] == {"hidden": 1}         # hidden even from the owner
    assert v["player_zones"][1]["shown"] == []
    assert v["player_vars"][0]["secret"] == 7
    assert v["player_vars"][1] == {"coins": 5, "secret": "hidden"}


def test_each_player_sees_their_own(shop):
    s = shop.new_game(2, seed=1)
    v = shop.view(s, 1)
    assert v["player_zones"][1]["hand"] == [6] and v["player_zones"][0]["hand"] == {"hidden": 1}
    assert v["player_vars"][1]["secret"] == 7 and v["player_vars"][0]["secret"] == "hidden"


def test_view_does_not_change_the_state(shop):
    s = shop.new_game(2)
    before = shop.to_json(s)
    shop.view(s, 1)
    assert shop.to_json(s) == before


# ---------------------------------------------------------------- scores and outcome
def test_score_breakdown_per_player_and_item(shop):
    s = shop.apply(shop.new_game(2), "buy(c=0)")
    assert shop.score_breakdown(s) == [{"coins": 2, "vp": 3}, {"coins": 5, "vp": 0}]
    assert shop.scores(s) == [5, 5]


def outcome_game(tmp_path, order="high", tiebreak='["player.coins"]'):
    return make_game(tmp_path, f"""
    game: {{id: race, players: [3]}}
    vars:
      player:
        vp: {{}}
        coins: {{}}
    flow:
      each_player: {{step: s}}
    steps:
      s:
        actions:
          score:
            choose: {{n: "range(0, 4)"}}
            effect: "player.vp += n; player.coins += 3 - n"
    scoring:
      items:
        vp: {{expr: "player.vp"}}
      tiebreak: {tiebreak}
      order: {order}
    """)


def finish(game, *ns):
    s = game.new_game(len(ns))
    for n in ns:
        s = game.apply(s, f"score(n={n})")
    assert game.is_over(s)
    return game.outcome(s)


def test_the_highest_score_wins(tmp_path):
    out = finish(outcome_game(tmp_path), 1, 3, 2)
    assert out["scores"] == [1, 3, 2] and out["winners"] == [1] and out["over"] is True
    assert out["breakdown"] == [{"vp": 1}, {"vp": 3}, {"vp": 2}]


def test_a_tie_is_broken_by_the_tiebreak(tmp_path):
    game = make_game(tmp_path, """
    game: {id: race, players: [3]}
    vars:
      player:
        vp: {}
        coins: {}
    setup: |
      for p in players:
          p.vp = 5
    flow:
      each_player: {step: s}
    steps:
      s:
        actions:
          earn:
            choose: {n: "range(0, 3)"}
            effect: "player.coins += n"
    scoring:
      items:
        vp: {expr: "player.vp"}
      tiebreak: ["player.coins"]
    """)
    s = game.new_game(3)
    for n in (1, 2, 2):
        s = game.apply(s, f"earn(n={n})")
    out = game.outcome(s)
    assert out["scores"] == [5, 5, 5] and out["tiebreak"] == [[1], [2], [2]]
    assert out["winners"] == [1, 2]     # still tied after the tiebreak: they share the win


def test_the_tiebreak_only_matters_between_equal_scores(tmp_path):
    out = finish(outcome_game(tmp_path), 3, 2, 0)
    assert out["winners"] == [0]


def test_order_low_makes_the_lowest_score_win(tmp_path):
    out = finish(outcome_game(tmp_path, order="low"), 1, 0, 2)
    assert out["winners"] == [1]


# ---------------------------------------------------------------- whole games
def test_market_day_plays_to_the_end_deterministically(market_day):
    a = run_random(market_day, 3, seed=12)
    b = run_random(market_day, 3, seed=12)
    assert a.actions == b.actions and a.final == b.final
    assert market_day.is_over(a.final)
    out = market_day.outcome(a.final)
    assert out["winners"] and set(out["winners"]) <= {0, 1, 2}
    assert out["scores"] == [row["coins"] for row in market_day.to_json(a.final)["player_vars"]]


def test_replaying_the_actions_gives_the_same_game(market_day):
    p = run_random(market_day, 4, seed=21)
    s = market_day.new_game(4, seed=21)
    for a in p.actions:
        s = market_day.apply(s, a)
    assert s == p.final


def test_describe_says_where_the_flow_is(market_day):
    s = market_day.new_game(2, seed=1)
    assert market_day.describe(s).splitlines()[0].startswith("Your turn — Player")
    assert market_day.describe(s, "zh").splitlines()[0].startswith("你的回合 — 玩家")
    assert market_day.describe(run_random(market_day, 2, seed=1).final) .startswith("game over")


def test_evaluate_reads_any_expression_in_a_state(shop):
    s = shop.new_game(2)
    assert shop.evaluate(s, "player_count") == 2
    assert shop.evaluate(s, "player.coins", player=1) == shop.evaluate(s, "player.coins", player=1)
    from interpreter.definition.problems import DefinitionError
    with pytest.raises(DefinitionError, match="unknown name"):
        shop.evaluate(s, "no_such_name")
