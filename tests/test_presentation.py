"""The picture a person sees: built from a seat's view only, in English and Chinese, with boards as maps.

Golden pictures (tests/golden_pictures/GAME-Np-seatK.LANG.txt) fix what each shipped game looks like at
every seat, in English and Chinese, in one seeded position at each player count of `table_counts`;
`MEEPLE_REGEN_GOLDEN=1 pytest tests/test_presentation.py` writes them again after an intended change
(see goldens.py).
"""
import json
import random
import re
from pathlib import Path

import pytest

from interpreter.game import load_game
from interpreter.table.narration import narrate
from interpreter.table.presentation import present
from interpreter.definition.resources import data_dir
from interpreter.engine.state import from_json as state_from_json
from interpreter.table.textview import picture
from interpreter.table.words import WORDS
from goldens import check_text

GOLDEN = Path(__file__).parent / "golden_pictures"
SHIPPED = sorted(p.name for p in Path(data_dir("gamedefs")).iterdir() if (p / "game.yaml").is_file())
# The player count most tables play a game at, where it is not the smallest one of two players or more.
COMMON = {"puerto_rico": 4, "phoenicia": 4, "la_granja_no_siesta": 3}


def table_counts(name: str) -> list[int]:
    """The player counts whose pictures are on file: the smallest, two when the smallest is one (solo
    play), and the common count."""
    counts = load_game(name).player_counts
    wanted = {min(counts), max(2, min(counts)), COMMON.get(name, min(counts))}
    return sorted(c for c in wanted if c in counts)


def first_table(name: str) -> int:
    """The smallest player count of two players or more: the count a seat's page is photographed at."""
    return next(c for c in table_counts(name) if c >= 2)


# Latin letters a Chinese table may show: the program's name, the rulebooks' Roman numerals of phases
# (La Granja's "II、計分階段"); command-line flags (`--resume`) are the program's words too.
PROPER_NAMES = {"meeple", "I", "II", "III", "IV", "V", "VI"}


def english_words(text: str) -> list[str]:
    """The words of Latin letters in `text` that are not proper names (single letters are symbols)."""
    text = re.sub(r"(?<![\w-])--[a-z][a-z-]*", " ", text)
    return [w for w in re.findall(r"[A-Za-z]+", text) if w not in PROPER_NAMES and len(w) > 1]


def position(name: str, decisions: int = 25, seed: int = 1, players: int | None = None):
    """A seeded game of `name` (at its smallest player count unless told) after `decisions` random choices."""
    game = load_game(name)
    players = players or min(game.player_counts)
    state = game.new_game(players, seed=seed)
    pick = random.Random(seed)
    for _ in range(decisions):
        if game.is_over(state):
            break
        state = game.apply(state, pick.choice(game.legal_actions(state, labels=False))["id"])
    return game, state


TABLES = [(name, n) for name in SHIPPED for n in table_counts(name)]


@pytest.mark.parametrize("name,players", TABLES, ids=[f"{name}-{n}p" for name, n in TABLES])
def test_golden_picture_of_every_seat(name, players):
    game, state = position(name, players=players)
    assert not game.is_over(state)
    problems = []
    for seat in range(state.n):
        for lang in ("en", "zh"):
            try:
                check_text(GOLDEN / f"{name}-{players}p-seat{seat + 1}.{lang}.txt",
                           picture(present(game, game.view(state, seat), lang)))
            except AssertionError as exc:  # every seat's picture is checked (and written when missing)
                problems.append(str(exc))
    assert problems == []


@pytest.mark.parametrize("name", SHIPPED)
def test_the_model_is_a_function_of_the_view_alone(name):
    game, state = position(name, decisions=15)
    for seat in range(state.n):
        view = game.view(state, seat)
        model = present(game, json.loads(json.dumps(view)), "en")
        assert model == present(game, view, "en")
        assert json.loads(json.dumps(model)) == model          # plain data, ready for a browser
        assert model["areas"][0]["kind"] == "own" and model["areas"][0]["seat"] == seat
        assert model["viewer_name"] == f"Player {seat + 1}"    # seats from 1
        # every other player's area, and each scripted seat's (La Granja's neutral player)
        assert [a["kind"] for a in model["areas"]].count("other") == len(state.p) - 1


def hide_more(game, state, seat):
    """The same position with everything `seat` may not see changed: other players' private vars and
    the order of hidden zones' pieces. A picture for `seat` must not change. (The changed private
    counters need not add up to the box's totals any more, so the state is built without
    `Game.from_json`'s consistency checks: only what the seat sees is at stake here.)"""
    d = game.to_json(state)
    w = game.world
    private = [n for n, v, _ in w.var_defs["player"] if v.get("visible") == "owner"]
    for pl, row in enumerate(d["player_vars"]):
        if pl != seat:
            for name in private:
                if type(row[name]) is int:
                    row[name] += 7
    for name, z in d["zones"].items():
        if w.zone_visibility.get(("global", name)) in ("hidden", "owner"):
            z.reverse()
    for pl, zones in enumerate(d["player_zones"]):
        for name, z in zones.items():
            vis = w.zone_visibility.get(("player", name))
            if vis == "hidden" or (vis == "owner" and pl != seat):
                z.reverse()
    return state_from_json(d, game.layout, game.id)


@pytest.mark.parametrize("name", SHIPPED)
def test_what_a_seat_may_not_see_does_not_change_its_picture(name):
    game, state = position(name, decisions=30)
    for seat in range(state.n):
        other = hide_more(game, state, seat)
        assert game.to_json(other) != game.to_json(state)
        for lang in ("en", "zh"):
            assert picture(present(game, game.view(other, seat), lang)) == \
                picture(present(game, game.view(state, seat), lang))


def test_a_hex_board_is_drawn_as_a_map_with_what_lies_on_it():
    game, state = position("castles_of_burgundy", decisions=0)
    model = present(game, game.view(state, 0), "en")
    estate = next(z for z in model["areas"][0]["zones"] if z["id"] == "estate")
    rows = estate["board"]["rows"]
    assert [len(r) for r in rows] == [4, 5, 6, 7, 6, 5, 4] and estate["board"]["stagger"] == "hex"
    centre = rows[3][3]
    assert centre["id"] == 19 and centre["content"] == "Castle" and centre["number"] == "6"
    text = picture(model)
    assert re.search(r"^\s+16\S+\s+17\S+\s+18\S+\s+19\S+\*", text, re.M)   # the middle row, 19 occupied
    assert "Victory points (0–100)" in text                                 # a track of every player


def test_a_definition_without_display_gets_a_default_picture():
    game = load_game("examples/market_day")
    state = game.new_game(3, seed=2)
    model = present(game, game.view(state, 1), "zh")
    assert model["areas"][0]["title"].startswith("你的区域")
    assert all(a["counters"] or a["zones"] for a in model["areas"])
    assert picture(model)


def test_english_words_are_found_but_proper_names_and_flags_are_not():
    assert english_words("玩家1 (用 --resume 文件 继续) meeple II、計分階段 L6 ×2") == []
    assert english_words("定居点: 狩猎 [workers 1]; Phase III") == ["workers", "Phase"]


def test_every_built_in_word_is_in_english_and_chinese():
    for key, entry in WORDS.items():
        assert set(entry) == {"en", "zh"}, key
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}|meeple play|--resume", "", entry["zh"])), key


def test_narration_tells_what_changed_in_the_seats_view():
    game = load_game("puerto_rico")
    state = game.new_game(3, seed=1)
    mayor = next(a for a in game.legal_actions(state) if a["label"]["en"].startswith("take the Mayor"))
    before = present(game, game.view(state, 0), "en")
    after = present(game, game.view(game.apply(state, mayor), 0), "en")
    lines = narrate(before, after, "brief")
    assert "On the table: Current role - → Mayor" in lines
    assert any(re.match(r"Player \d: Colonists in San Juan 0 → \d \(\+\d\)", line) for line in lines)


def test_narration_never_tells_another_seats_hidden_counters():
    game = load_game("puerto_rico")
    state = game.new_game(3, seed=5)
    pick = random.Random(5)
    for _ in range(120):
        before = [present(game, game.view(state, k), "en") for k in range(3)]
        state = game.apply(state, pick.choice(game.legal_actions(state)))
        for k in range(3):
            for line in narrate(before[k], present(game, game.view(state, k), "en"), "full"):
                assert not re.search(r"Player (\d): VP (chips|noted)", line) or \
                    line.startswith(f"Player {k + 1}:"), line
        if game.is_over(state):
            break


def test_a_display_section_naming_what_does_not_exist_is_an_authors_error(tmp_path):
    import shutil

    from interpreter.definition.problems import DefinitionError

    shutil.copytree(Path(__file__).parent.parent / "examples" / "market_day", tmp_path / "g")
    (tmp_path / "g" / "display.yaml").write_text(
        "display:\n  player: [coinz]\n  zones:\n    nope: {as: row}\n  tracks:\n    vpp: {}\n", encoding="utf-8")
    with pytest.raises(DefinitionError) as caught:
        load_game(tmp_path / "g")
    messages = [str(p) for p in caught.value.problems]
    assert any("display.yaml:2:12: error: display.player: no player var or zone 'coinz'; did you mean 'coins'?"
               in m for m in messages)
    assert any("no zone 'nope'" in m for m in messages) and any("no player var 'vpp'" in m for m in messages)


def _played(path, players=2, decisions=10, seed=3):
    game = load_game(path)
    state = game.new_game(players, seed=seed)
    pick = random.Random(1)
    for _ in range(decisions):
        state = game.apply(state, pick.choice(game.legal_actions(state)))
    return game, state


def test_a_board_per_player_generated_from_a_size_is_drawn_as_a_grid_of_what_lies_on_each_space():
    game, state = _played(Path(__file__).parent.parent / "examples" / "mechanisms" / "tile_realm")
    model = present(game, game.view(state, 0), "en")
    for area in (model["areas"][0], model["areas"][2]):  # every player's kingdom
        board = next(z for z in area["zones"] if z["id"] == "kingdom")["board"]
        assert board["grid"] and [len(r) for r in board["rows"]] == [3, 3, 3]
        seat = area["seat"]
        for row in board["rows"]:
            for cell in row:
                plot = state.zones[game.layout.zone_index("kingdom", seat)][cell["row"] * 3 + cell["col"]]
                held = state.zones[game.world.piece_zone_rt.zone(state, plot, "spot")]
                if held:  # the tile's name, and its terrain as the cell's letter and colour
                    tile = held[0]
                    assert cell["content"] == game.world.type_labels[state.types[tile]]["en"]
                    assert cell["kind"] == game.world.props["terrain"][state.types[tile]]
                else:
                    assert cell["content"] is None and cell["symbol"] == ""
    text = picture(model)
    assert re.search(r"^\s+1   2   3$", text, re.M) and "Key: " in text


def test_an_owner_on_a_generated_hex_board_is_drawn_on_each_cell():
    game, state = _played(Path(__file__).parent.parent / "examples" / "mechanisms" / "hex_clusters")
    board = present(game, game.view(state, 0), "en")["areas"][1]["zones"][0]["board"]
    owners = [c["owner"] for row in board["rows"] for c in row]
    cells = state.zones[game.layout.zone_index("board")]
    col = game.layout.fields["owner"]
    assert sorted(o for o in owners if o is not None) == sorted(state.fields[col][x] for x in cells
                                                                if state.fields[col][x] is not None)
    assert board["stagger"] == "rhombus" and "@1" in picture(present(game, game.view(state, 0), "en"))
    from interpreter.table.svg import board_svg
    assert board_svg(board).count("<circle") == len([o for o in owners if o is not None])


def test_a_zone_family_is_listed_in_the_display_by_its_name_or_one_of_its_zones(tmp_path):
    from games import make_game, problem_about, problems_of
    from interpreter.definition.display import display_spec
    text = """
game: {id: t, name: T, players: [2]}
kinds: {suit: {values: [red, blue]}}
zones: {global: {supply: {per: suit}, deck: {}}}
components:
  card: {zone: deck, types: {a: {count: 2}}}
flow: {effect: "pass"}
display: {shared: [supply, deck]}
"""
    game = make_game(tmp_path, text)
    assert display_spec(game).shared == ["supply[red]", "supply[blue]", "deck"]
    game = make_game(tmp_path / "one", text.replace("shared: [supply, deck]", "shared: ['supply[blue]']"))
    assert display_spec(game).shared == ["supply[blue]"]
    problems = problems_of(tmp_path / "bad", text.replace("shared: [supply, deck]", "shared: [suply]"))
    assert problem_about(problems, "no global var or zone 'suply'").hint == "did you mean 'supply'?"


def test_a_board_s_content_is_a_piece_field_or_a_zone_each_cell_holds(tmp_path):
    from games import problem_about, problems_of
    problems = problems_of(tmp_path, """
game: {id: t, name: T, players: [2]}
zones: {global: {board: {}}, piece: {spot: {of: cell}}}
components:
  cell: {zone: board, board: {layout: square, size: 2}, properties: {col: 0, row: 0}}
flow: {effect: "pass"}
display: {zones: {board: {content: spott, symbol: colour}}}
""")
    assert problem_about(problems, "no field or piece zone 'spott'").hint == "did you mean 'spot'?"
    assert problem_about(problems, "no property or field 'colour'")
