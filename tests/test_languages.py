"""Labels in any number of languages, chosen by --lang: a label map may give any language code, the engine's
own words (Player N, pass, Final scores, Winner, prompts) come from a table a definition's `words:` extends,
and whatever a language lacks reads in English. The example Number Run speaks German too."""

from __future__ import annotations

import pytest

from conftest import ROOT
from games import make_game
from interpreter.cli import main
from interpreter.language.labels import for_seat
from interpreter.definition.problems import DefinitionError
from interpreter.table.words import Texts, say

NUMBER_RUN = str(ROOT / "examples" / "number_run")

GAME = """
    game: {id: polyglot, players: [2], name: {en: Polyglot, zh: 多语, de: Vielsprachig}}
    vars:
      player: {coins: {init: 0, label: {en: coins, de: Münzen}}}
    steps:
      act:
        optional: true
        label: {en: "{player} may take a coin", de: "{player} darf eine Münze nehmen"}
        actions:
          take: {effect: "player.coins += 1", label: {en: "take a coin", zh: 拿一枚硬币, de: "nimm eine Münze"}}
    flow: {each_player: {step: act}}
    words:
      de: {player: "Spieler {n}", pass: passen, game_acts: "Spiel: {what}"}
"""


def test_a_label_gives_any_language_and_one_it_lacks_reads_in_english(tmp_path):
    g = make_game(tmp_path, GAME)
    s = g.new_game(2, seed=1)
    menu = {a["action"]: a["label"] for a in g.legal_actions(s)}
    assert (menu["take"]["de"], menu["take"]["zh"], menu["take"]["fr"]) == ("nimm eine Münze", "拿一枚硬币",
                                                                           "take a coin")
    assert menu["pass"]["de"] == "passen" and menu["pass"]["zh"] == "放弃" and menu["pass"]["fr"] == "pass"
    assert g.value_text(0, "player", "de") == "Spieler 1" and g.value_text(0, "player", "fr") == "Player 1"
    assert g.name["de"] == "Vielsprachig" and g.name["fr"] == "Polyglot"


def test_narration_is_told_in_every_language_of_the_label(tmp_path):
    g = make_game(tmp_path, GAME)
    log = []
    s = g.new_game(2, seed=1, log=log)
    g.apply(s, "take", log=log)
    told = [m for m in log if isinstance(m, dict) and "nimm" in str(m.get("de", ""))]
    assert told and for_seat(told[-1], 0, "de") == "Spieler 1: nimm eine Münze"
    assert for_seat(told[-1], 0, "fr") == "Player 1: take a coin"          # no French: English


def test_the_tables_words_read_in_english_where_a_language_has_none():
    assert say("final_scores", "fr") == "Final scores"
    assert Texts(en="a", zh="b")["pt-BR"] == "a" and Texts(en="a").get("de") == "a"


@pytest.mark.parametrize("words, message", [
    ('de: {playr: "Spieler {n}"}', "words: no such word of the table"),
    ('de: {player: "Spieler {m}"}', "holes are those of"),
])
def test_a_words_entry_must_be_a_word_of_the_table_with_its_holes(tmp_path, words, message):
    text = GAME.replace('de: {player: "Spieler {n}", pass: passen, game_acts: "Spiel: {what}"}', words)
    with pytest.raises(DefinitionError) as ex:
        make_game(tmp_path, text)
    out = [str(p) for p in ex.value.problems]
    assert len(out) == 1 and message in out[0], out


def test_play_in_german_shows_the_definitions_labels_and_the_tables_german_words(capsys):
    assert main(["play", NUMBER_RUN, "--lang", "de", "-p", "2", "--seed", "3", "--seat", "1=random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Zahlenlauf: 2 Spieler, Startwert 3 (Spieler 1 random, Spieler 2 random)")
    for words in ("== Das Austeilen ==", "der Markt: Karte", "Spieler 1: nimm Karte", "Reihe + Karte",
                  "Endstand:", "(Karten 15, Reihenbonus", "30 Entscheidungen."):
        assert words in out, words
    assert "Player 1" not in out and "Final scores" not in out


def test_play_in_a_language_the_game_lacks_falls_back_to_english(capsys):
    assert main(["play", NUMBER_RUN, "--lang", "fr", "-p", "2", "--seed", "3", "--seat", "1=random"]) == 0
    out = capsys.readouterr().out
    assert "Player 1: take Card" in out and "Final scores:" in out and "Spieler" not in out


def test_rules_in_german_use_the_german_labels(capsys):
    assert main(["rules", NUMBER_RUN, "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Zahlenlauf") and "Stapel" in out and "Das Austeilen" in out
    assert "Nimm eine Karte" in out and "Reihenbonus" in out


def test_lang_is_a_language_code(capsys):
    assert main(["rules", NUMBER_RUN, "--lang", "German!"]) == 2
    assert "no language code" in capsys.readouterr().err
