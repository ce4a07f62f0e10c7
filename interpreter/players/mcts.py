"""A search bot for any definition: information-set Monte Carlo tree search over determinizations.

    bot = MctsBot(seed=1, iterations=400)     # or ms=500: a time budget per decision
    action = bot.choose(game, view, actions)

Each iteration samples a full state from the seat's view (`determinize`: what the seat cannot see is
dealt at random and the random generator reseeded), then walks one tree shared by all samples (Cowling,
Powley and Whitehouse's single-observer ISMCTS): nodes are sequences of action ids from the decision, so
a sample in which an action is not legal simply does not offer it. At a node, an action no sample has
tried yet is tried first; otherwise the child of the best UCB score for the seat that decides there,
with the number of samples in which the child was available in place of the parent's visits (with
`normalize`, each child's mean is first rescaled over its siblings' means, the worst 0 and the best 1, so
the exploration term weighs the same whatever the spread of the values: a learned model's values lie close
together far from the end). Below the
tree a cheap policy plays on (`rollout`: random, passing only when a coin says so) for at most `depth`
decisions; the position is then valued for every seat (`reward`) and the values are backed up.

The value comes from the definition's own outcome: at the end of the game, a win is 1 (a shared win is
split among the winners), a loss 0, with the score margin in the definition's score order (`high` or
`low`) as a tie-breaker worth at most `MARGIN_WEIGHT`; a position where the rollout stopped before the
end is valued by its score margin alone (the definition's scoring applied as if it ended there).

Before the first iteration each of the seat's actions gets `prior` visits worth the position right after
it (the score margin, on one sample; a pass a little less): the search starts from the greedy bot's
one-step view and spends its iterations where that view is unsure. The tree walk and the rollouts play
on the sampled state in place through the engine's index path (`fastpath`) where the game offers it. A
sample on which a rule fails (hidden things dealt in a way the rules never reach) is dropped.

How far to roll out (`depth`) matters more than how many iterations: a position where the rollout
stopped is valued as if the game ended there, so what pays only later (an income that comes once every
seat has played, a worker bought now and used later) counts for nothing unless the rollout reaches the
point where it pays. The more seats, the more decisions before the seat's own turn comes back: at 4
players, rollouts of 10 decisions left the values of the seat's moves a few hundredths apart (the visits
then follow the exploration term) and 1,000 iterations did no better than 300, while rollouts of 40
decisions (the default) won far more often at the same number of iterations (README, ladder).

With `prime_all` (the search bot's `wide=1`) every node met for the first time is primed in the same way
(`_expand`), the walk going on from its best child for the seat deciding there.

The decision is the most visited action at the root. With an `iterations` budget the bot is
deterministic under its seed; an `ms` budget stops at a wall-clock deadline.
"""
from __future__ import annotations

import math
import time
from typing import Any

from ..engine import fastpath
from ..language.compiler import RuleError
from .bots import PASS_ACTION, Bot, BotSpecError, SeatView, score_order
from .determinize import Determinizer, unrecorded
from .rollout import random_rollout

DEFAULT_ITERATIONS = 200
DEFAULT_DEPTH = 40        # rollout decisions below the tree before the position is valued
DEFAULT_C = 0.7           # exploration constant of UCB (rewards lie in 0..1)
MARGIN_WEIGHT = 0.2       # at the end of a game: the part of the reward that the margin decides
DEFAULT_PRIOR = 3         # visits each root action starts with, worth its one-step value (0: none)
PASS_PENALTY = 0.01       # a pass starts a little below an action of the same one-step value


def reward(game, state, sign: int, over: bool) -> list[float]:
    """Each seat's value of `state`, in 0..1, from the definition's outcome and score order."""
    if over:
        out = game.outcome(state)
        scores, winners = out["scores"], out["winners"]
    else:
        scores, winners = game.scores(state), ()
    n = len(scores)
    scale = 2.0 + sum(abs(s) for s in scores) / (4.0 * n)
    keyed = [sign * s for s in scores]
    values = []
    for seat in range(n):
        best_other = max((k for i, k in enumerate(keyed) if i != seat), default=0)
        m = keyed[seat] - best_other
        v = 0.5 + 0.5 * m / (abs(m) + scale)
        if over:
            share = 1.0 / len(winners) if seat in winners else 0.0
            v = (1 - MARGIN_WEIGHT) * share + MARGIN_WEIGHT * v
        values.append(v)
    return values


class Node:
    __slots__ = ("children", "visits", "total", "avail", "seat")

    def __init__(self, seat):
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0   # the sum of the rewards of `seat`, who chose the action leading here
        self.avail = 0     # samples in which this node's action was legal
        self.seat = seat


class MctsBot(Bot):
    """Information-set MCTS (see the module doc). Options: `iterations` or `ms` (the budget per decision;
    default 200 iterations), `c` (exploration), `depth` (rollout decisions before valuing; 0: none),
    `prior` (visits each root action starts with, worth its one-step value; 0: none); `normalize` (each
    child's mean rescaled over its siblings' before the exploration term is added; off for random
    rollouts' outcomes, which span 0..1, on for the search bot's model values)."""

    name = "mcts"
    # The most it may think per decision, in ms, whatever its budget (None: no ceiling). A host that runs
    # bots for others (the web table) sets it, so that `iterations=N` cannot hold a worker for ever.
    ceiling_ms: float | None = None
    # What plays on from the position a walk reached before it is valued: settle(game, state, seat, where)
    # with the seat that made the walk's last move and where in the flow it made it (`flow_at`; None: nothing).
    settle = None
    prime_all = False  # every node met for the first time primed as the root is (`_expand`), not one child

    def __init__(self, seed: Any = None, iterations: int | None = None, ms: float | None = None,
                 c: float = DEFAULT_C, depth: int = DEFAULT_DEPTH, prior: int = DEFAULT_PRIOR,
                 rollout=random_rollout, normalize: bool = False) -> None:
        super().__init__(seed)
        if iterations is not None and ms is not None:
            raise BotSpecError("mcts: give iterations or ms, not both")
        if iterations is None and ms is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is not None and iterations < 1) or (ms is not None and ms <= 0):
            raise BotSpecError("mcts: the budget must be positive")
        self.iterations, self.ms, self.c, self.depth, self.prior = iterations, ms, c, depth, prior
        self.rollout = rollout
        self.normalize = normalize
        self.last_iterations = 0

    def spec(self) -> str:
        budget = f"ms={self.ms:g}" if self.ms is not None else f"iterations={self.iterations}"
        extra = "".join(f",{k}={v:g}" for k, v, d in (("c", self.c, DEFAULT_C), ("depth", self.depth, DEFAULT_DEPTH),
                                                             ("prior", self.prior, DEFAULT_PRIOR))
                        if v != d)
        return f"mcts:{budget}{extra}"

    def choose(self, game, view, actions: list[dict]) -> dict:
        actions = self._actions(view, actions)
        if len(actions) == 1:
            return actions[0]
        view = view.dict() if isinstance(view, SeatView) else view
        me = view["viewer"]
        by_id = {a["id"]: a for a in actions}
        with unrecorded(game):
            sampler = Determinizer.of(game, view)
            root = self.search(game, sampler, me, by_id)
        best = max(by_id, key=lambda i: (root.children[i].visits if i in root.children else -1,
                                         root.children[i].total if i in root.children else 0.0))
        return by_id[best]

    def search(self, game, sampler, me: int, root_ids: dict) -> Node:
        rng = self.rng
        sign = score_order(game)
        play = Player(game)
        root = Node(None)
        deadline = time.perf_counter() + self.ms / 1000.0 if self.ms is not None else None
        ceiling = time.perf_counter() + self.ceiling_ms / 1000.0 if self.ceiling_ms is not None else None
        done = 0
        primed = self.prior <= 0
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            if ceiling is not None and done and time.perf_counter() >= ceiling:
                break
            done += 1
            state = sampler.sample(rng)  # a fresh state: the search owns it and plays on it in place
            if not primed:
                primed = self._prime(game, play, state, me, root, root_ids, sign)
            made: list = []  # the node this iteration adds (taken back if the sample fails)
            try:
                path, values = self._iterate(game, play, state, root, root_ids, sign, made)
            except RuleError:
                # A sample the rules cannot play on (what the seat cannot see was dealt in a way the
                # rules never reach, say a payment its payer cannot make): nothing to learn from it.
                for children, key in made:
                    del children[key]
                continue
            for n in path[1:]:
                n.visits += 1
                n.total += values[n.seat] if n.seat is not None else 0.0
        self.last_iterations = done
        return root

    def _iterate(self, game, play, state, root, root_ids, sign, made):
        """One walk down the tree from a sampled state, a rollout below it and the position's values:
        (the nodes walked, each seat's value)."""
        rng, c = self.rng, self.c
        node, path = root, [root]
        over = game.is_over(state)
        seat = where = None  # who made the last move of the walk, and where in the flow they made it
        while not over:
            seat = game.current_player(state)
            where = flow_at(game, state)
            index = play.menu(state)
            legal = list(index)
            if node is root:
                legal = [i for i in legal if i in root_ids]
            if not legal:  # a sample in which none of the seat's actions is legal: nothing to learn
                break
            children = node.children
            if self.prime_all and not children and node is not root:
                best = self._expand(game, play, state, node, seat, where, index, legal, sign, made)
                if best is None:
                    break
                path.append(best[0])
                return path, best[1]
            untried = [i for i in legal if i not in children]
            for i in legal:
                child = children.get(i)
                if child is not None:
                    child.avail += 1
            if untried:
                pick = untried[rng.randrange(len(untried))]
                child = children[pick] = Node(seat)
                made.append((children, pick))
                child.avail = 1
                state = play.apply(state, index, pick, probe=not self.depth)  # (a leaf: no rollout reads its menu)
                path.append(child)
                over = game.is_over(state)
                break
            best = self._select(children, legal, c)
            state = play.apply(state, index, best)
            node = children[best]
            path.append(node)
            over = game.is_over(state)
        if not over and self.settle is not None and seat is not None:
            state = self.settle(game, state, seat, where)
            over = game.is_over(state)
        if not over and self.depth:
            state = self.rollout(game, state, rng, self.depth)
            over = game.is_over(state)
        return path, self.value(game, state, sign, over)

    def _select(self, children: dict, legal: list, c: float) -> str:
        """The legal child of the best UCB score: its mean value (rescaled over its siblings to 0..1 when
        `normalize` is on) plus the exploration term."""
        if self.normalize:
            means = [children[i].total / children[i].visits for i in legal]
            lo, hi = min(means), max(means)
            span = hi - lo
            means = [(m - lo) / span for m in means] if span > 1e-12 else [0.5] * len(means)
        else:
            means = None
        best, best_score = None, -math.inf
        for k, i in enumerate(legal):
            ch = children[i]
            q = means[k] if means is not None else ch.total / ch.visits
            score = q + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best, best_score = i, score
        return best

    def value(self, game, state, sign: int, over: bool) -> list[float]:
        """Each seat's value of a position the search reached (in 0..1): `reward` (the outcome at the
        end, the score margin before it); a search guided by a model values positions by the model."""
        return reward(game, state, sign, over)

    def _expand(self, game, play, state, node, seat, where, index, legal, sign, made):
        """Give a node met for the first time a child for each legal action, with `prior` visits worth
        the position right after it (as the root's, `_prime`): (the best child for `seat`, the values
        of its position), None when no action can be played on this sample."""
        k = max(1, self.prior)
        children = node.children
        best = None
        for aid in legal:
            try:
                values = self._look(game, play, state, index, aid, seat, where, sign)
            except RuleError:  # see search: this sample cannot be played on
                continue
            child = children[aid] = Node(seat)
            made.append((children, aid))
            child.visits = child.avail = k
            child.total = k * values[seat]
            if best is None or values[seat] > best[1][seat]:
                best = (child, values)
        return best

    def _look(self, game, play, state, index, aid, seat, where, sign) -> list[float]:
        """Each seat's value of the position right after `seat` plays `aid` on (a copy of) `state`, what it
        handed to other seats settled first (`settle`). RuleError where this sample cannot be played on."""
        after = play.apply(state, index, aid, probe=not self.depth, owned=False)
        if self.settle is not None and not game.is_over(after):
            after = self.settle(game, after, seat, where)
        return self.value(game, after, sign, game.is_over(after))

    def _prime(self, game, play, state, me, root, root_ids, sign) -> bool:
        """Give each of the seat's actions `prior` visits worth the position right after it (its value
        as the score margin, on one sample), so the search starts from the one-step view and spends its
        iterations where that view is unsure. False when this sample does not let the seat choose."""
        if game.is_over(state) or game.current_player(state) != me:
            return False
        index = play.menu(state)
        if not any(i in root_ids for i in index):
            return False
        k = self.prior
        for aid in root_ids:
            if aid not in index:
                continue
            try:
                v = self._look(game, play, state, index, aid, me, flow_at(game, state), sign)[me]
            except RuleError:  # see search: this sample cannot be played on
                continue
            if root_ids[aid].get("action") == PASS_ACTION:
                v -= PASS_PENALTY
            child = root.children[aid] = Node(me)
            child.visits = child.avail = k
            child.total = k * v
        return True


class Player:
    """Menus and moves for the search: on the engine's index path (no action dicts, moves played on a
    state the search owns) when the game offers it, else through the public API."""

    def __init__(self, game):
        self.game = game
        self.fast = fastpath.supports(game)

    def menu(self, state) -> dict:
        """The legal action ids, each with what `apply` needs to play it."""
        game = self.game
        if self.fast:
            return {fastpath.action_id(game, state, i): i for i in range(fastpath.legal_count(game, state))}
        return {a["id"]: a["id"] for a in _legal(game, state)}

    def apply(self, state, index: dict, aid: str, probe: bool = False, owned: bool = True):
        """The state after `aid`: played on `state` itself on the index path, or on a copy with `owned`
        false (made after `state`'s menu is read: a copy's menu is made again, and copying first made
        the menu of a node once per action looked at); `probe`: its menu made only if read
        (`fastpath.apply_index`; for a position the search values without playing on)."""
        if self.fast:
            return fastpath.apply_index(self.game, state, index[aid], owned=owned, probe=probe)
        return self.game.apply(state, aid)


def flow_at(game, state) -> tuple:
    """Where in the flow a seat decides: (the flow's depth, the id of the step it decides in)."""
    step = game.nodes[state.flow[-1][0]].step
    return len(state.flow), step.id if step is not None else None


def _legal(game, state):
    try:
        return game.legal_actions(state, labels=False)
    except TypeError:  # a stand-in game without the labels switch
        return game.legal_actions(state)
