"""`meeple diff`: what an overlay changes, in rule terms, readable and as JSON."""
import json
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.analysis.diff import diff_text, line_diff, normalized, outline, rule_lines, rules_diff
from interpreter.game import load_game

ROOT = Path(__file__).resolve().parent.parent
GAME = "puerto_rico"
TWO = ROOT / "gamedefs" / GAME / "variants" / "two_players.yaml"
MARKET = ROOT / "examples" / "market_day"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path, text, name="overlay.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def market_diff(tmp_path, text):
    base = load_game(MARKET)
    variant = load_game(MARKET, [write(tmp_path, text)])
    return rules_diff(base.definition, variant.definition)


def texts(report):
    return [c["text"] for c in report["changes"]]


# ----------------------------------------------------------------------------- the 2-player variant

@pytest.fixture(scope="module")
def two_report():
    return rules_diff(load_game(GAME).definition, load_game(GAME, [TWO]).definition)


def test_two_player_variant_changes_are_listed(two_report):
    t = texts(two_report)
    expected = [
        "player counts: 3, 4, 5 → 2",
        "table start_doubloons: 2 players: 3 (new)",
        "table colonists_in_supply: 2 players: 40 (new)",
        "table colonists_on_ship: 2 players: 2 (new)",
        "table vp_chips_in_play: 2 players: 65 (new)",
        "table ship_capacity: 2 players: [4, 6] (new)",
        "table role_copies_prospector: 2 players: 1 (new)",
        "table start_plantations: 2 players: [indigo_plantation, corn_plantation] (new)",
        "plantation Corn plantation: count 10 → 7",
        "plantation Indigo plantation: count 12 → 9",
        "plantation Sugar plantation: count 11 → 8",
        "plantation Tobacco plantation: count 9 → 6",
        "plantation Coffee plantation: count 8 → 5",
        "quarry tile Quarry: count 8 → 5",
        "building Small indigo plant: count 4 → 2",
        "building Coffee roaster: count 3 → 2",
        "building Harbor: count 2 → 1",
        "building Wharf: count 2 → 1",
        "ship Cargo ship: count 3 → 2",
        "flow changed",
        "global var goods_supply: init corn: goods_in_box[corn] → goods_in_play[corn]",
    ]
    for line in expected:
        assert line in t, line
    assert two_report["counts"] == {"game": 1, "setup": 14, "components": 25, "rules": 1, "scoring": 0}
    # 12 small violet + 6 production buildings change count; the 5 large violet ones (1 each) do not
    assert sum(1 for x in t if x.startswith("building ")) == 18
    assert not any("Guild hall" in x for x in t)


def test_two_player_flow_and_setup_show_what_changed(two_report):
    by_text = {c["text"]: c for c in two_report["changes"]}
    flow = "\n".join(by_text["flow changed"]["lines"])
    assert "before: repeat [each player from governor" in flow
    assert "after:  repeat [repeat each player from governor" in flow and "<= 1 (max 3)" in flow
    assert "setup changed" not in by_text  # the base setup places one ship per ship_capacity entry
    quarry = by_text["quarry tile Quarry: count 8 → 5"]
    assert quarry["lines"] and quarry["lines"][0].startswith("provisional: 5 quarries")


def test_two_player_text_report(two_report):
    text = diff_text(two_report)
    assert text.startswith("Puerto Rico + Two players (official variant)\n")
    assert "\nSetup values (14)\n" in text and "\nComponents (25)\n" in text
    assert "\nRules and effects (1)\n" in text and text.endswith("41 changes.")


def test_a_one_line_house_rule():
    harbor = ROOT / "examples" / "house_rules" / "harbor_plus_two.yaml"
    report = rules_diff(load_game(GAME).definition, load_game(GAME, [harbor]).definition)
    assert texts(report) == ["building Harbor: ship_bonus modifier 1 → 2"]
    assert report["changes"][0]["path"] == "components.building.types.harbor.modifies.ship_bonus"
    assert report["changes"][0]["old"] == 1 and report["changes"][0]["new"] == 2


# ------------------------------------------------------------------------- kinds of change, generic

def test_component_type_removed_and_added(tmp_path):
    report = market_diff(tmp_path, """
        overlay: {base: market_day, label: Barrows}
        remove:
          - components.tool.types.cart
        add:
          components.tool.types.barrow: {cost: 4, count: 1, label: Barrow, modifies: {sale_bonus: 2}}
        set:
          steps.turn.actions.buy_cart.if: "player.coins >= t.cost"
    """)
    t = texts(report)
    assert "component type cart removed (tool Cart)" in t
    assert "component type barrow added (tool Barrow): {cost: 4, count: 1, modifies: {sale_bonus: 2}}" in t
    assert ("step Your turn, action buy_cart: condition player.coins >= t.cost and not owns(player, t.type)"
            " → player.coins >= t.cost") in t
    removed = next(c for c in report["changes"] if c["change"] == "removed")
    assert removed["category"] == "components" and removed["new"] is None


def test_effect_changes_show_their_lines_and_comments_do_not_count(tmp_path):
    report = market_diff(tmp_path, """
        overlay: {base: market_day}
        set:
          steps.turn.actions.sell.effect: |
            # a comment only changes nothing
            n = held(player, k)
            player.coins += n * price[k] + player.sale_bonus + 1
            player.sales += 1
            for x in player.hand:
                if x.crop == k:
                    move(x, discard)
            emit sold(player, k, n)
          steps.turn.label: {en: Your go}
    """)
    assert texts(report) == ["step Your go, action sell: effect changed"]   # labels: the variant's
    assert report["changes"][0]["lines"] == [
        "- player.coins += n * price[k] + player.sale_bonus",
        "+ player.coins += n * price[k] + player.sale_bonus + 1"]


def test_tables_hooks_defs_options_and_scoring(tmp_path):
    report = market_diff(tmp_path, """
        overlay: {base: market_day}
        set:
          tables.start_coins.by_players.4: 3
          tables.start_price.plum: 6
          options.short_game.default: true
          scoring.tiebreak: ["-player.sales"]
        add:
          hooks.bonus_coin:
            on: sold
            do: {effect: "player.coins += 1"}
          defs.bonus: "1"
        remove:
          - hooks.price_drops
    """)
    t = texts(report)
    assert "table start_coins: 4 players: 2 → 3" in t
    assert "table start_price: plum: 5 → 6" in t
    assert "option short_game: default false → true" in t
    assert "hook bonus_coin added: on sold" in t and "hook price_drops removed" in t
    assert "definition bonus added: 1" in t
    assert "tiebreak: [player.sales] → [-player.sales]" in t
    cats = {c["text"]: c["category"] for c in report["changes"]}
    assert cats["hook bonus_coin added: on sold"] == "rules" and cats["tiebreak: [player.sales] → [-player.sales]"] == "scoring"


def test_no_rule_change(tmp_path):
    report = market_diff(tmp_path, """
        overlay: {base: market_day, label: Relabelled}
        set:
          game.name: {en: Market Night}
          components.tool.types.cart.label: {en: Wagon}
    """)
    assert report["changes"] == []
    assert diff_text(report).endswith("No rule changes.")


def test_helpers():
    assert rule_lines("a = 1  # set a\n# only a comment\n\nb = '#x'\n") == ["a = 1", "b = '#x'"]
    assert normalized({"effect": "x = 1 # c", "label": "L"}) == {"effect": "x = 1"}
    assert line_diff("a\nb\n", "a\nc\n") == ["- b", "+ c"]
    flow = {"repeat": [{"each_player": {"step": "turn"}, "from": "first"}, {"effect": "a = 1\nb = 2"}],
            "until": "done", "max": 9}
    assert outline(flow) == "repeat [each player from first: step turn; effect (2 lines)] until done (max 9)"
    assert outline({"if": "x", "then": {"call": "p"}, "else": {"step": "s"}}) == "if x: call p else step s"


# -------------------------------------------------------------------------------------- the command

def test_diff_command_text_and_json(capsys):
    code, out, _ = run(capsys, "diff", GAME, "--variant", TWO)
    assert code == 0 and "table vp_chips_in_play: 2 players: 65 (new)" in out and "flow changed" in out
    code, out, _ = run(capsys, "diff", GAME, "--variant", TWO, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == GAME and data["overlays"][0]["label"] == "Two players (official variant)"
    by_path = {c["path"]: c for c in data["changes"]}
    c = by_path["tables.vp_chips_in_play.value.by_players.2"]
    assert c["change"] == "added" and c["new"] == 65 and c["category"] == "setup"
    assert by_path["game.players"]["old"] == [3, 4, 5] and by_path["game.players"]["new"] == [2]


def test_diff_command_needs_a_variant(capsys):
    code, _, err = run(capsys, "diff", GAME)
    assert code == 2 and "--variant" in err


def test_diff_command_zh_labels(capsys):
    code, out, _ = run(capsys, "diff", GAME, "--variant", TWO, "--lang", "zh")
    assert code == 0 and "双人变体" in out and "港口" in out
