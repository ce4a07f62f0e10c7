"""`meeple compare`: base and variant on the same seeds with the same bots; the figures and their intervals."""
import json
import math
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.analysis.compare import (NO_TRIGGER, compare, compare_text, delta, describe, mean_difference, newcombe,
                                 play_side, summarize, wilson)
from interpreter.game import load_game

ROOT = Path(__file__).resolve().parent.parent
GAME = "puerto_rico"
MARKET = ROOT / "examples" / "market_day"
HARBOR = ROOT / "examples" / "house_rules" / "harbor_plus_two.yaml"
TWO = ROOT / "gamedefs" / GAME / "variants" / "two_players.yaml"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path, text, name="overlay.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ statistics

def test_wilson_known_values():
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-4)
    lo, hi = wilson(10, 10)
    assert math.isclose(lo, 0.7225, abs_tol=1e-4) and math.isclose(hi, 1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(2.5, 10)  # shared wins count as fractions
    assert lo < 0.25 < hi


def test_newcombe_difference_interval():
    p1, p2 = 0.5, 0.7
    lo, hi = newcombe(p1, wilson(50, 100), p2, wilson(70, 100))
    assert lo < 0.2 < hi and lo > 0                      # a clear difference excludes 0
    lo, hi = newcombe(0.5, wilson(5, 10), 0.5, wilson(5, 10))
    assert math.isclose(lo, -hi) and lo < 0 < hi          # no difference: symmetric around 0


def test_describe_and_mean_difference():
    d = describe([1, 2, 3, 4])
    assert d["n"] == 4 and d["mean"] == 2.5 and d["median"] == 2.5 and d["min"] == 1 and d["max"] == 4
    assert math.isclose(d["stdev"], 1.2910, abs_tol=1e-4)
    assert d["ci95"][0] < 2.5 < d["ci95"][1]
    assert describe([])["mean"] is None
    m = mean_difference(describe([1, 2, 3]), describe([11, 12, 13]))
    assert m["diff"] == 10 and m["ci95"][0] > 0
    assert mean_difference(describe([]), describe([1]))["diff"] is None


def test_summarize_records():
    records = [
        {"seed": 1, "decisions": 10, "scores": [5, 3, 1], "winners": [0], "ends": ["b", "a"]},
        {"seed": 2, "decisions": 20, "scores": [4, 4, 2], "winners": [0, 1], "ends": ["a", "b"]},
        {"seed": 3, "decisions": 30, "scores": [1, 2, 9], "winners": [2], "ends": []},
        {"seed": 4, "error": "RuleError: boom"},
    ]
    s = summarize(records, 3)
    assert s["games"] == 4 and s["completed"] == 3
    assert s["errors"] == [{"seed": 4, "error": "RuleError: boom"}]
    assert [x["wins"] for x in s["seats"]] == [1.5, 0.5, 1.0]
    assert math.isclose(s["seats"][0]["win_rate"], 0.5)
    assert s["length"]["mean"] == 20 and s["spread"]["mean"] == (4 + 2 + 8) / 3
    assert s["per_game"]["margins"] == [2, 0, 7]
    assert s["ends"] == {"a,b": 2, NO_TRIGGER: 1}       # a combination of triggers is one key, in order
    assert s["end_triggers"] == {"a": 2, "b": 2}
    d = delta(s, s)
    assert all(x["diff"] == 0 for x in d["seats"]) and d["length"]["diff"] == 0


# ----------------------------------------------------------------------------------------------- play

def test_same_rules_give_the_same_figures(tmp_path):
    """The two sides share seeds and bots: an overlay that changes only labels changes nothing."""
    relabel = write(tmp_path, """
        overlay: {base: market_day, label: Relabelled}
        set:
          components.tool.types.cart.label: Wagon
    """)
    base, variant = load_game(MARKET), load_game(MARKET, [relabel])
    result = compare(base, variant, players=3, games=6, seed=5, bot="random")
    b, v = result["base"], result["variant"]
    assert b["per_game"] == v["per_game"] and b["seats"] == v["seats"] and b["ends"] == v["ends"]
    assert all(x["diff"] == 0 for x in result["delta"]["seats"])
    assert result["delta"]["length"]["diff"] == 0
    json.dumps(result)  # plain data


def test_a_rule_change_shows(tmp_path):
    rich = write(tmp_path, """
        overlay: {base: market_day, label: Rich start}
        set:
          tables.start_coins.by_players.2: 30
    """)
    base, variant = load_game(MARKET), load_game(MARKET, [rich])
    result = compare(base, variant, players=2, games=8, seed=1)
    assert result["variant"]["score_mean"][0] > result["base"]["score_mean"][0] + 20
    assert result["base"]["per_game"]["seeds"] == result["variant"]["per_game"]["seeds"] == list(range(1, 9))
    text = compare_text(result, "Market Day", "Market Day + Rich start")
    assert "seat 1 win rate" in text and "decisions per game" in text and "end reasons" in text
    assert "score spread (max-min)" in text and "winning margin" in text


def test_play_side_records_errors_and_goes_on():
    class Broken:
        id = "broken"

        def new_game(self, players, seed, options=None):
            raise RuntimeError("no such thing")

    records = play_side(Broken(), 2, 2, seed=3)
    assert [r["seed"] for r in records] == [3, 4] and all("RuntimeError" in r["error"] for r in records)


def test_plot_writes_a_png(tmp_path):
    import matplotlib  # noqa: F401 (a test extra: the plot tests run, never skip)
    from interpreter.analysis.compare import plot

    base = load_game(MARKET)
    result = compare(base, base, players=2, games=3, seed=1)
    out = tmp_path / "cmp.png"
    plot(result, out, base_label="a", variant_label="b")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -------------------------------------------------------------------------------------------- command

def test_compare_command_prints_the_figures(capsys):
    code, out, _ = run(capsys, "compare", GAME, "--variant", HARBOR, "--players", "3", "--games", "2")
    assert code == 0
    assert "variant: Puerto Rico + Harbor +2 (" in out
    for row in ("games completed", "seat 1 win rate", "seat 3 win rate", "decisions per game",
                "score spread (max-min)", "winning margin", "end reasons"):
        assert row in out, row


def test_compare_command_json(capsys):
    code, out, _ = run(capsys, "compare", GAME, "--variant", HARBOR, "--players", "3", "--games", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["players"] == 3 and data["base"]["completed"] == 2 and len(data["delta"]["seats"]) == 3
    assert data["variant_label"] == "Puerto Rico + Harbor +2"


def test_compare_command_plot(capsys, tmp_path):
    import matplotlib  # noqa: F401 (a test extra: the plot tests run, never skip)
    png = tmp_path / "harbor.png"
    code, out, _ = run(capsys, "compare", GAME, "--variant", HARBOR, "--players", "3", "--games", "2",
                       "--plot", png)
    assert code == 0 and f"plot written to {png}" in out and png.stat().st_size > 1000


def test_compare_plot_without_matplotlib_says_how_to_install(capsys, tmp_path, monkeypatch):
    import importlib.util

    from interpreter.commands import study

    real = importlib.util.find_spec  # where the command asks whether matplotlib is installed
    monkeypatch.setattr(study, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code, out, err = run(capsys, "compare", GAME, "--variant", HARBOR, "--players", "3", "--games", "2",
                         "--plot", tmp_path / "x.png")
    assert code == 2 and "pip install 'meeple[plot]'" in err and out == ""
    assert not (tmp_path / "x.png").exists()


def test_compare_command_usage_errors(capsys):
    assert run(capsys, "compare", GAME, "--players", "3", "--games", "2")[0] == 2          # no --variant
    code, _, err = run(capsys, "compare", GAME, "--variant", TWO, "--players", "2", "--games", "1")
    assert code == 2 and "the base game takes 3, 4, 5 players" in err
    code, _, err = run(capsys, "compare", GAME, "--variant", HARBOR, "--players", "3", "--games", "0")
    assert code == 2


def test_pyproject_has_the_plot_extra_and_the_tests_install_it():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'plot = ["matplotlib' in text
    test_extra = next(line for line in text.splitlines() if line.startswith("test = ["))
    assert '"matplotlib' in test_extra


# ------------------------------------------------------------------------ what the variant changed, in play

def test_compare_reports_how_often_a_changed_component_was_used_and_how_its_users_did(tmp_path):
    cheap = write(tmp_path, """
        overlay: {base: market_day, label: Cheap cart}
        set:
          components.tool.types.cart.cost: 2
    """)
    base, variant = load_game(MARKET), load_game(MARKET, [cheap])
    result = compare(base, variant, players=2, games=8, seed=1, bot="random", jobs=1)
    [thing] = result["changed"]
    assert thing["text"] == "tool Cart: cost 6 → 2" or "Cart" in thing["text"]
    assert "component:cart" in thing["keys"] and "modifier:cart/sale_bonus" in thing["keys"]
    bought_base, bought_variant = thing["base"]["component:cart"], thing["variant"]["component:cart"]
    assert bought_variant["games"] >= bought_base["games"] and bought_variant["games"] > 0
    assert sum(bought_variant["by_seat"]) == round(bought_variant["per_game"] * 8)
    assert bought_variant["ci95"] is not None and 0 <= bought_variant["user_win_rate"] <= 1
    text = compare_text(result)
    assert "What the variant changed, in play" in text and "component:cart" in text
    json.dumps(result)


def test_usage_counts_what_was_played_not_what_bots_tried(tmp_path):
    from interpreter.analysis.parallel import game_record

    market = load_game(MARKET)
    searched = game_record(market, 2, 3, "mcts:iterations=10", usage=True)
    played = game_record(market, 2, 3, [b for b in ("random", "random")], usage=True)
    for record in (searched, played):
        takes = sum(n for key, row in record["usage"].items() if key.startswith("action:") for n in row)
        assert takes == record["decisions"]  # one action per decision, none from a bot's lookahead
