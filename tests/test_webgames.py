"""The served games: the shipped ones, an author's game folders and overlay files given to `meeple serve`,
each named by its name; variants by name; one compiled game per definition and variants."""
from pathlib import Path

import pytest

from interpreter.table.webgames import Catalog, UnknownGame

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_an_authors_folder_and_an_overlay_file_are_served_by_name():
    catalog = Catalog([str(EXAMPLES / "number_run"), str(EXAMPLES / "house_rules" / "harbor_plus_two.yaml")])
    assert "number_run" in catalog.playable() and "puerto_rico" in catalog.playable()
    assert "harbor_plus_two" in catalog.variants("puerto_rico") and "two_players" in catalog.variants("puerto_rico")
    assert catalog.game("number_run").id == "number_run"
    harbor = catalog.game("puerto_rico", ("harbor_plus_two",))
    assert harbor is catalog.game("puerto_rico", ["harbor_plus_two"]) and harbor is not catalog.game("puerto_rico")
    assert "de" in catalog.languages()                       # number_run speaks German


def test_anything_but_a_served_name_is_refused_without_reading_it(tmp_path):
    catalog = Catalog()
    for name in ("/etc", "../gamedefs/phoenicia", str(EXAMPLES / "number_run"), "", None, 7):
        with pytest.raises(UnknownGame):
            catalog.check(name)
    for variant in ("../../etc/passwd", str(tmp_path / "x.yaml"), "harbor_plus_two"):
        with pytest.raises(UnknownGame):
            catalog.check("puerto_rico", [variant])


def test_a_broken_game_folder_is_left_out_with_its_problem_for_the_console(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "game.yaml").write_text("game: {id: broken, players: [2]}\nflow: {nonsense: 1}\n")
    catalog = Catalog([str(broken)])
    assert "broken" not in catalog.playable() and "broken" in catalog.problems
    with pytest.raises(UnknownGame):
        catalog.check("broken")
