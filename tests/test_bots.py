"""Bots choose a legal action, reproducibly; simulate sums games up. On a tiny stand-in game and on
the shipped game definitions."""
import pytest

from interpreter.players.bots import GreedyBot, NoLegalAction, RandomBot, decide, make_bot
from interpreter.engine.playout import GameTooLong, play_game, seat_bots
from interpreter.analysis.simulate import simulate, text


class IllegalMove(Exception):
    pass


class RaceGame:
    """A stand-in with the engine's API: on its turn a player adds 1 or 2 points, or passes (never
    twice in a row). The game ends after `length` decisions; the most points win."""

    id = "race"
    name = {"en": "Race", "zh": "赛跑"}
    player_counts = [2, 3]
    options = {}

    def __init__(self, length=12):
        self.length = length

    def new_game(self, players, seed, options=None):
        return {"points": [0] * players, "turn": 0, "decisions": 0, "passed": [False] * players}

    def current_player(self, state):
        return None if self.is_over(state) else state["turn"]

    def view(self, state, seat):
        """Everything is public in a race."""
        return {**state, "viewer": seat}

    def from_view(self, view, rng):
        return {k: v for k, v in view.items() if k != "viewer"}

    def legal_actions(self, state, labels=True):
        if self.is_over(state):
            return []
        acts = [{"id": f"add(n={n})", "step": "move", "action": "add", "args": {"n": n},
                 "label": {"en": f"add {n}", "zh": f"加{n}"}} for n in (1, 2)]
        if not state["passed"][state["turn"]]:
            acts.append({"id": "pass", "step": "move", "action": "pass", "args": {},
                         "label": {"en": "pass", "zh": "不做"}})
        return acts

    def apply(self, state, action, log=None):
        action_id = action if isinstance(action, str) else action["id"]
        legal = {a["id"]: a for a in self.legal_actions(state)}
        if action_id not in legal:
            raise IllegalMove(f"{action_id} is not legal")
        a = legal[action_id]
        me = state["turn"]
        points = list(state["points"])
        passed = list(state["passed"])
        passed[me] = a["action"] == "pass"
        if a["action"] == "add":
            points[me] += a["args"]["n"]
        if log is not None:
            log.append({"en": f"seat {me} {a['label']['en']}", "zh": a["label"]["zh"]})
        return {"points": points, "turn": (me + 1) % len(points), "decisions": state["decisions"] + 1,
                "passed": passed}

    def is_over(self, state):
        return state["decisions"] >= self.length

    def scores(self, state):
        return list(state["points"])

    def outcome(self, state):
        scores = self.scores(state)
        top = max(scores)
        return {"scores": scores, "breakdown": [{"points": s} for s in scores],
                "winners": [i for i, s in enumerate(scores) if s == top], "tiebreak": []}


def playout(game, bots, state, limit=10_000):
    """Play to the end; check every choice is legal; return the ids chosen."""
    chosen = []
    while not game.is_over(state) and len(chosen) < limit:
        legal = game.legal_actions(state)
        action = decide(bots[game.current_player(state)], game, state)
        assert action in legal
        chosen.append(action["id"])
        state = game.apply(state, action)
    return chosen


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bot_choices_are_legal_and_reproducible(name):
    game = RaceGame()
    runs = [playout(game, [make_bot(name, 7), make_bot(name, 8)], game.new_game(2, 1)) for _ in range(2)]
    assert runs[0] == runs[1]
    assert len(runs[0]) == game.length


def test_random_bot_spreads_over_all_actions():
    game = RaceGame()
    state = game.new_game(2, 1)
    bot = RandomBot(3)
    seen = {decide(bot, game, state)["id"] for _ in range(200)}
    assert seen == {"add(n=1)", "add(n=2)", "pass"}


def test_random_bots_with_different_seeds_differ():
    game = RaceGame(length=40)
    a = playout(game, [RandomBot(1), RandomBot(2)], game.new_game(2, 1))
    b = playout(game, [RandomBot(3), RandomBot(4)], game.new_game(2, 1))
    assert a != b


def test_greedy_bot_takes_the_best_margin():
    game = RaceGame()
    state = game.new_game(2, 1)
    assert decide(GreedyBot(1), game, state)["id"] == "add(n=2)"


def test_greedy_bot_prefers_acting_to_passing_on_equal_scores():
    class Flat(RaceGame):
        def scores(self, state):
            return [0] * len(state["points"])

    game = Flat()
    state = game.new_game(2, 1)
    picks = {decide(GreedyBot(seed), game, state)["id"] for seed in range(30)}
    assert picks == {"add(n=1)", "add(n=2)"}  # ties broken at random, pass never chosen


def test_bot_without_legal_actions_raises():
    game = RaceGame(length=0)
    with pytest.raises(NoLegalAction):
        decide(RandomBot(1), game, game.new_game(2, 1))


def test_make_bot_names():
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot 'smart'"):
        make_bot("smart", 1)


def test_seat_bots_are_seeded_per_seat():
    a, b = seat_bots("random", 2, seed=5)
    assert a.seed != b.seed
    assert [x.seed for x in seat_bots("random", 2, seed=5)] == [a.seed, b.seed]
    with pytest.raises(ValueError):
        seat_bots(["random"], 2, seed=5)


def test_play_game_records_actions_and_log():
    game = RaceGame()
    log, seen = [], []
    record = play_game(game, 2, seed=3, bots="greedy", log=log, on_decision=seen.append)
    assert record["decisions"] == len(record["actions"]) == game.length == len(seen) == len(log)
    assert record["outcome"]["scores"] == game.scores(record["state"])
    replayed = game.new_game(2, 3)
    for action_id in record["actions"]:
        replayed = game.apply(replayed, action_id)
    assert replayed == record["state"]
    with pytest.raises(GameTooLong):
        play_game(game, 2, seed=3, max_decisions=5)


def test_simulate_sums_up_and_splits_ties():
    summary = simulate(RaceGame(length=10), players=2, games=20, seed=1, bot="random")
    assert summary["completed"] == 20 and summary["errors"] == []
    assert summary["decisions"] == {"mean": 10.0, "min": 10, "max": 10}
    assert sum(summary["wins"]) == pytest.approx(20)
    assert sum(summary["win_rate"]) == pytest.approx(1)
    assert all(s >= 0 for s in summary["score_stdev"])
    assert simulate(RaceGame(length=10), players=2, games=20, seed=1, bot="random")["wins"] == summary["wins"]


def test_simulate_reports_a_failing_game_with_its_seed():
    class Broken(RaceGame):
        def new_game(self, players, seed, options=None):
            if seed == 4:
                raise RuntimeError("boom")
            return super().new_game(players, seed, options)

    calls = []
    summary = simulate(Broken(), players=2, games=3, seed=3, progress=lambda i, r: calls.append(i))
    assert summary["completed"] == 2
    assert summary["errors"] == [{"seed": 4, "error": "RuntimeError: boom"}]
    assert calls == [0, 1, 2]


def test_text_picks_the_language():
    assert text({"en": "build", "zh": "建造"}, "zh") == "建造"
    assert text({"en": "build"}, "zh") == "build"
    assert text("plain", "zh") == "plain"


# ------------------------------------------------------------------ on the shipped definitions

@pytest.fixture(scope="module")
def shipped():
    from interpreter.game import load_game

    return load_game("puerto_rico")


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bots_play_shipped_game_legally_and_reproducibly(shipped, name):
    players = shipped.player_counts[0]
    runs = []
    for _ in range(2):
        bots = seat_bots(name, players, seed=11)
        runs.append(playout(shipped, bots, shipped.new_game(players=players, seed=11)))
    assert runs[0] == runs[1]
    assert shipped.is_over(replay(shipped, players, 11, runs[0]))


def replay(game, players, seed, ids):
    state = game.new_game(players=players, seed=seed)
    for action_id in ids:
        state = game.apply(state, action_id)
    return state


def test_simulate_counts_the_end_triggers_and_measures_the_final_states():
    from interpreter.game import load_game
    game = load_game("phoenicia")
    summary = simulate(game, players=3, games=2, seed=1, bot="random", measure="round")
    assert summary["ends"] == {"vp_target_reached": 2}
    rounds = [game.evaluate(play_game(game, 3, seed)["state"], "round") for seed in (1, 2)]
    assert summary["measure"] == {"expr": "round", "mean": sum(rounds) / 2, "min": min(rounds), "max": max(rounds)}
    assert simulate(game, players=3, games=1, seed=1)["measure"] is None
