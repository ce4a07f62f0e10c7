"""The learned bot: one look ahead over the legal actions, each position after it judged by a value model
learned from the definition by self-play (`valuemodel`, trained by `meeple train`).

    bot = make_bot("learned", seed=1)          # the game's model, found beside its definition
    action = decide(bot, game, state)          # from the seat's view, as every bot

For each legal action the bot samples a state from its seat's view (`determinize`), plays the action on it
and asks the model what the position is worth to the seat (`evaluator.Evaluator.utilities`: its predicted
final score, its chance to win weighed in, against the best other's, or the shared result first in a
cooperative game); with `samples=K` it averages K samples. By default it takes one, or BLIND_SAMPLES where
the seat cannot see some of its own pieces (a card held facing out): one sample would guess them and play
as if the guess were known — calling a hidden card by one guess wins as often as guessing at random —
where several weigh the chances.
An action that hands the decision to another seat inside what it opened (the flow deeper than where the
seat decided: an auction it opened, a role every seat then plays) is played through before it is judged,
every seat by its own one look on the sample, at most `replies` decisions and REPLY_POSITIONS positions:
judged half-way, an auction is a bid owed for a card not yet anybody's, and a bot that opens none stalls
a game whose cards must be bought. With `own=N`, an action after which the seat goes on deciding inside
what it decided (the same step again: its second die; deeper: the building its role lets it build) is
followed by the seat's own one-step choices, at most N, before it is judged (`play_own`): a tile taken is
judged placed, not as a tile in storage. It costs a look per follow-up, so it is off by default (the fast
bot stays near a millisecond); in two shipped games it wins most games against the one-step look
(README, "The learned bots").
Where seats compete, a seat plays to come out ahead: its worth is its predicted score plus its predicted
chance to win (the model's result head) weighed `win` times the model's score scale, and it plays for its
worth against the best other seat's (default WIN = 4, the ratio of a win to the margin in how mcts values
a finished game, 0.8 to 0.2; `win=0`: the margin alone). The margin alone misses what decides games
without points of its own: in one shipped game the track that breaks ties also ends the game, and with
the chance to win counted the learned bot won 16 of 20 against the margin-only bot (README).
It thinks about a millisecond per decision: a model is a table of weights, and a position costs one
look-up per piece.

Which model: `models/*.json` in the game's folder whose `players` list the table's player count and whose
rules hash is the game's, the one of fewest player counts first (`model=NAME` picks `models/NAME.json`);
for a variant or house rule, one trained on it, else its base game's (the features have the same names). A model trained on other rules is refused
(`StaleModel`); no model at all is a `NoModel` error naming `meeple train`.
"""
from __future__ import annotations

import math
import weakref
from pathlib import Path
from typing import Any

from ..engine import fastpath
from ..engine.errors import IllegalAction
from ..language.compiler import RuleError
from .bots import PASS_ACTION, Bot, BotSpecError, SeatView
from .determinize import Determinizer, unrecorded
from .mcts import flow_at
from .valuemodel import MODEL_DIR, ModelError, ValueModel, rules_hash

PASS_PENALTY = 1e-6  # a pass loses to any action of the same value
BLIND_SAMPLES = 8    # samples per decision where the seat cannot see some of its own pieces
STALL_LENGTHS = 3.0  # a game past this many times the model's usual length is taken to be stalled: bots
STALL_EXPLORE = 0.1  # that judge alike may each prefer to wait forever (nobody buys, nobody scores), so
                     # each then plays a uniformly random move this often (drawn from its seeded generator)
REPLIES = 8          # decisions played through after an action that hands the decision to another seat
REPLY_POSITIONS = 24  # and at most this many positions judged doing so, per action (the cost stays bounded)
OWN_POSITIONS = 64    # positions judged at most playing on the seat's own run of decisions (`own`), per action
WIN = 4.0             # the weight of the chance to win in a seat's utility (`win`; evaluator.Evaluator.utilities)
MAX_WIN = 1000.0      # (a larger weight than this would only drown the margin in rounding)


def win_weight(bot: str, win: float | None) -> float:
    """The `win` option of a bot: WIN when not given; BotSpecError outside 0..MAX_WIN."""
    win = WIN if win is None else win
    if not 0 <= win <= MAX_WIN:
        raise BotSpecError(f"{bot}: win is a weight from 0 to {MAX_WIN:g}")
    return win


class NoModel(ModelError):
    """No trained model for this game and player count."""


class LearnedBot(Bot):
    """One ply over the legal actions, judged by a learned value (see the module doc). Options: `samples`
    (states sampled from the view per decision; default 1, BLIND_SAMPLES where the seat cannot see some
    of its own pieces), `replies` (decisions played through after an action that hands the decision to
    another seat; default REPLIES, 0 none), `own` (decisions of the seat's own run played on before
    judging, `play_own`; default 0), `explore` (the chance of a uniformly random
    choice: for self-play while training; default 0). In a game that has run past STALL_LENGTHS times
    the model's usual length, the chance is at least STALL_EXPLORE."""

    name = "learned"

    def __init__(self, seed: Any = None, samples: int | None = None, explore: float = 0.0,
                 model: ValueModel | str | None = None, replies: int = REPLIES, own: int = 0,
                 win: float | None = None):
        super().__init__(seed)
        if own < 0:
            raise BotSpecError("learned: own must not be negative")
        self.own = own
        self.win = win_weight("learned", win)
        if samples is not None and samples < 1:
            raise BotSpecError("learned: samples must be at least 1")
        if not 0 <= explore <= 1:
            raise BotSpecError("learned: explore is a chance, from 0 to 1")
        if replies < 0:
            raise BotSpecError("learned: replies must not be negative")
        self.samples, self.explore, self.model, self.replies = samples, explore, model, replies
        self._judges: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

    def spec(self) -> str:
        extra = [f"samples={self.samples}"] if self.samples is not None else []
        extra += [f"explore={self.explore:g}"] if self.explore else []
        extra += [f"model={self.model}"] if isinstance(self.model, str) else []
        extra += [f"replies={self.replies}"] if self.replies != REPLIES else []
        extra += [f"own={self.own}"] if self.own else []
        extra += [f"win={self.win:g}"] if self.win != WIN else []
        return "learned" + (":" + ",".join(extra) if extra else "")

    def judge(self, game, players: int):
        per_game = self._judges.get(game)
        if per_game is None:
            per_game = self._judges[game] = {}
        j = per_game.get(players)
        if j is None:
            j = per_game[players] = (self.model.bind(game, checked=False) if isinstance(self.model, ValueModel)
                                     else evaluator_for(game, players, self.model)).aiming(self.win)
        return j

    def choose(self, game, view, actions: list[dict]) -> dict:
        actions = self._actions(view, actions)
        if len(actions) == 1:
            return actions[0]
        chance = self.explore
        if stalled(view, self.judge(game, view["players"])):
            chance = max(chance, STALL_EXPLORE)
        if chance and self.rng.random() < chance:
            return actions[self.rng.randrange(len(actions))]
        values = self.values(game, view, actions)
        best = max(values)
        top = [a for a, v in zip(actions, values) if v == best]
        return top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]

    def values(self, game, view, actions: list[dict]) -> list[float]:
        """Each action's mean utility to the seat over `samples` states sampled from its view."""
        view = view.dict() if isinstance(view, SeatView) else view
        me = view["viewer"]
        judge = self.judge(game, view["players"])
        totals = [0.0] * len(actions)
        counted = [0] * len(actions)
        fast = fastpath.supports(game)
        with unrecorded(game):
            sampler = Determinizer.of(game, view)
            samples = self.samples if self.samples is not None else BLIND_SAMPLES if _blind(view) else 1
            for _ in range(samples):
                state = sampler.sample(self.rng)
                sealed = bool(game.is_simultaneous(state))
                if sealed:
                    state = game.conceal(state, me)
                index = _menu_index(game, state) if fast and not sealed else None
                where = flow_at(game, state)
                for i, a in enumerate(actions):
                    try:
                        if sealed:
                            after = game.apply(state, a["id"], player=me)
                        elif index is not None:
                            k = index.get(a["id"])
                            if k is None:  # not legal in this sample (it differs where the seat cannot see)
                                continue
                            after = fastpath.apply_index(game, state, k, probe=True)  # (its menu unread)
                        else:
                            after = game.apply(state, a["id"])
                        if not sealed:
                            after = play_on(game, judge, after, me, where, fast, self.replies, self.own)
                        v = judge.utilities(after)[me]
                    except (RuleError, IllegalAction):  # a sample the rules cannot play on: no measure of it
                        continue
                    if a.get("action") == PASS_ACTION:
                        v -= PASS_PENALTY
                    totals[i] += v
                    counted[i] += 1
        return [t / c if c else -math.inf for t, c in zip(totals, counted)]

def stalled(view, judge) -> bool:
    """Has the game run past STALL_LENGTHS times the model's usual length (bots that judge alike may each
    prefer to wait forever: the leader to keep its lead, nobody buying)."""
    return view["decisions"] > STALL_LENGTHS * judge.length(view["players"])


def play_through(game, judge, s, me: int, depth: int, fast: bool, replies: int = REPLIES,
                 positions: int = REPLY_POSITIONS):
    """The position once what seat `me`'s action opened is over, where it hands the decision to another
    seat (an auction it opened: the others bid, it may raise, someone pays): while the flow is deeper
    than `depth` (where the seat decided), every seat, this one too, plays its one-step choice by the
    model on this sampled state, at most `replies` decisions and `positions` positions judged. `s` itself
    when the seat goes on deciding. One step would judge the auction half-way, its card not yet anybody's."""
    def deciding(k, s):
        if len(s.flow) <= depth:
            return None
        q = game.current_player(s)
        return None if k == 0 and q == me else q  # at first: the seat goes on deciding, nothing handed on

    return walk(game, judge, s, fast, replies, positions, deciding)


def play_on(game, judge, s, me: int, where: tuple, fast: bool, replies: int, own: int):
    """The position after seat `me`'s action (`s`, made where `flow_at` says), what it handed to other seats
    played through (`play_through`, at most `replies` decisions), then the seat's own run of decisions
    played on (`play_own`, at most `own`)."""
    if replies:
        s = play_through(game, judge, s, me, where[0], fast, replies)
    if own:
        s = play_own(game, judge, s, me, where, fast, own)
    return s


def play_own(game, judge, s, me: int, where: tuple, fast: bool, steps: int,
             positions: int = OWN_POSITIONS):
    """The position once seat `me` has played on by its one-step choices on the model, while it goes on
    deciding inside what it was deciding at `where` (`flow_at`): deeper in the flow (the building its role
    lets it build), or the same step again (its second die); not a next step of its turn (the workers it
    manages after declining an auction: a look one step further down one action's line than down
    another's favours the action that keeps the turn). At most `steps` decisions and `positions` positions
    judged. `s` itself when another seat decides."""
    depth, at = where

    def deciding(_k, s):
        if game.current_player(s) != me or len(s.flow) < depth:
            return None
        return None if len(s.flow) == depth and flow_at(game, s)[1] != at else me

    return walk(game, judge, s, fast, steps, positions, deciding)


def walk(game, judge, s, fast: bool, steps: int, positions: int, deciding):
    """Play on from `s`, at most `steps` decisions and `positions` positions judged, each by the one look
    of the seat `deciding(k, s)` names at the k-th decision (None: stop there; so does the game's end or
    a sealed choice)."""
    judged = 0
    for k in range(steps):
        if game.is_over(s) or game.is_simultaneous(s):
            break
        q = deciding(k, s)
        if q is None:
            break
        nxt, count = one_look(game, judge, s, q, fast, positions - judged)
        judged += count
        if nxt is None:
            break
        s = nxt
    return s


def one_look(game, judge, s, q: int, fast: bool, budget: int):
    """(the position after seat `q`'s best action in `s` by the model, the number of actions judged), or
    (None, that number) when `s` offers no action or more than `budget`."""
    if fast:
        count = fastpath.legal_count(game, s)
        options = (fastpath.apply_index(game, s, i, probe=True) for i in range(count))
    else:
        ids = [a["id"] for a in game.legal_actions(s, labels=False)]
        count, options = len(ids), (game.apply(s, x) for x in ids)
    if not count or count > budget:
        return None, count
    best, best_v = None, -math.inf
    for u in options:  # (they are made from `s`: it changes only once they are all judged)
        v = judge.utilities(u)[q]
        if v > best_v:
            best, best_v = u, v
    return best, count


class SearchBot(Bot):
    """Information-set MCTS guided by the learned value (`search[:iterations=N|ms=N,c=C,depth=D,prior=P,replies=N,wide=1,finish=K,own=N,win=W]`):
    the tree of `mcts.MctsBot`, each leaf valued by the model instead of a long random rollout (`depth`
    random decisions first, default 0), and each of the seat's actions primed with `prior` visits worth
    its value by the model (the learned bot's view). A leaf's value is the chance the model gives the seat
    to come out ahead, from its predicted margin and how much of the game remains. Such chances lie close
    together far from the end (a few thousandths apart early in a game), so the tree compares each child's
    mean with its siblings' range (`normalize`): compared raw, the exploration term swamped them and the
    visits spread evenly, so that in one shipped game the search lost to the learned bot it is built on
    (README, "The learned bots"). A leaf (and the first look at each action) where the last move handed
    the decision to another seat inside what it opened is first played through as the learned bot does
    (`play_through`, at most `replies` decisions; default 0: none), so that what it opened is not judged before
    the others have answered. With `wide=1` every node the walk meets for the first time is primed as
    the root is (a child for each action, worth the position right after it, the walk going on from the
    best for the seat deciding there) instead of trying one untried action at random: each seat's reply
    is then its best by the model, not a random one, at two to three times the cost per iteration (in
    one shipped game at 4 players it won 9 of 20 against mcts with 200 iterations, 65 ms; 3 of 10
    without). The play-through is off by default (SEARCH_REPLIES): against mcts it won one game of 20
    more in one shipped game and four fewer in another (README, "The learned bots"). With `finish=K` a
    leaf past an end trigger (the game ends where the rules fix, the round's end, whatever is chosen now)
    is played out at random K times to the end and valued by the outcome, as mcts values it: the model
    judges a last round by what positions of the whole game were worth, and there misses points the end
    pays (in one shipped game a seat's last scoring gave 29 points by the model's choices, 63 played out).
    With `own=N` each leaf and each first look is judged after the seat that made the last move has
    played on its own run of decisions (`play_own`, as `learned:own=N`); a large `prior` then keeps the
    tree near that look where its few iterations cannot tell better. `win` weighs each seat's chance to
    win in the utilities its leaves are judged by, as for the learned bot."""

    name = "search"

    def __init__(self, seed: Any = None, iterations: int | None = None, ms: float | None = None, c: float = None,
                 depth: int = 0, prior: int = None, model: ValueModel | str | None = None,
                 replies: int = None, wide: int = 0, finish: int = 0, own: int = 0, win: float | None = None):
        replies = SEARCH_REPLIES if replies is None else replies
        c = SEARCH_C if c is None else c
        if replies < 0:
            raise BotSpecError("search: replies must not be negative")
        if finish < 0:
            raise BotSpecError("search: finish must not be negative")
        if own < 0:
            raise BotSpecError("search: own must not be negative")
        win = win_weight("search", win)
        prior = SEARCH_PRIOR if prior is None else prior
        super().__init__(seed)
        from .mcts import MctsBot
        if iterations is None and ms is None:
            iterations = SEARCH_ITERATIONS
        self.model = model
        self.tree = MctsBot(seed, iterations=iterations, ms=ms, c=c, depth=depth, prior=prior, normalize=True)
        self.tree.rng = self.rng
        self.tree.value = self._value
        self.replies = replies
        self.own = own
        self.win = win
        self.wide = wide
        self.tree.prime_all = bool(wide)
        self.finish = finish
        if replies or own:
            self.tree.settle = self._settle
        self._judge = None
        self._game = None

    def spec(self) -> str:
        t = self.tree
        parts = [f"ms={t.ms:g}" if t.ms is not None else f"iterations={t.iterations}"]
        parts += [f"{k}={v:g}" for k, v, d in (("c", t.c, SEARCH_C), ("depth", t.depth, 0), ("prior", t.prior, SEARCH_PRIOR))
                  if v != d]
        parts += [f"model={self.model}"] if isinstance(self.model, str) else []
        parts += [f"replies={self.replies}"] if self.replies != SEARCH_REPLIES else []
        parts += [f"wide={self.wide}"] if self.wide else []
        parts += [f"finish={self.finish}"] if self.finish else []
        parts += [f"own={self.own}"] if self.own else []
        parts += [f"win={self.win:g}"] if self.win != WIN else []
        return "search:" + ",".join(parts)

    def _settle(self, game, state, seat: int, where: tuple):
        """A leaf where the last move handed the decision to another seat inside what it opened is
        played through first (`play_through`), and the seat's own run of decisions played on
        (`play_own`), as the learned bot does."""
        return play_on(game, self._judge, state, seat, where, fastpath.supports(game), self.replies, self.own)

    def _value(self, game, state, sign: int, over: bool) -> list[float]:
        from .mcts import reward
        if over:
            return reward(game, state, sign, True)
        if self.finish and state.ends:
            # The end is set (a trigger fired: the game ends where the rules say, the round's end):
            # what remains is played out at random, `finish` times, and valued by how the game ends.
            return self._finish(game, state, sign)
        return self._judged(state)

    def _judged(self, state) -> list[float]:
        """Each seat's chance by the model to come out ahead (its margin scaled by what remains)."""
        judge = self._judge
        u = judge.utilities(state)
        spread = max(1.0, judge.model.scale) * (0.25 + 0.75 * math.sqrt(judge.remaining(state)))
        return [(1 - LEAF_MARGIN) / (1.0 + math.exp(-max(-30.0, min(30.0, v / spread)))) +
                LEAF_MARGIN * (0.5 + 0.5 * v / (abs(v) + spread)) for v in u]

    def _finish(self, game, state, sign: int) -> list[float]:
        from .mcts import reward
        from .rollout import random_rollout
        total = None
        for k in range(self.finish):
            s = random_rollout(game, state.copy(game.layout) if k < self.finish - 1 else state, self.rng,
                               FINISH_LIMIT)
            over = game.is_over(s)
            v = reward(game, s, sign, True) if over else self._judged(s)
            total = v if total is None else [a + b for a, b in zip(total, v)]
        return [t / self.finish for t in total]

    def choose(self, game, view, actions: list[dict]) -> dict:
        actions = self._actions(view, actions)
        if len(actions) == 1:
            return actions[0]
        self.bind(game, view["players"])
        if stalled(view, self._judge) and self.rng.random() < STALL_EXPLORE:  # as the learned bot
            return actions[self.rng.randrange(len(actions))]
        return self.tree.choose(game, view, actions)

    def bind(self, game, players: int) -> None:
        """Value the tree's positions by the model for `game` at `players` (found once)."""
        if self._game is not game or self._judge is None or self._players != players:
            self._judge = (self.model.bind(game, checked=False) if isinstance(self.model, ValueModel)
                           else evaluator_for(game, players, self.model)).aiming(self.win)
            self._game, self._players = game, players


SEARCH_ITERATIONS = 100
SEARCH_C = 0.5      # exploration: a model's values are surer than random rollouts'
SEARCH_PRIOR = 4    # visits each of the seat's actions starts with, worth its value by the model
SEARCH_REPLIES = 0  # decisions a leaf is played through (`play_through`): measured both ways, no clear gain
FINISH_LIMIT = 400  # decisions a leaf past the end trigger is played out at most (`finish`)
LEAF_MARGIN = 0.2   # as at the end of a game (`mcts.MARGIN_WEIGHT`): the part of a value the margin decides


_found: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _blind(view: dict) -> bool:
    """Does the seat's view hide some of the seat's own pieces from it."""
    own = view["player_zones"][view["viewer"]]
    return any(isinstance(z, dict) and z.get("hidden") for z in own.values())


def _menu_index(game, state) -> dict:
    """{action id: its index in the state's menu} (the engine's index path)."""
    return {fastpath.action_id(game, state, i): i for i in range(fastpath.legal_count(game, state))}


def model_files(root) -> list[Path]:
    folder = Path(root) / MODEL_DIR
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def find_model(game, players: int, name: str | None = None) -> tuple[ValueModel, str]:
    """The model that serves `game` at `players` (the file `models/NAME.json` when `name` is given),
    checked against its rules, and a note saying which it is ("the model of GAME, N players" or "the base
    game's model ..." for a variant). NoModel, StaleModel or ModelError otherwise."""
    origin = getattr(game, "origin", None)
    if origin is None:
        raise NoModel(f"{game.id} was not loaded from files: no model beside it")
    root, variants = origin
    files = model_files(root)
    if name is not None:
        files = [p for p in files if p.stem == name]
        if not files:
            raise NoModel(f"no model named {name!r} for {game.id} (its models: "
                          f"{', '.join(p.stem for p in model_files(root)) or 'none'})")
    # The most specific first: a model made for fewer counts was put beside the wider one to serve them (a
    # 4-player model beside one for 2 to 5 players); among equals, by file name.
    candidates = sorted((m for m in (_read(p) for p in files) if m.serves(players)), key=lambda m: len(m.players))
    if not candidates:
        raise NoModel(f"no trained model for {game.id} at {players} players: run `meeple train {game.id} "
                      f"--players {players}`")
    own = rules_hash(game)
    exact = [m for m in candidates if m.rules == own]
    if exact:  # trained on exactly these rules (a variant may have its own: the 2-player game)
        return exact[0], f"the model of {game.id}{' (this variant)' if variants else ''} for {players} players"
    if variants:
        from ..game import load_game
        base = rules_hash(load_game(root))
        based = [m for m in candidates if m.rules == base]
        if based:
            return based[0], (f"the base game's model ({game.id}, {players} players; a variant's features "
                              f"have its names)")
    candidates[0].check(game)  # raises StaleModel, naming the hashes
    raise NoModel(f"no model of these rules for {game.id}")  # not reached


def _read(path: Path) -> ValueModel:
    return ValueModel.load(path)


def evaluator_for(game, players: int, name: str | None = None):
    """The bound model for `game` at `players` (found once per game, count and name)."""
    per_game = _found.get(game)
    if per_game is None:
        per_game = _found[game] = {}
    key = (players, name)
    if key not in per_game:
        model, _note = find_model(game, players, name)
        per_game[key] = model.bind(game, checked=False)
    return per_game[key]


def has_model(game, players: int) -> bool:
    """Is there a usable (fresh) model for `game` at `players`."""
    try:
        evaluator_for(game, players)
        return True
    except ModelError:
        return False
