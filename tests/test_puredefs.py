"""Pure defs (interpreter/language/puredefs.py): a def whose body reads only its arguments is computed once
per distinct arguments, with the value and the failures of the body as written.

The golden transcripts and scenarios check that no shipped game's play changed; here a tiny game checks the
value against Python, that a def reading the state is inlined, that a failure is not kept, and the bound.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.language import puredefs
from interpreter.language.compiler import RuleError

from games import make_game

GAME = """
game: {id: pure, players: [2]}
options:
  a: {default: 0}
  b: {default: 1}
vars:
  player:
    coins: {init: 3}
defs:
  ring(a, b): "min((a - b) % 6, (b - a) % 6)"
  cost(a, b, step): "(max(0, ring(a, b) - 1) + step - 1) // step"
  rich(p, a): "p.coins + a * 2 - 1 >= 4"
flow: []
scoring:
  items:
    cost: {expr: "cost(option.a, option.b, option.b)"}
    ring: {expr: "ring(option.a, option.b)"}
    rich: {expr: "rich(player, option.a)"}
    folded: {expr: "cost(5, 1, 2)"}
    nested: {expr: "cost(ring(option.a, option.b), option.b, option.b)"}
    inner_fails: {expr: "cost(cost(option.a, 1, option.b), 2, 1)"}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return make_game(tmp_path_factory.mktemp("pure"), GAME)


def memoized(game):
    """The defs compiled as pure functions, by name."""
    return {name for (name, _), f in game.world.compiler._pure_defs.items() if f is not None}


def test_a_def_of_its_arguments_alone_is_memoized_and_one_reading_the_state_is_inlined(game):
    assert memoized(game) == {"cost", "ring"}


def ring(a, b):
    return min((a - b) % 6, (b - a) % 6)


@given(a=st.integers(-50, 50), b=st.integers(1, 9))
def test_a_memoized_def_has_the_value_of_its_body(game, a, b):
    for _ in range(2):  # computed, then looked up
        got = game.score_breakdown(game.new_game(2, options={"a": a, "b": b}))[0]
        assert got["cost"] == (max(0, ring(a, b) - 1) + b - 1) // b
        assert got["ring"] == ring(a, b)
        assert got["rich"] == (3 + a * 2 - 1 >= 4)
        assert got["folded"] == 1  # constant arguments: folded at load, as before
        assert got["nested"] == (max(0, ring(ring(a, b), b) - 1) + b - 1) // b
        assert got["inner_fails"] == max(0, ring((max(0, ring(a, 1) - 1) + b - 1) // b, 2) - 1)


def test_a_pure_call_in_the_arguments_of_another_is_one_memo_look_up(game):
    game.score_breakdown(game.new_game(2, options={"a": 7, "b": 3}))
    # cost(ring(a, b), b, b): one memo keyed by (a, b, b, b), not ring's then cost's
    assert any(type(m) is dict and (7, 3, 3, 3) in m for m in game.world.compiler.pool.K)


def test_a_failure_is_not_kept_it_fails_every_time(game):
    for _ in range(3):  # (the inner call of inner_fails fails too: `step` 0)
        with pytest.raises(RuleError, match="division by zero"):
            game.score_breakdown(game.new_game(2, options={"a": 4, "b": 0}))
    assert game.score_breakdown(game.new_game(2, options={"a": 4, "b": 2}))[0]["cost"] == 1


def test_the_memo_keeps_at_most_its_limit_of_argument_lists(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLE_CACHE", "off")  # compiled here, with the limit below
    monkeypatch.setattr(puredefs, "MAX_PURE_MEMO", 5)
    g = make_game(tmp_path, GAME)
    for a in range(12):
        assert g.score_breakdown(g.new_game(2, options={"a": a, "b": 1}))[0]["ring"] == ring(a, 1)
    memos = [obj for obj in g.world.compiler.pool.K if type(obj) is dict and obj
             and all(type(k) is tuple and len(k) == 2 for k in obj)]
    assert memos and all(len(m) <= 5 for m in memos)
    assert any(len(m) == 5 for m in memos)
