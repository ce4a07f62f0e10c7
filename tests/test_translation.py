"""Translation coverage (`meeple verify GAME --coverage-of RULEBOOK`): the sections of a rulebook text that no
rule cites, and the citations of that file that name no section of it."""

import json

import pytest

from interpreter.cli import main
from interpreter.translation import _refs, norm, sections, strip_notes

from conftest import ROOT

RULEBOOK = """\
目录
游戏概述......................1
游戏流程......................2
一、5个阶段说明...............2

游戏概述:
游戏的简短介绍,说明玩家的目标。
游戏流程:
一、5个阶段说明:
1、移除所有剩余的牌片,放回游戏盒中。
2、行动:出售货物。
玩家出售同一种类的全部货物。
(2)航船牌片(蓝色):两个事件立即发生,玩家拿取货物。
(1)1个银币。(无论出售了多少货物)

收容院

占有者可以得到一个拓荒者。

提示:

– 这是一个提示。

提示:

– 另一个提示。

每个游戏者获得:

一些说明文字。
"""


def test_headings_come_from_the_contents_numbers_and_lines_that_stand_alone():
    got = [(s.title, s.number, s.has_text) for s in sections(RULEBOOK)]
    assert got == [
        ("目录", "", False),                   # the contents: no text of its own
        ("游戏概述", "", True),
        ("游戏流程", "", False),               # its text is all in its subsections
        ("5个阶段说明", "一", True),
        ("行动:出售货物", "2", True),           # a numbered item with a colon is a heading; "1、移除…" is not
        ("航船牌片", "(2)", True),              # "(1)1个银币。" is a list item
        ("收容院", "", True),                  # a short line alone; the repeated "提示" is no section
    ]


def test_titles_are_compared_without_numbers_punctuation_and_notes():
    assert norm("2、行动:出售货物。") == "行动出售货物"
    assert strip_notes("船长 (提示: 如果 (例外) 他不能)") == "船长 "
    assert strip_notes("(5)建筑牌片 (米黄色") == "(5)建筑牌片 "


def test_citations_of_a_file_are_its_section_references():
    src = "rules.txt §收容院 (提示), §游戏流程; §一、5个阶段说明 1; summary §旅館; other.md §3; rules.txt §(2)航船牌片"
    assert _refs(src, "rules.txt") == ["收容院 (提示)", "游戏流程", "一、5个阶段说明 1", "(2)航船牌片"]
    assert _refs(src, "other.md") == ["3"]


def _game(tmp_path, sources):
    (tmp_path / "g.yaml").write_text("""
game: {id: cited, players: [2], source: "%s"}
vars:
  player:
    coins: {source: "%s"}
flow: {each_player: {step: s}}
steps:
  s:
    source: "%s"
    actions:
      take: {effect: "player.coins += 1", source: "%s"}
scoring:
  items:
    coins: {expr: "player.coins"}
""" % tuple(sources), encoding="utf-8")
    (tmp_path / "rules.txt").write_text(RULEBOOK, encoding="utf-8")
    return tmp_path


def test_verify_coverage_of_lists_uncited_sections_and_unknown_citations(tmp_path, capsys):
    root = _game(tmp_path, ["rules.txt §游戏概述", "rules.txt §一、5个阶段说明 1; §(2)航船牌片 (蓝色)",
                            "rules.txt §2、行动:出售货物", "rules.txt §收容所 (提示); reference §1"])
    assert main(["verify", str(root), "--coverage-of", str(root / "rules.txt")]) == 1
    text = capsys.readouterr().out
    assert "rulebook: 7 sections (5 with text); 5 citations of it in the definition, 4 name a section" in text
    assert "sections no rule cites: 1\n  line 16: 收容院" in text
    assert "citations that name no section: 1" in text
    assert "g.yaml:11:51: §收容所 (提示) (steps.s.actions.take); did you mean §收容院?" in text
    assert main(["verify", str(root), "--coverage-of", str(root / "rules.txt"), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["uncited"] == [{"title": "收容院", "line": 16}]
    assert [u["ref"] for u in data["unknown"]] == ["收容所 (提示)"]


def test_a_missing_rulebook_is_a_usage_error(tmp_path, capsys):
    assert main(["verify", "puerto_rico", "--coverage-of", str(tmp_path / "none.txt")]) == 2
    assert "no such file" in capsys.readouterr().err


SHARED = next((p for p in (ROOT.parent / "shared" / "rulebooks", ROOT.parent.parent / "shared" / "rulebooks")
               if p.is_dir()), None)


@pytest.mark.skipif(SHARED is None, reason="the shared rulebooks are not beside the checkout")
def test_the_shipped_translations(capsys):
    main(["verify", "castles_of_burgundy", "--coverage-of", str(SHARED / "castles-of-burgundy.zh-hans.txt")])
    text = capsys.readouterr().out
    assert "citations that name no section: 0" in text
    assert "line 297: 更多信息" in text                           # the variant with other boards: not encoded
    main(["verify", "puerto_rico", "--coverage-of", str(SHARED / "puerto-rico.zh-hans.txt")])
    text = capsys.readouterr().out
    assert "§生产建筑 (components.building.types.small_indigo_plant); did you mean §生产?" in text
