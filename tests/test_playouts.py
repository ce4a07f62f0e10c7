"""Every game, every player count: seeded random playouts that check the invariants of the machine.

At every decision: there is a legal action; conservation of resources and pieces holds; an illegal action
is refused and leaves the state untouched; the JSON form round-trips (through `from_json`'s consistency
checks); no player's view nor menu shows what the rules hide. At the end: replaying the seed and the actions
gives the same state. Small games get more seeds (they are cheap).
"""

import json
import random

import pytest

from interpreter.game import IllegalAction, load_game
from interpreter.definition.problems import DefinitionError
from interpreter.engine.invariants import action_leaks, check_state, hidden_leaks, resource_totals

from conftest import game_dirs

GAMES = {p.name: p for p in game_dirs()}


def _cases():
    out = []
    for name, path in GAMES.items():
        try:
            counts = load_game(path).player_counts
        except DefinitionError as ex:  # reported by the test itself, not as a collection error
            counts = [str(ex).splitlines()[0]]
        out.extend((name, n) for n in counts)
    return out


CASES = _cases()

SEEDS = (1, 2)
CHEAP_SEEDS = (1, 2, 3, 4, 5, 6, 7, 8)  # games whose playouts take milliseconds
MAX_DECISIONS = 5000


@pytest.mark.parametrize("name,players", CASES)
def test_random_playouts_keep_every_invariant(name, players):
    assert isinstance(players, int), f"{name} does not load: {players}"
    game = load_game(GAMES[name])
    for seed in (CHEAP_SEEDS if len(game.piece_plan) < 10 else SEEDS):
        s = game.new_game(players, seed=seed)
        totals0 = resource_totals(game, s)
        r = random.Random(seed)
        taken = []
        while not game.is_over(s):
            assert len(taken) < MAX_DECISIONS, "the game did not end"
            acts = game.legal_actions(s, labels=False)
            assert acts, f"no legal action at decision {len(taken)} of a game that is not over"
            assert game.current_player(s) is not None
            k = len(taken)
            before = json.dumps(game.to_json(s), sort_keys=True)
            with pytest.raises(IllegalAction):
                game.apply(s, "no_such_action(x=1)")
            assert json.dumps(game.to_json(s), sort_keys=True) == before
            d = game.to_json(s)
            back = game.from_json(json.loads(json.dumps(d)))
            assert back == s
            assert game.legal_actions(back, labels=False) == acts
            for viewer in range(players):
                assert hidden_leaks(game, s, viewer) == []
            assert action_leaks(game, s) == []
            a = r.choice(acts)
            taken.append(a["id"])
            s = game.apply(s, a)
            problems = check_state(game, s, totals0)
            assert not problems, f"after {a['id']} (decision {k}): {problems}"
        out = game.outcome(s)
        # a finished game has a winner, unless all lost together (a cooperative game)
        assert out["winners"] or out.get("shared") == "loss", "a finished game has a winner"
        replay = game.new_game(players, seed=seed)
        for aid in taken:
            replay = game.apply(replay, aid)
        assert replay == s
