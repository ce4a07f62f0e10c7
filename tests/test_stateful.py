"""Property tests over every shipped game: random malformed actions, and a Hypothesis state machine.

- Whatever is handed to `apply` in a reachable state (any JSON-like value, an id a little off, an action
  object of another state or shape), it is either a legal action or refused with `IllegalAction`, and the
  state given is never changed.
- A state machine plays each game with rules apply / save-load / view / undo / a malformed action, and after
  every step checks the invariants: resources conserved, every piece in one zone, the state consistent by
  `from_json`'s own checks, no view leaking what the rules hide, a legal decision or the end.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from interpreter.engine.consistency import state_problem
from interpreter.game import IllegalAction, load_game
from interpreter.engine.invariants import check_state, hidden_leaks, resource_totals

from conftest import game_dirs
from games import run_random

GAMES = {p.name: load_game(p) for p in game_dirs()}
PLAYERS = {name: g.player_counts[0] for name, g in GAMES.items()}
PLAYOUTS = {name: run_random(g, PLAYERS[name], seed=3) for name, g in GAMES.items()}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.text(max_size=30) | st.floats(allow_nan=True),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
shapes = st.fixed_dictionaries({}, optional={"id": json_values, "action": json_values, "args": json_values,
                                             "step": json_values})


def near_ids(legal_ids):
    """Ids a little off a legal one: a character added, removed or changed; an argument renamed."""
    base = st.sampled_from(sorted(legal_ids)) if legal_ids else st.just("x")
    return st.one_of(
        st.tuples(base, st.text(min_size=1, max_size=3)).map(lambda t: t[0] + t[1]),
        st.tuples(base, st.integers(0, 40)).map(lambda t: t[0][:t[1]]),
        base.map(lambda i: i.replace("=", "==", 1)),
        base.map(lambda i: i.replace("(", "[", 1)),
        base.map(lambda i: i.upper()),
    )


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_malformed_actions_change_nothing(name, data):
    game = GAMES[name]
    states = PLAYOUTS[name].states
    s = states[data.draw(st.integers(0, len(states) - 1))]
    legal = {a["id"] for a in game.legal_actions(s, labels=False)}
    other = states[data.draw(st.integers(0, len(states) - 1))]
    action = data.draw(st.one_of(json_values, shapes, near_ids(legal),
                                 st.sampled_from(game.legal_actions(other, labels=False) or [{}])))
    before = json.dumps(game.to_json(s), sort_keys=True)
    try:
        after = game.apply(s, action)
    except IllegalAction as ex:
        assert str(ex)  # a reason
    else:
        aid = action if isinstance(action, str) else action.get("id") or action.get("action")
        assert aid in legal or any(a.startswith(str(aid)) for a in legal), action
        assert after is not s
    assert json.dumps(game.to_json(s), sort_keys=True) == before


class PlayMachine(RuleBasedStateMachine):
    """One game of GAME, driven by Hypothesis; subclassed per game below."""

    GAME = None

    def __init__(self):
        super().__init__()
        self.game = GAMES[self.GAME]
        self.s = self.game.new_game(PLAYERS[self.GAME], seed=11)
        self.totals = resource_totals(self.game, self.s)
        self.history = []

    @precondition(lambda self: not self.game.is_over(self.s))
    @rule(pick=st.integers(0, 10 ** 6))
    def apply_a_legal_action(self, pick):
        acts = self.game.legal_actions(self.s, labels=False)
        self.history.append(self.s)
        self.s = self.game.apply(self.s, acts[pick % len(acts)])

    @rule()
    def save_and_load(self):
        d = json.loads(json.dumps(self.game.to_json(self.s)))
        t = self.game.from_json(d)
        assert t == self.s and self.game.to_json(t) == d
        self.s = t

    @rule(seat=st.integers(0, 5))
    def view(self, seat):
        seat %= self.s.n
        assert hidden_leaks(self.game, self.s, seat) == []

    @precondition(lambda self: self.history)
    @rule()
    def undo(self):
        before = self.game.to_json(self.history[-1])
        self.s = self.history.pop()
        assert self.game.to_json(self.s) == before  # a state is a value: what apply returned later left it alone

    @rule(action=st.one_of(json_values, shapes))
    def a_malformed_action(self, action):
        before = self.game.to_json(self.s)
        try:
            self.game.apply(self.s, action)
        except IllegalAction:
            pass
        assert self.game.to_json(self.s) == before

    @invariant()
    def consistent(self):
        assert check_state(self.game, self.s, self.totals) == []
        assert state_problem(self.game, self.s) is None
        if not self.game.is_over(self.s):
            assert self.game.current_player(self.s) in range(self.s.n)
            assert self.game.legal_actions(self.s, labels=False)


for _name in sorted(GAMES):
    _machine = type(f"Play_{_name}", (PlayMachine,), {"GAME": _name})
    _case = _machine.TestCase
    _case.settings = settings(max_examples=8, stateful_step_count=40, deadline=None, derandomize=True,
                              suppress_health_check=list(HealthCheck))
    globals()[f"TestPlay_{_name}"] = _case
