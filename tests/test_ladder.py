"""The strength ladder and the search bot: bots named by specs, MCTS deterministic under a seed, and in
a game whose lowest score wins, both the search bot and the greedy one beat random play by far."""
from pathlib import Path

import pytest

from interpreter.players.bots import BotSpecError, GreedyBot, decide, make_bot, parse_bot_spec
from interpreter.cli import main
from interpreter.game import load_game
from interpreter.analysis.ladder import ladder, ladder_text, lineups
from interpreter.players.mcts import MctsBot, reward
from interpreter.engine.playout import play_game

LOW_CARDS = Path(__file__).resolve().parent / "fixtures" / "low_cards"


@pytest.fixture(scope="module")
def low_cards():
    return load_game(LOW_CARDS)


def test_bot_specs_name_a_bot_and_its_options():
    assert parse_bot_spec("mcts:iterations=50,c=1.2") == ("mcts", {"iterations": 50, "c": 1.2})
    assert parse_bot_spec("greedy") == ("greedy", {})
    bot = make_bot("mcts:ms=250", 1)
    assert isinstance(bot, MctsBot) and bot.ms == 250 and bot.iterations is None
    assert make_bot("greedy:depth=1", 1).depth == 1
    for bad, words in (("mcts:budget=3", "not an option of mcts"), ("mcts:ms=fast", "ms must be a float"),
                       ("clever", "unknown bot"), ("mcts:ms=5,iterations=3", "not both"),
                       ("greedy:depth=-1", "negative"), ("mcts:ms=nan", "finite number"),
                       ("mcts:c=inf", "finite number")):
        with pytest.raises(BotSpecError, match=words):
            make_bot(bad, 1)


def test_mcts_is_deterministic_under_a_seed_with_an_iteration_budget(low_cards):
    runs = [play_game(low_cards, 2, 7, ["mcts:iterations=25", "greedy"])["actions"] for _ in range(2)]
    assert runs[0] == runs[1]


def test_the_value_follows_the_score_order(low_cards):
    s = low_cards.new_game(2, 1)
    s.p[0][low_cards.layout.pvars["penalty"]] = 3
    low = reward(low_cards, s, -1, over=False)
    assert low[1] > 0.5 > low[0]  # fewer penalty points is better here
    high = reward(low_cards, s, 1, over=False)
    assert high[0] > 0.5 > high[1]


def test_greedy_plays_for_the_lowest_score_where_it_wins(low_cards):
    values = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    for seed in range(1, 6):
        s = low_cards.new_game(2, seed)
        row = {x: values[s.types[x]] for x in s.zones[low_cards.layout.gzones["row"]]}
        choice = decide(GreedyBot(seed), low_cards, s)
        assert choice["id"] == "blind" or row[choice["args"]["c"]] == min(row.values())


def test_lineups_rotate_the_first_bots_seat():
    assert lineups("a", "b", 3, 4) == [["a", "b", "b"], ["b", "a", "b"], ["b", "b", "a"], ["a", "b", "b"]]


def test_in_a_lowest_score_game_search_and_greedy_beat_random_by_far(low_cards):
    result = ladder(low_cards, 2, 24, ["random", "greedy", "mcts:iterations=30"], seed=1, jobs=1)
    by_pair = {(p["a"], p["b"]): p for p in result["pairs"]}
    for bot in ("greedy", "mcts:iterations=30"):
        pair = by_pair[(bot, "random")]
        assert pair["win_rate"] >= 0.8 and pair["ci95"][0] > 0.5, pair
        assert pair["score_a"] < pair["score_b"]  # fewer penalty points
        assert pair["seconds_per_decision"][bot] > 0
    text = ladder_text(result)
    assert "greedy" in text and "random" in text and "win rate" in text


def test_the_ladder_keeps_every_game_so_a_lost_one_can_be_played_again(low_cards):
    result = ladder(low_cards, 2, 6, ["random", "greedy"], seed=3, jobs=1)
    (pair,) = result["pairs"]
    games = pair["per_game"]
    assert [g["seed"] for g in games] == list(range(3, 9)) and [g["seat"] for g in games] == [0, 1] * 3
    assert sum(g["won"] for g in games) == pair["wins"]
    for g in games:
        mine, other = g["scores"][g["seat"]], g["scores"][1 - g["seat"]]
        assert g["won"] == (1.0 if g["winners"] == [g["seat"]] else 0.5 if g["seat"] in g["winners"] else 0.0)
        assert (mine < other) == (g["winners"] == [g["seat"]])  # the lowest score wins in this game
    lost = [g for g in games if g["won"] < 1.0]
    text = ladder_text(result)
    assert all(f"seed {g['seed']} (seat {g['seat'] + 1}," in text for g in lost)
    assert ("did not win outright" in text) == bool(lost)


def test_ladder_command_prints_the_table(capsys):
    code = main(["ladder", str(LOW_CARDS), "--players", "2", "--games", "4", "--bots",
                 "random,mcts:iterations=5,c=0.5", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "mcts:iterations=5,c=0.5" in out and "fair share" in out


def test_ladder_command_rejects_a_bad_bot(capsys):
    assert main(["ladder", str(LOW_CARDS), "--players", "2", "--games", "2", "--bots", "random,smart"]) == 2
    assert "unknown bot 'smart'" in capsys.readouterr().err


def test_play_takes_bot_specs_at_every_seat(capsys):
    code = main(["play", str(LOW_CARDS), "--players", "3", "--seed", "2", "--quiet", "--bot", "greedy:depth=1",
                 "--seat", "2=mcts:iterations=5,c=1"])
    out = capsys.readouterr().out
    assert code == 0 and "Player 2 mcts:iterations=5,c=1" in out and "Player 1 greedy:depth=1" in out
    assert main(["play", str(LOW_CARDS), "--players", "2", "--seat", "1=mcts:speed=3"]) == 2
    assert "not an option of mcts" in capsys.readouterr().err


def test_play_help_documents_the_bots_and_their_budgets(capsys):
    assert main(["play", "--help"]) == 0
    text = capsys.readouterr().out
    for words in ("mcts:ms=N", "iterations=N", "greedy[:depth=D]", "score order", "view"):
        assert words in text


def test_a_sample_the_rules_cannot_play_on_is_dropped_not_fatal(low_cards):
    """What the seat cannot see may be dealt in a way the rules never reach (a payment its payer cannot
    make); a rule error on such a sample costs the search that iteration only."""
    from interpreter.language.compiler import RuleError
    from interpreter.players.rollout import random_rollout

    calls = []

    def flaky(game, state, rng, limit):
        calls.append(1)
        if len(calls) % 2:
            raise RuleError("a repeat ran 60 times (its max)", "a sample")
        return random_rollout(game, state, rng, limit)

    s = low_cards.new_game(2, 3)
    bot = MctsBot(seed=1, iterations=20, rollout=flaky)
    choice = decide(bot, low_cards, s)
    assert choice["id"] in {a["id"] for a in low_cards.legal_actions(s)}
    assert len(calls) >= 10 and bot.last_iterations == 20


def test_the_search_starts_from_the_one_step_value_of_each_action(low_cards):
    """With `prior`, every action of the seat starts with visits worth the score margin right after it:
    here the lowest card of the row (fewest penalty points) starts ahead of the others."""
    values = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    from interpreter.players.determinize import Determinizer

    for seed in range(1, 4):
        s = low_cards.new_game(2, seed)
        view = low_cards.view(s, 0)
        acts = {a["id"]: a for a in low_cards.legal_actions(s)}
        root = MctsBot(seed=1, iterations=1, prior=3).search(low_cards, Determinizer.of(low_cards, view), 0, acts)
        row = {a["id"]: values[s.types[a["args"]["c"]]] for a in acts.values() if a["action"] == "take"}
        start = {i: root.children[i].total / root.children[i].visits for i in row}
        assert max(start, key=start.get) in [i for i, v in row.items() if v == min(row.values())]


def test_a_ceiling_stops_the_search_whatever_its_iteration_budget(low_cards):
    """A host running bots for others (the web table) caps each decision's thinking time."""
    import time

    state = low_cards.new_game(players=2, seed=1)
    bot = MctsBot(seed=1, iterations=10 ** 9)
    bot.ceiling_ms = 50
    started = time.perf_counter()
    decide(bot, low_cards, state)
    assert time.perf_counter() - started < 2 and 0 < bot.last_iterations < 10 ** 9
