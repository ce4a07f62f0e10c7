"""Overlays (variants and house rules): the shipped ones load, play and pass their scenarios; broken ones
get located errors; every command that loads a game takes --variant."""
import re
import textwrap
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter.cli import main
from interpreter.game import load_game
from interpreter.definition.problems import DefinitionError
from interpreter.analysis.simulate import simulate
from interpreter.analysis.verify import verify

ROOT = Path(__file__).resolve().parent.parent
GAME = "puerto_rico"
TWO = ROOT / "gamedefs" / GAME / "variants" / "two_players.yaml"
HOUSE_RULES = sorted((ROOT / "examples" / "house_rules").glob("*.yaml"))
MARKET = ROOT / "examples" / "market_day"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the 2-player variant

@pytest.fixture(scope="module")
def two():
    return load_game(GAME, [TWO])


def test_two_player_variant_is_for_two_players_only(two):
    assert two.player_counts == [2]
    with pytest.raises(ValueError):
        two.new_game(3, seed=1)


def test_two_player_setup(two):
    s = two.new_game(2, seed=3)
    d = two.to_json(s)
    assert [row[two.world.pvars["doubloons"][0]] for row in s.p] == [3, 3]
    assert d["vars"]["colonist_supply"] == 40 and d["vars"]["colonist_ship"] == 2
    assert d["vars"]["vp_supply"] == 65
    assert d["vars"]["goods_supply"] == {"corn": 8, "indigo": 9, "sugar": 9, "tobacco": 7, "coffee": 7}
    assert len(d["zones"]["plantation_row"]) == 3 and len(d["zones"]["quarry_supply"]) == 5
    assert len(d["zones"]["role_row"]) == 7 and len(d["zones"]["ships"]) == 2


def test_two_player_games_play_to_the_end(two):
    summary = simulate(two, 2, games=4, seed=1)
    assert summary["completed"] == 4 and not summary["errors"]


def test_two_player_variant_verifies(two):
    rep = verify(GAME, games=2, variant=[TWO])
    assert rep.ok, rep.to_json()
    names = {r.name for r in rep.scenarios}
    assert len(names) >= 7 and all(r.passed for r in rep.scenarios)
    assert {"two_player_setup_values", "three_roles_each_alternating", "doubloon_on_the_unused_role",
            "two_ships_load_the_best_one"} <= names
    assert any(f.code == "provisional" and "two_players.yaml" in str(f) and "quarr" in str(f)
               for f in rep.findings), "the quarry count is marked provisional"


def test_two_player_scenarios_fail_without_the_variant_round(tmp_path):
    """The round scenarios really test the round: with one role per player they fail."""
    text = TWO.read_text(encoding="utf-8").replace('if not r.taken) <= 1"', 'if not r.taken) <= 5"')
    shutil.copytree(TWO.parent / "two_players_scenarios", tmp_path / "two_players_scenarios")
    broken = write(tmp_path, "two_players.yaml", text)
    rep = verify(GAME, games=0, variant=[broken])
    failed = {r.name for r in rep.scenarios if not r.passed}
    assert {"three_roles_each_alternating", "doubloon_on_the_unused_role"} <= failed


# ------------------------------------------------------------------------------------- house rules

def test_there_are_at_least_four_house_rules():
    assert len(HOUSE_RULES) >= 4


@pytest.mark.parametrize("path", HOUSE_RULES, ids=lambda p: p.stem)
def test_house_rule_loads_says_what_it_is_for_and_passes_its_scenarios(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = [x for x in lines[:12] if x.startswith("#") and "yaml-language-server" not in x]
    assert any("What it is for" in x for x in comments), f"{path.name}: a comment on what it is for"
    base = yaml.safe_load(path.read_text(encoding="utf-8"))["overlay"]["base"]
    game = load_game(base, [path])
    assert game.definition.overlays
    rep = verify(base, games=0, variant=[path])
    assert rep.ok and rep.scenarios, rep.to_json()


def test_overlays_stack(tmp_path):
    harbor = ROOT / "examples" / "house_rules" / "harbor_plus_two.yaml"
    university = ROOT / "examples" / "house_rules" / "cheaper_university.yaml"
    game = load_game(GAME, [harbor, university])
    types = game.definition["components"]["building"]["types"]
    assert types["harbor"]["modifies"]["ship_bonus"] == 2 and types["university"]["cost"] == 7


# ------------------------------------------------------------------------------------- broken ones

def test_missing_ids_are_located_with_a_did_you_mean(tmp_path):
    bad = write(tmp_path, "bad.yaml", """
        overlay:
          base: puerto_rico
          label: Broken
        set:
          components.building.types.harbour.cost: 7
          tables.trading_house_sise.value: 5
        remove:
          - components.role_card.types.prospector_2
    """)
    with pytest.raises(DefinitionError) as info:
        load_game(GAME, [bad])
    shown = [str(p) for p in info.value.problems]
    assert any(s.startswith(f"{bad}:5:3:") and "harbour" in s and "'harbor'" in s for s in shown), shown
    assert any(s.startswith(f"{bad}:6:3:") and "'trading_house_size'" in s for s in shown), shown
    assert any(s.startswith(f"{bad}:8:5:") and "prospector_2" in s for s in shown), shown


def test_schema_breaks_are_located(tmp_path):
    bad = write(tmp_path, "bad.yaml", """
        overlay:
          base: puerto_rico
          labl: Broken
    """)
    with pytest.raises(DefinitionError) as info:
        load_game(GAME, [bad])
    assert any(str(p).startswith(f"{bad}:3:3:") and "'label'" in str(p) for p in info.value.problems)
    bad2 = write(tmp_path, "bad2.yaml", """
        overlay: {base: puerto_rico}
        set:
          flow: {repeat: 3}
          tables.start_doubloons.value.by_players.3: [1, 2]
    """)
    with pytest.raises(DefinitionError) as info:
        load_game(GAME, [bad2])
    shown = [str(p) for p in info.value.problems]
    assert any(s.startswith(f"{bad2}:3:") and "flow" in s for s in shown), shown
    assert any(f"{bad2}:4:3" in s for s in shown), shown   # the table's new value, named by the var that reads it


def test_an_overlay_for_another_game_is_refused(tmp_path):
    other = write(tmp_path, "other.yaml", "overlay: {base: market_day}\n")
    with pytest.raises(DefinitionError) as info:
        load_game(GAME, [other])
    assert "for 'market_day'" in str(info.value.problems[0])


@pytest.mark.parametrize("command", [
    ["simulate", GAME, "--players", "3", "--games", "1"],
    ["verify", GAME, "--games", "0"],
    ["diff", GAME],
    ["validate", GAME],
])
def test_commands_report_a_broken_overlay_and_exit_1(capsys, tmp_path, command):
    bad = write(tmp_path, "bad.yaml", """
        overlay: {base: puerto_rico}
        set:
          components.building.types.harbour.cost: 7
    """)
    code, out, err = run(capsys, *command, "--variant", bad)
    assert code == 1
    assert re.search(rf"{re.escape(str(bad))}:3:3: error: .*harbour.*'harbor'", out + err)


@pytest.mark.parametrize("command", ["play", "simulate", "replay", "bench", "verify", "validate", "diff",
                                     "compare"])
def test_every_command_documents_variant(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--variant FILE" in out


def test_a_missing_overlay_file_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", GAME, "--players", "3", "--games", "1", "--variant",
                       tmp_path / "nope.yaml")
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "verify", GAME, "--games", "0", "--variant", tmp_path / "nope.yaml")
    assert code == 2


# ------------------------------------------------------------------------------------ the commands

def test_simulate_with_the_variant(capsys):
    code, out, _ = run(capsys, "simulate", GAME, "--variant", TWO, "--players", "2", "--games", "3")
    assert code == 0
    assert out.startswith("Puerto Rico + Two players (official variant): 2 players, 3 games")
    assert "completed: 3/3" in out and "errors: none" in out


def test_simulate_refuses_a_count_the_variant_does_not_take(capsys):
    code, _, err = run(capsys, "simulate", GAME, "--variant", TWO, "--players", "3", "--games", "1")
    assert code == 2 and "takes 2 players" in err


def test_verify_with_the_variant(capsys):
    code, out, _ = run(capsys, "verify", GAME, "--variant", TWO, "--games", "1")
    assert code == 0, out
    assert "scenarios: 7/7 passed" in out and "result: PASS" in out


def test_play_record_and_replay_with_the_variant(capsys, tmp_path):
    record = tmp_path / "game.txt"
    code, out, _ = run(capsys, "play", GAME, "--variant", TWO, "--players", "2", "--seed", "4", "--quiet",
                       "--record", record)
    assert code == 0 and "Winner" in out
    final = out[out.index("Final scores:"):out.index("Winner")]
    code, out, _ = run(capsys, "replay", GAME, "--variant", TWO, "--players", "2", "--seed", "4",
                       "--actions", record)
    assert code == 0 and final in out


def test_bench_with_the_variant(capsys):
    code, out, _ = run(capsys, "bench", GAME, "--variant", TWO, "--players", "2", "--games", "1", "--json")
    assert code == 0 and '"decisions"' in out


def test_overlay_problems_are_all_reported_even_with_a_bad_header(tmp_path):
    from interpreter.definition.problems import DefinitionError
    f = tmp_path / "o.yaml"
    f.write_text("overlay:\n  base: market_day\n  labl: oops\nset:\n"
                 "  defs.held: \"count(x for x in p.hand if x.crop == k) + 0\"\n"
                 "  components.tool.types.cart.cost: cheap\n"
                 "  components.card.types.apple_crad.count: 3\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game(ROOT / "examples" / "market_day", [f])
    text = "\n".join(map(str, info.value.problems))
    assert "o.yaml:3:3: error: overlay: unknown key 'labl'" in text
    assert "o.yaml:6:36: error: property 'cost' of 'cart' is a str ('cheap'), but the others are ints" in text
    assert "o.yaml:7:3: error: 'components.card.types.apple_crad' does not exist" in text
    assert "defs.held" not in text  # a def is found by its name


def test_a_def_is_changed_by_its_name(tmp_path):
    f = tmp_path / "o.yaml"
    f.write_text("overlay: {base: market_day}\nset:\n  defs.held: \"0\"\n", encoding="utf-8")
    game = load_game(ROOT / "examples" / "market_day", [f])
    s = game.new_game(2, seed=1)
    assert not [a for a in game.legal_actions(s) if a["action"] == "sell"]


@pytest.mark.parametrize("path", ["steps", "vars", "vars.player", "components", "scoring", "display"])
def test_an_overlay_that_sets_a_section_to_null_is_a_located_problem(tmp_path, path):
    overlay = tmp_path / "o.yaml"
    overlay.write_text(f"overlay: {{base: market_day}}\nset:\n  {path}: null\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as info:
        load_game("examples/market_day", variant=[str(overlay)])
    (p,) = info.value.problems
    assert (str(p.location), p.message) == (f"{overlay}:3:{len(path) + 5}",
                                            f"'{path}' is a mapping of entries, not null: to empty it set it to "
                                            "{}, or take entries out with remove")
