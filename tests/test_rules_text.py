"""meeple rules: a rulebook generated from the definition alone, in English and Chinese, as Markdown or HTML.

The generated text of each shipped game is on file (tests/golden/rules/); after an intended change of a
game or of the renderer, write it again with `MEEPLE_REGEN_GOLDEN=1 pytest tests/test_rules_text.py` and
review the diff. Every construct of the DSL grammar and every function of the vocabulary has words in both
languages.
"""

import re

import pytest

from interpreter.cli import main
from interpreter.game import load_game
from interpreter.readback.phrases import AGGREGATE_NAMES, FUNCTION_WORDS, TEMPLATES, Names, Phrases, lines_text
from interpreter.readback.rules_text import rulebook
from interpreter.readback.rules_writers import to_html, to_markdown
from interpreter.language.vocabulary import AGGREGATES, FUNCTIONS

from conftest import ROOT
from goldens import check_text

GOLDEN = ROOT / "tests" / "golden" / "rules"
GAMES = ["puerto_rico", "castles_of_burgundy", "phoenicia", "la_granja_no_siesta"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_generated_rulebook_is_as_on_file(name, lang):
    text = to_markdown(rulebook(load_game(name), lang))
    check_text(GOLDEN / f"{name}.{lang}.md", text)  # written again only as goldens.regenerate() says


def grammar_constructs():
    """The names of the tree nodes the grammar can build: rules kept in the tree, and aliases."""
    text = (ROOT / "grammar" / "dsl.lark").read_text(encoding="utf-8")
    rules = set(re.findall(r"^([a-z][a-z_]*)\s*:", text, re.M))
    aliases = set(re.findall(r"->\s*([a-z_]+)", text))
    return sorted(rules | aliases)


def test_every_grammar_construct_has_words_in_both_languages():
    constructs = grammar_constructs()
    assert {"ternary", "call_gen", "for_stmt", "emit", "augassign"} <= set(constructs)
    for lang in ("en", "zh"):
        keys = {k.split(".")[0] for k in TEMPLATES[lang]}
        assert [c for c in constructs if c not in keys] == [], lang


def test_every_vocabulary_function_and_aggregate_has_words_in_both_languages():
    for lang in ("en", "zh"):
        words = {k.split("/")[0] for k in FUNCTION_WORDS[lang]}
        assert sorted(set(FUNCTIONS) - words) == [], lang
        assert sorted(set(AGGREGATES) - set(AGGREGATE_NAMES)) == []
        assert all(f"agg.{a}" in TEMPLATES[lang] for a in AGGREGATE_NAMES)


EVERY_CONSTRUCT = """\
n = 1 if not (player.doubloons >= 2 or player_count != 3) else -2
n += len([1, 2]) * 3 // 2 % 5 - 1
n -= 1
for x in player.city:
    if x in player.city and x not in players:
        pass
    elif sum(b.cost for b in player.city if b.vp > 0) <= 3 and x.type == hospice:
        move(x, building_supply)
    else:
        emit built(player, x)
chooser = player; captain_privilege_used = option.hospice_on_quarry
"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_text_with_every_construct_reads_as_words(lang):
    game = load_game("puerto_rico")
    lines = lines_text(Phrases(Names(game.definition, lang)).stmts(EVERY_CONSTRUCT))
    text = "\n".join(lines)
    assert not [op for op in ("==", "!=", "+=", "-=", ">=", "<=", "//", "elif", "emit ") if op in text]  # no DSL left
    expected = {
        "en": ["Let *n* be 1 if not (the player's doubloons is at least 2 or the number of players is not 3), "
               "otherwise −2", "Add len", "Subtract 1 from", "For each *x* in the player's city:",
               "the sum of *b*'s cost for each *b* in the player's city where *b*'s VP is more than 0",
               "Move *x* to Buildings for sale", "Announce the event “a building built” (the player, *x*)", "Otherwise:",
               "*x* is not in the players", "Set Player of the current role to the player",
               "the option “The hospice also serves a quarry”"],
        "zh": ["令*n*为若并非(该玩家的杜布隆至少为2或玩家人数不为3)则为1,否则为−2", "对该玩家的城区中的每个*x*:",
               "将*x*移到存放面板上的建筑物", "否则:", "*x*不在所有玩家中", "将当前角色的选择者设为该玩家",
               "选项“收容院也适用于采石场”"],
    }[lang]
    for part in expected:
        assert part.replace("Add len", "Add") in text, part


def test_every_building_and_role_of_puerto_rico_is_in_the_text_with_its_rules():
    game = load_game("puerto_rico")
    comps = game.definition.sections["components"]
    for lang in ("en", "zh"):
        text = to_markdown(rulebook(game, lang))
        for cls in ("building", "role_card"):
            for t, entry in comps[cls]["types"].items():
                assert entry["label"][lang] in text, (lang, t)
        for phase in game.definition.sections["phases"].values():
            assert phase["label"][lang] in text
    en = to_markdown(rulebook(game, "en"))
    assert "| Hospice | 2 | cost 4; VP 2; column (quarry limit) 2; colonist circles 1; city spaces 1;" in en
    assert "When something happens: Hospice: a colonist on the new tile" in en   # the hook that gives its colonist
    assert "| Small market | 2 |" in en and "Extra doubloons per sale +1" in en
    assert "**Disputed** (dispute mayor_privilege_empty_supply)" in en
    assert "*price*(*p*, *b*): the greatest of (0, *b*'s cost − the least of (*occupied quarries*(*p*), " \
           "*b*'s column (quarry limit)) − (1 if *p* is Player of the current role, otherwise 0))" in en


def test_a_variant_marks_the_rules_it_changes(capsys):
    assert main(["rules", "puerto_rico", "--variant", str(ROOT / "examples/house_rules/harbor_plus_two.yaml")]) == 0
    text = capsys.readouterr().out
    assert "**Changed by the variant**: building Harbor: ship_bonus modifier 1 → 2" in text
    assert "Extra VP per shipment (default 0): changed by Harbor +2" in text


def test_html_and_chinese_from_the_command_line(tmp_path, capsys):
    out = tmp_path / "rules.html"
    assert main(["rules", "castles_of_burgundy", "--lang", "zh", "--format", "html", "--output", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="zh-Hans">' in page
    assert "<h1>勃艮第的城堡</h1>" in page and "<strong>有争议</strong>" in page
    assert "written to" in capsys.readouterr().out


def test_html_escapes_what_the_definition_says():
    blocks = [("h", 1, "a <b> & c"), ("p", "x < y"), ("ul", [("*i* `k<2`", [])]), ("table", ["h"], [["<td>"]])]
    page = to_html(blocks)
    assert "<h1>a &lt;b&gt; &amp; c</h1>" in page and "<code>k&lt;2</code>" in page and "&lt;td&gt;" in page


@pytest.mark.parametrize("name", GAMES)
def test_the_chinese_text_shows_no_identifier(name):
    """Every name a reader sees comes from a label (the lint names a missing one): no `code` word is left."""
    text = to_markdown(rulebook(load_game(name), "zh"))
    assert sorted(set(re.findall(r"`[A-Za-z_0-9]*`", text))) == []


def test_a_name_without_a_label_shows_as_code_and_the_lint_names_it(tmp_path):
    import shutil
    from interpreter.analysis.lint import lint
    copy = tmp_path / "lg"
    shutil.copytree(ROOT / "gamedefs" / "la_granja_no_siesta", copy, ignore=shutil.ignore_patterns("scenarios", "variants"))
    labels = copy / "labels.yaml"
    labels.write_text(labels.read_text(encoding="utf-8").replace("  barn_cost: {en: silver of the current barn section, zh: 目前穀倉區域的銀幣數}\n", ""),
                      encoding="utf-8")
    game = load_game(copy)
    assert "*`barn_cost`*" in to_markdown(rulebook(game, "zh"))
    assert [f.message for f in lint(game) if f.code == "label-missing"] == ["named definition 'barn_cost' has no label"]


@pytest.mark.parametrize("name", GAMES)
def test_the_text_renders_every_rule_the_definition_holds(name):
    """Every expression and effect of the definition is put in words somewhere in the text (procedures,
    parameter adjustments and the rating table included)."""
    from test_phrases import dsl_texts

    game = load_game(name)
    seen = []

    class Recording(Phrases):
        def expr(self, text, local=()):
            seen.append(" ".join(str(text).split()))
            return super().expr(text, local)

        def stmts(self, text, local=()):
            seen.append(" ".join(str(text).split()))
            return super().stmts(text, local)

    import interpreter.readback.rules_text as rules_text
    original = rules_text.Phrases
    rules_text.Phrases = Recording
    try:
        rulebook(game, "en")
        rulebook(game, "zh")
    finally:
        rules_text.Phrases = original
    texts = {" ".join(t.split()) for kind, t in dsl_texts(game.definition.sections, holes=False)}
    holes = {" ".join(t.split()) for lab in _action_labels(game) for t in re.findall(r"\{([^{}]*)\}", lab)}
    assert sorted((texts | holes) - set(seen)) == []


def _action_labels(game):
    for st in (game.definition.sections.get("steps") or {}).values():
        for a in ((st or {}).get("actions") or {}).values():
            lab = (a or {}).get("label")
            yield from (lab.values() if isinstance(lab, dict) else [lab] if lab else [])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_solo_rating_table_and_the_provisional_notes_are_in_the_text(lang):
    text = to_markdown(rulebook(load_game("la_granja_no_siesta"), lang))
    band = {"en": "| 21–30 | You are not a farmer yet |", "zh": "| 21–30分 | 你還不夠格當一個農夫呢 |"}[lang]
    assert band in text
    note = {"en": "**Provisional**: The lower VP of each cart is not established.",
            "zh": "**暂定**: 各推車較低的分數未確定。"}[lang]
    assert note in text
    ties = {"en": "**Provisional**: the tie-breaker (production, then wealth) is not established",
            "zh": "**暂定**: 平手规则(先比生产,再比财富)未确定"}[lang]
    assert ties in to_markdown(rulebook(load_game("phoenicia"), lang))
