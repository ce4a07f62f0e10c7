"""Rollouts: a cheap policy that plays a sampled state on, for search bots.

    state = random_rollout(game, state, rng, limit=40)

A rollout function takes (game, state, rng, limit) and returns the state after at most `limit`
decisions (or the end of the game). The caller gives `state` up: the rollout may play on it in place
(the search bot hands it a state it sampled and owns). It is the one place a search bot plays many moves
quickly, so it uses the engine's index path (`fastpath`: legal actions counted and the i-th applied, no
action dicts) where the game offers it, and any other policy can replace it: `MctsBot(rollout=...)`.
"""
from __future__ import annotations

from ..engine import fastpath

PASS_KEEP = 0.25  # the chance a drawn pass is kept when something else could be done
PASS_ACTION = "pass"


def random_rollout(game, state, rng, limit: int):
    """Uniformly random decisions, except that a pass drawn while other actions exist is kept only with
    probability PASS_KEEP (random play that passes freely builds nothing)."""
    if not fastpath.supports(game):
        return _public_rollout(game, state, rng, limit)
    is_over = game.is_over
    count, name, apply = fastpath.legal_count, fastpath.action_name, fastpath.apply_index
    randrange, random = rng.randrange, rng.random
    for _ in range(limit):
        if is_over(state):
            break
        n = count(game, state)
        if not n:
            break
        i = randrange(n)
        if n > 1 and name(game, state, i) == PASS_ACTION and random() > PASS_KEEP:
            i = randrange(n)
        state = apply(game, state, i, owned=True)
    return state


def _public_rollout(game, state, rng, limit: int):
    """The same policy through the public API (a stand-in game without the index path)."""
    for _ in range(limit):
        if game.is_over(state):
            break
        try:
            acts = game.legal_actions(state, labels=False)
        except TypeError:  # a stand-in game without the labels switch
            acts = game.legal_actions(state)
        if not acts:
            break
        a = acts[rng.randrange(len(acts))]
        if a.get("action") == PASS_ACTION and len(acts) > 1 and rng.random() > PASS_KEEP:
            a = acts[rng.randrange(len(acts))]
        state = game.apply(state, a["id"])
    return state
