"""Rollouts: a cheap policy that plays a sampled state on, for search bots.

    state = random_rollout(game, state, rng, limit=40)

A rollout function takes (game, state, rng, limit) and returns the state after at most `limit`
decisions (or the end of the game). It is the one place a search bot plays many moves quickly, so a
faster way to play (legal actions counted and the i-th applied, in place, on a state the rollout owns)
can replace this one without touching the bots: `MctsBot(rollout=...)`.
"""
from __future__ import annotations

PASS_KEEP = 0.25  # the chance a drawn pass is kept when something else could be done


def random_rollout(game, state, rng, limit: int):
    """Uniformly random decisions, except that a pass drawn while other actions exist is kept only with
    probability PASS_KEEP (random play that passes freely builds nothing)."""
    legal_actions = game.legal_actions
    is_over = game.is_over
    apply = game.apply
    for _ in range(limit):
        if is_over(state):
            break
        acts = legal_actions(state, labels=False)
        if not acts:
            break
        a = acts[rng.randrange(len(acts))]
        if a.get("action") == "pass" and len(acts) > 1 and rng.random() > PASS_KEEP:
            a = acts[rng.randrange(len(acts))]
        state = apply(state, a["id"])
    return state
