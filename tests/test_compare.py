"""`meeple compare`: base and variant on the same seeds with the same bots; the figures and their intervals."""
import json
import re
import math
import statistics
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.analysis.compare import (NO_TRIGGER, compare, compare_text, delta, describe, mean_difference, newcombe,
                                 play_side, summarize, wilson)
from interpreter.game import load_game
from interpreter.analysis.usage import summarize_usage

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
    change = result["delta"]["scores"][0]
    assert change["ci95"][0] > 0 and change["ci95"][0] < change["diff"] < change["ci95"][1]
    assert result["base"]["per_game"]["seeds"] == result["variant"]["per_game"]["seeds"] == list(range(1, 9))
    text = compare_text(result, "Market Day", "Market Day + Rich start")
    assert "seat 1 win rate" in text and "decisions per game" in text and "end reasons" in text
    assert "score spread (max-min)" in text and "winning margin" in text
    assert re.search(r"seat 1 score +[\d.]+ ± [\d.]+ +[\d.]+ ± [\d.]+ +\+[\d.]+ \[\+[\d.]+, \+[\d.]+\]", text), text


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
    assert [c["text"] for c in thing["changes"]] == ["tool Cart: cost 6 → 2"]
    assert "component:cart" in thing["keys"] and "modifier:cart/sale_bonus" in thing["keys"]
    assert "read:property/cost[cart]" in thing["keys"]  # the changed property, read where a cart is bought
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


def _block(result, key):
    """The one block of `result["changed"]` that holds `key`."""
    [block] = [b for b in result["changed"] if key in b["keys"] or key in [f"points:{p['item']}" for p in b["points"]]]
    return block


def _actions(record, name):
    return sum(n for key, row in record["usage"].items() if key == f"action:{name}" for n in row)


def test_compare_counts_the_reads_of_a_changed_parameter_per_game_and_seat(tmp_path):
    """A changed number the rules read is counted where it is read: a sale reads the sale bonus once."""
    bonus = write(tmp_path, """
        overlay: {base: market_day, label: Sale bonus}
        set:
          parameters.sale_bonus.default: 1
    """)
    base, variant = load_game(MARKET), load_game(MARKET, [bonus])
    result = compare(base, variant, players=3, games=4, seed=2, bot="random", jobs=1)
    assert ["param", "sale_bonus"] in result["metered"]
    block = _block(result, "read:parameter/sale_bonus")
    assert [c["path"] for c in block["changes"]] == ["parameters.sale_bonus.default"]
    for side in ("base", "variant"):
        records = play_side(load_game(MARKET) if side == "base" else load_game(MARKET, [bonus]), 3, 4, seed=2,
                            usage=True)
        sales = [sum(r["usage"].get("action:turn/sell", [0] * 3)[seat] for r in records) for seat in range(3)]
        read = block[side]["read:parameter/sale_bonus"]
        assert read["by_seat"] == sales and sum(sales) > 0          # one read per sale, booked to its seller
        assert read["per_game"] == sum(sales) / 4 and read["games"] == 4
    text = compare_text(result)
    assert "read:parameter/sale_bonus" in text and "no counter shows its use" not in text


def test_compare_counts_a_changed_table_entry_read_at_the_setup_and_names_the_entry(tmp_path):
    prices = write(tmp_path, """
        overlay: {base: market_day, label: Dear pears}
        set:
          tables.start_price.pear: 6
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [prices]), players=2, games=3, seed=1, bot="random")
    block = _block(result, "read:table/start_price[pear]")
    assert block["keys"] == ["read:table/start_price[pear]"]      # the entry changed, not apples or plums
    for side in ("base", "variant"):
        u = block[side]["read:table/start_price[pear]"]
        assert u["setup_per_game"] == 1.0 and u["per_game"] == 1.0 and u["by_seat"] == [0, 0]
    assert "(1.00 at the setup)" in compare_text(result)


def test_a_change_for_another_player_count_is_not_in_play(tmp_path):
    start = write(tmp_path, """
        overlay: {base: market_day, label: Two-player start}
        set:
          tables.start_coins.by_players.2: 4
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [start]), players=3, games=2, seed=1, bot="random")
    [block] = result["changed"]
    assert block["keys"] == [] and block["note"] == "not in play: the change is for 2 players, these games have 3"
    assert result["metered"] == []
    assert "      not in play: the change is for 2 players, these games have 3" in compare_text(result)


def test_a_counted_value_no_rule_read_is_reported_as_never_read(tmp_path):
    """A value the meter counts and no rule read in these games shows as never read, not as uncounted."""
    unused = write(tmp_path, """
        overlay: {base: market_day, label: A table nobody reads}
        add:
          tables.bonus_coins: 3
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [unused]), players=2, games=2, seed=1, bot="random")
    [block] = result["changed"]
    assert block["keys"] == ["read:table/bonus_coins"] and result["metered"] == [["table", "bonus_coins"]]
    assert block["base"]["read:table/bonus_coins"]["games"] == block["variant"]["read:table/bonus_coins"]["games"] == 0
    assert "    read:table/bonus_coins\n      base:    never\n      variant: never" in compare_text(result)


def test_compare_gives_the_points_a_changed_scoring_item_gave_each_side(tmp_path):
    tip = write(tmp_path, """
        overlay: {base: market_day, label: Ten for everyone}
        set:
          scoring.items.coins.expr: "player.coins + 10"
    """)
    base, variant = load_game(MARKET), load_game(MARKET, [tip])
    result = compare(base, variant, players=2, games=5, seed=3, bot="random")
    block = _block(result, "points:coins")
    [points] = block["points"]
    assert points["item"] == "coins" and points["base"]["n"] == points["variant"]["n"] == 10  # 5 games × 2 seats
    assert math.isclose(points["diff"]["diff"], 10.0)   # the same games: every seat's points are 10 more
    lo, hi = points["diff"]["ci95"]
    assert lo < 10 < hi and lo > 0
    assert [round(v - b, 6) for b, v in zip(points["base"]["by_seat"], points["variant"]["by_seat"])] == [10, 10]
    assert math.isclose(points["base"]["mean"], statistics.fmean(result["base"]["score_mean"]))  # the only item
    assert "points:coins" in compare_text(result) and "change +10.00" in compare_text(result)


def test_a_change_to_what_a_scoring_item_reads_gives_that_items_points(tmp_path):
    """A property, var or table that a scoring item reads (here a var's start) reports the item's points."""
    rich = write(tmp_path, """
        overlay: {base: market_day, label: Rich start}
        set:
          vars.player.coins.init: 20
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [rich]), players=2, games=3, seed=1, bot="random")
    [block] = result["changed"]
    assert [p["item"] for p in block["points"]] == ["coins"]
    assert block["points"][0]["diff"]["diff"] > 10
    assert any(k.startswith("read:var/coins") or k.startswith("menu:var/coins") for k in block["keys"])


def test_a_counter_that_several_changes_share_is_given_once_under_all_of_them(tmp_path):
    """The cart's cost and the sale bonus both show in the cart's modifier: one block, naming both."""
    both = write(tmp_path, """
        overlay: {base: market_day, label: "Cheap cart, bigger bonus"}
        set:
          components.tool.types.cart.cost: 2
          parameters.sale_bonus.default: 1
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [both]), players=2, games=4, seed=1, bot="random")
    keys = [k for b in result["changed"] for k in b["keys"]]
    assert len(keys) == len(set(keys))                            # every counter in one block only
    shared = _block(result, "modifier:cart/sale_bonus")
    assert [c["path"] for c in shared["changes"]] == ["components.tool.types.cart.cost",
                                                      "parameters.sale_bonus.default"]
    text = compare_text(result)
    assert text.count("    modifier:cart/sale_bonus\n") == 1
    assert "  tool Cart: cost 6 → 2\n  + parameter sale_bonus: default 0 → 1\n    modifier:cart/sale_bonus" in text


def test_compare_shows_the_use_of_burgundy_house_rules_that_change_a_tile_and_a_scoring_item():
    """The shipped house rules: the watchtower's number is read where a watchtower is placed, and the
    workers item gives more points (random bots place tiles; a few games)."""
    game = load_game("castles_of_burgundy")
    tower = load_game("castles_of_burgundy", [ROOT / "examples" / "house_rules" / "watchtower_six.yaml"])
    result = compare(game, tower, players=2, games=3, seed=1, bot="random")
    block = _block(result, "read:table/watchtower_vp")
    for side in ("base", "variant"):
        placed = block[side]["component:watchtower"]
        read = block[side]["read:table/watchtower_vp"]
        assert read["games"] > 0 and sum(read["by_seat"]) <= sum(placed["by_seat"])
    workers = load_game("castles_of_burgundy", [ROOT / "examples" / "house_rules" / "workers_score_one_each.yaml"])
    result = compare(game, workers, players=2, games=3, seed=1, bot="random")
    [points] = _block(result, "points:workers")["points"]  # random bots play the same games on both sides
    assert points["variant"]["mean"] > points["base"]["mean"]
    assert all(v >= b for b, v in zip(points["base"]["by_seat"], points["variant"]["by_seat"]))


def test_a_read_in_a_menu_is_booked_to_the_seat_the_menu_is_for():
    """Every menu of Market Day asks the hand's room (the table hand_limit): one menu read per decision,
    booked to the seat that decides, the first menu's to the setup."""
    from interpreter.engine.playout import play_game

    market = load_game(MARKET).metered({("table", "hand_limit")})
    record = play_game(market, 3, 5, "random", usage=True)
    menus = record["usage"]["menu:table/hand_limit"]
    assert record["usage_setup"]["menu:table/hand_limit"] == 1
    first = record["state"].g[market.world.gvars["first_player"][0]]
    assert [n + (seat == first) for seat, n in enumerate(menus)] == record["moves"]


def test_reads_at_the_final_scoring_are_counted_apart_from_the_seats():
    """Market Day's tie-break reads each player's sales once, after the last decision: at the end."""
    from interpreter.engine.playout import play_game

    market = load_game(MARKET).metered({("var", "sales")})
    record = play_game(market, 3, 5, "random", usage=True)
    assert record["usage_end"] == {"read:var/sales": 3} and "read:var/sales" not in record["usage"]
    [u] = summarize_usage([dict(record, scores=record["outcome"]["scores"], winners=record["outcome"]["winners"])],
                          3, ["read:var/sales"]).values()
    assert u["end_per_game"] == 3.0 and u["per_game"] == 3.0 and u["by_seat"] == [0, 0, 0] and u["games"] == 1


def test_a_changed_component_no_seat_chose_is_reported_as_never_chosen(tmp_path):
    """Greedy players never buy Market Day's cart (it costs coins, their score, at once): the cart's change
    shows `component:cart` as never used on both sides, not as a change no counter shows."""
    two = write(tmp_path, """
        overlay: {base: market_day, label: Two carts}
        set:
          components.tool.types.cart.count.by_players.2: 2
    """)
    result = compare(load_game(MARKET), load_game(MARKET, [two]), players=2, games=2, seed=1, bot="greedy")
    [block] = result["changed"]
    assert block["keys"] == ["component:cart"]
    assert block["base"]["component:cart"]["games"] == block["variant"]["component:cart"]["games"] == 0
    assert "no counter shows its use" not in compare_text(result)
