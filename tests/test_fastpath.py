"""The fast playout path: decisions by index give exactly the games the action dicts give.

Every shipped game and example, several seeds: the i-th decision of `legal_count`/`apply_index` is the
i-th action of `legal_actions`, a game played in place by index ends in the same state (and the same action
ids) as one played through the public API, and without `owned` the state given is left untouched; with
`probe` (the flow stops at a decision knowing only that it offers something) the game is the same game.
"""

import random

import pytest

from interpreter.engine import fastpath
from interpreter.analysis.bench import random_playout
from interpreter.game import IllegalAction, load_game
from interpreter.engine.playout import play_game

from conftest import ROOT, game_dirs

GAMES = {p.name: p for p in game_dirs()}
SEEDS = (3, 4, 5)


def by_dicts(game, players, seed):
    r = random.Random(seed)
    s = game.new_game(players, seed=seed)
    ids, sizes = [], []
    while not game.is_over(s):
        acts = game.legal_actions(s, labels=False)
        sizes.append(len(acts))
        a = acts[int(r.random() * len(acts))]
        ids.append(a["id"])
        s = game.apply(s, a)
    return s, ids, sizes


def by_index(game, players, seed, probe=False):
    r = random.Random(seed)
    s = game.new_game(players, seed=seed)
    ids, sizes = [], []
    while not game.is_over(s):
        n = fastpath.legal_count(game, s)
        sizes.append(n)
        i = int(r.random() * n)
        ids.append(fastpath.action_id(game, s, i))
        s = fastpath.apply_index(game, s, i, owned=True, probe=probe)
    return s, ids, sizes


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_played_by_index_in_place_is_the_game_played_with_action_dicts(name):
    game = load_game(GAMES[name])
    for players in game.player_counts:
        for seed in SEEDS:
            s1, ids1, sizes1 = by_dicts(game, players, seed)
            s2, ids2, sizes2 = by_index(game, players, seed)
            assert (sizes2, ids2) == (sizes1, ids1), f"{players} players, seed {seed}"
            assert s2 == s1 and game.to_json(s2) == game.to_json(s1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_probed_position_is_the_position_and_its_menu_is_made_when_read(name):
    """`probe=True` (a bot's look ahead) stops at the same decisions as the full menu does, a step that
    offers nothing skipped as before, and the menu made when read is the same menu."""
    game = load_game(GAMES[name])
    for players in game.player_counts:
        seed = SEEDS[0]
        s1, ids1, sizes1 = by_index(game, players, seed)
        s2, ids2, sizes2 = by_index(game, players, seed, probe=True)
        assert (sizes2, ids2) == (sizes1, ids1), f"{players} players"
        assert s2 == s1


def test_a_probe_leaves_the_menu_unmade_until_it_is_read(pr):
    s = pr.new_game(4, seed=9)
    t = fastpath.apply_index(pr, s, 0, probe=True)
    assert t.menu is None
    assert fastpath.legal_count(pr, t) == len(pr.legal_actions(fastpath.apply_index(pr, s, 0), labels=False))
    assert t.menu is not None


@pytest.fixture(scope="module")
def pr():
    return load_game("puerto_rico")


def test_the_i_th_index_is_the_i_th_action_and_a_copy_leaves_the_state_untouched(pr):
    s = pr.new_game(4, seed=9)
    for _ in range(40):
        acts = pr.legal_actions(s, labels=False)
        assert fastpath.legal_count(pr, s) == len(acts)
        i = len(acts) // 2
        assert fastpath.action_dict(pr, s, i) == acts[i]
        before = pr.to_json(s)
        t = fastpath.apply_index(pr, s, i)
        assert pr.to_json(s) == before
        assert t == pr.apply(s, acts[i])
        s = t


def test_an_index_out_of_range_is_an_illegal_action_and_changes_nothing(pr):
    s = pr.new_game(3, seed=1)
    before = pr.to_json(s)
    n = fastpath.legal_count(pr, s)
    for bad in (n, -1):
        with pytest.raises(IllegalAction, match=f"there are {n}"):
            fastpath.apply_index(pr, s, bad, owned=True)
    assert pr.to_json(s) == before


def test_a_game_over_has_no_legal_decision(pr):
    s, _ = random_playout(pr, 3, 2, random.Random(2))
    assert pr.is_over(s) and fastpath.legal_count(pr, s) == 0


def test_play_game_with_random_bots_gives_the_same_record_as_the_public_api():
    game = load_game(ROOT / "examples" / "market_day")

    class NoFastPath:  # the public API only: play_game must fall back to the action dicts
        def __getattr__(self, name):
            if name in ("_menu", "_play"):
                raise AttributeError(name)
            return getattr(game, name)

    for seed in (1, 2):
        fast = play_game(game, 3, seed, "random", log=[])
        slow = play_game(NoFastPath(), 3, seed, "random", log=[])
        assert fast["actions"] == slow["actions"] and fast["outcome"] == slow["outcome"]
        assert fast["state"] == slow["state"]


def test_every_decision_is_counted_for_the_seat_that_made_it_on_both_paths():
    """A record's `moves` (what the ladder divides thinking time by) counts each seat's decisions, on the
    index path of random bots as on the public API of the others."""
    game = load_game(ROOT / "examples" / "market_day")
    for bots in ("random", "greedy"):
        rec = play_game(game, 3, 4, bots)
        s, made = game.new_game(3, seed=4), [0, 0, 0]
        for aid in rec["actions"]:
            made[game.current_player(s)] += 1
            s = game.apply(s, aid)
        assert rec["moves"] == made and sum(made) == rec["decisions"] > 0, bots
