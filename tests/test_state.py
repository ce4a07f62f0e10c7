"""state: plain data that copies without sharing and round-trips through JSON.

`State.copy` must share nothing mutable with the original (apply relies on it to leave the old state
untouched); `to_json`/`from_json` must give back an equal state; `from_json` of anything that is not a
state of the game raises StateFormatError, never another exception.
"""

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.game import load_game
from interpreter.engine.state import State, StateFormatError

from conftest import ROOT
from games import make_game, run_random

STATE_GAME = """
game: {id: state, players: [2, 3]}
kinds:
  good: {values: [corn, rice]}
vars:
  global:
    n: {init: 1}
    stock: {of: good, init: 2}
  player:
    coins: {init: 3}
    goods: {of: good}
zones:
  global:
    bag: {}
  player:
    hand: {}
components:
  token:
    zone: bag
    fields:
      worn: {}
      marks: {of: good}
    types:
      t: {count: 3}
flow:
  each_player: {step: s}
steps:
  s:
    actions:
      take:
        choose: {x: bag}
        effect: |
          move(x, player.hand)
          x.worn += 1
          x.marks[corn] += 2
          player.goods[rice] += 1
          stock[corn] -= 1
          n += 1
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("state"), STATE_GAME)


@pytest.fixture(scope="module")
def market_day():
    return load_game(ROOT / "examples" / "market_day")


def snapshot(game, s):
    return json.dumps(game.to_json(s), sort_keys=True)


# ---------------------------------------------------------------- copy
MUTATIONS = {
    "global var": lambda c, lay: c.g.__setitem__(lay.gvars["n"], 99),
    "global map": lambda c, lay: c.g[lay.gvars["stock"]].__setitem__("corn", 99),
    "player var": lambda c, lay: c.p[0].__setitem__(lay.pvars["coins"], 99),
    "player map": lambda c, lay: c.p[1][lay.pvars["goods"]].__setitem__("rice", 99),
    "zone": lambda c, lay: c.zones[lay.zone_index("bag")].pop(),
    "player zone": lambda c, lay: c.zones[lay.zone_index("hand", 1)].append(0),
    "location": lambda c, lay: c.loc.__setitem__(0, None),
    "field": lambda c, lay: c.fields[lay.fields["worn"]].__setitem__(0, 99),
    "map field": lambda c, lay: c.fields[lay.fields["marks"]][0].__setitem__("corn", 99),
    "flow frame": lambda c, lay: c.flow[-1].__setitem__(3, 99),
    "flow stack": lambda c, lay: c.flow.pop(),
    "end triggers": lambda c, lay: c.ends.append("x"),
}


@pytest.mark.parametrize("what", list(MUTATIONS))
def test_copy_shares_nothing_mutable(game, what):
    s = game.new_game(2)
    before, loc = snapshot(game, s), list(s.loc)
    c = s.copy(game.layout)
    assert c == s and c is not s
    MUTATIONS[what](c, game.layout)
    assert snapshot(game, s) == before and s.loc == loc


@pytest.mark.parametrize("what", list(MUTATIONS))
def test_new_games_share_nothing_mutable(game, what):
    # New games start from pieces made once per number of seats (Setup._fresh_pieces), copied.
    first = game.new_game(2, seed=3)
    want = snapshot(game, game.new_game(2, seed=3))
    MUTATIONS[what](first, game.layout)
    assert snapshot(game, game.new_game(2, seed=3)) == want


def test_new_games_share_their_list_of_piece_types_which_nothing_changes_in_place(game):
    a, b, c = game.new_game(2, seed=1), game.new_game(2, seed=2), game.new_game(3, seed=1)
    assert a.types is b.types and a.types == c.types[:len(a.types)]


def test_apply_leaves_the_state_it_was_given_untouched(game):
    s = game.new_game(2)
    before = snapshot(game, s)
    t = game.apply(s, "take(x=0)")
    assert snapshot(game, s) == before
    d = game.to_json(t)
    assert d["player_zones"][0]["hand"] == [0] and d["vars"]["stock"]["corn"] == 1
    assert d["pieces"]["fields"]["marks"][0] == {"corn": 2, "rice": 0}


def test_equality_is_by_value(game):
    assert game.new_game(2, seed=1) == game.new_game(2, seed=1)
    assert game.new_game(2, seed=1) != game.new_game(2, seed=2)
    assert game.new_game(2) != game.new_game(3)
    assert (game.new_game(2) == "state") is False


def test_states_are_not_hashable(game):
    with pytest.raises(TypeError):
        hash(game.new_game(2))


# ---------------------------------------------------------------- JSON
def test_to_json_names_everything(game):
    d = game.to_json(game.new_game(2, seed=4))
    assert d["game"] == "state" and d["players"] == 2 and d["decisions"] == 0
    assert d["vars"] == {"n": 1, "stock": {"corn": 2, "rice": 2}}
    assert d["player_vars"] == [{"coins": 3, "goods": {"corn": 0, "rice": 0}}] * 2
    assert d["zones"] == {"bag": [0, 1, 2]}
    assert d["player_zones"] == [{"hand": []}, {"hand": []}]
    assert d["pieces"]["types"] == ["t", "t", "t"]
    assert d["pieces"]["fields"]["worn"] == [0, 0, 0]


def test_json_round_trip_gives_an_equal_state(game):
    s = game.apply(game.new_game(3, seed=2), "take(x=1)")
    text = json.dumps(game.to_json(s))
    t = game.from_json(json.loads(text))
    assert t == s
    assert snapshot(game, t) == snapshot(game, s)
    assert game.legal_actions(t) == game.legal_actions(s)


def test_json_data_is_not_shared_with_the_state(game):
    s = game.apply(game.new_game(2), "take(x=0)")
    before = snapshot(game, s)
    d = game.to_json(s)
    d["vars"]["stock"]["corn"] = 50
    d["zones"]["bag"].append(7)
    d["player_vars"][0]["goods"]["rice"] = 50
    d["pieces"]["fields"]["marks"][0]["corn"] = 50
    d["flow"][-1][3] = 50
    assert snapshot(game, s) == before
    t = game.from_json(game.to_json(s))
    d2 = game.to_json(s)
    t.g[game.layout.gvars["stock"]]["corn"] = 60
    assert game.to_json(s) == d2


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_json_round_trip_at_any_decision_of_market_day(market_day, seed, steps):
    g = market_day
    r = random.Random(seed)
    s = g.new_game(2 + seed % 3, seed=seed)
    for _ in range(steps):
        if g.is_over(s):
            break
        s = g.apply(s, r.choice(g.legal_actions(s, labels=False))["id"])
    t = g.from_json(json.loads(json.dumps(g.to_json(s))))
    assert t == s
    assert g.legal_actions(t) == g.legal_actions(s)
    # and the game goes on the same from both
    r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(5):
        if g.is_over(s):
            break
        ids = [a["id"] for a in g.legal_actions(s, labels=False)]
        assert ids == [a["id"] for a in g.legal_actions(t, labels=False)]
        s, t = g.apply(s, r1.choice(ids)), g.apply(t, r2.choice(ids))
        assert s == t


def test_a_finished_game_round_trips(market_day):
    end = run_random(market_day, 3, seed=8).final
    t = market_day.from_json(market_day.to_json(end))
    assert t == end and market_day.is_over(t)


# ---------------------------------------------------------------- garbage
def _edit(f):
    """A function of a state's JSON that returns a copy changed in place by `f`."""
    def make(d):
        d = copy.deepcopy(d)
        f(d)
        return d
    return make


GARBAGE = {
    "none": lambda d: None,
    "a list": lambda d: [],
    "a string": lambda d: "state",
    "an int": lambda d: 3,
    "empty": lambda d: {},
    "another game": _edit(lambda d: d.__setitem__("game", "chess")),
    "players not a number": _edit(lambda d: d.__setitem__("players", "two")),
    "unsupported player count": _edit(lambda d: d.__setitem__("players", 7)),
    "missing vars": _edit(lambda d: d.pop("vars")),
    "missing a var": _edit(lambda d: d["vars"].pop("n")),
    "vars not a mapping": _edit(lambda d: d.__setitem__("vars", [1, 2])),
    "one player var row short": _edit(lambda d: d["player_vars"].pop()),
    "zones missing": _edit(lambda d: d.pop("zones")),
    "a zone missing": _edit(lambda d: d["zones"].pop("bag")),
    "player zones short": _edit(lambda d: d["player_zones"].pop()),
    "piece beyond the pieces": _edit(lambda d: d["zones"]["bag"].append(99)),
    "piece not a number": _edit(lambda d: d["zones"]["bag"].append("x")),
    "types short": _edit(lambda d: d["pieces"]["types"].pop()),
    "fields missing": _edit(lambda d: d["pieces"].pop("fields")),
    "rng not a number": _edit(lambda d: d.__setitem__("rng", "seed")),
    "options not a mapping": _edit(lambda d: d.__setitem__("options", [1])),
    "flow not a list": _edit(lambda d: d.__setitem__("flow", 5)),
    "flow frame too short": _edit(lambda d: d.__setitem__("flow", [[0]])),
}


@pytest.mark.parametrize("what", list(GARBAGE))
def test_from_json_of_garbage_is_a_state_format_error(game, what):
    d = GARBAGE[what](game.to_json(game.new_game(2)))
    with pytest.raises(StateFormatError):
        game.from_json(d)


def test_state_format_error_is_a_value_error():
    assert issubclass(StateFormatError, ValueError)


ACCEPTED_GARBAGE = {
    "a piece in two zones": _edit(lambda d: d["player_zones"][0]["hand"].append(d["zones"]["bag"][0])),
    "a negative piece id": _edit(lambda d: d["zones"]["bag"].append(-1)),
    "a flow frame naming no node": _edit(lambda d: d["flow"][-1].__setitem__(0, 9999)),
    "an unknown piece type": _edit(lambda d: d["pieces"]["types"].__setitem__(0, "dragon")),
    "a map var that is a number": _edit(lambda d: d["vars"].__setitem__("stock", 3)),
}


@pytest.mark.parametrize("what", list(ACCEPTED_GARBAGE))
def test_from_json_refuses_an_inconsistent_state(game, what):
    d = ACCEPTED_GARBAGE[what](game.to_json(game.new_game(2)))
    with pytest.raises(StateFormatError):
        game.from_json(d)


# ---------------------------------------------------------------- layout
def test_layout_places_global_zones_first_then_each_players_block(game):
    lay = game.layout
    assert (lay.G, lay.PZ) == (1, 1)
    assert lay.zone_index("bag") == 0
    assert [lay.zone_index("hand", p) for p in range(3)] == [1, 2, 3]
    assert [lay.zone_owner(z) for z in range(4)] == [None, 0, 1, 2]
    assert [lay.zone_name(z) for z in range(3)] == ["bag", "hand", "hand"]


def test_state_is_plain_data(game):
    s = game.new_game(2)
    assert isinstance(s, State)
    json.dumps(game.to_json(s))   # nothing but JSON types
    assert isinstance(s.rng, int)
