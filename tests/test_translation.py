"""Translation coverage (`meeple verify GAME --coverage-of RULEBOOK`): the sections of a rulebook text that no
rule cites, and the citations of that file that name no section of it."""

import json

import pytest

from interpreter.cli import main
from interpreter.analysis.rulebook_outline import outline
from interpreter.analysis.translation import _refs, cited_titles, norm, sections, strip_notes

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


UNBROKEN = """\
游戏名称:示例
玩家人数:2-4
游戏时长:30分钟
游戏配件:
9 个木制骰子
4 枝彩色铅笔
游戏准备:
每个游戏者获得:
一些说明文字,说明拿什么。
目标
游戏进行多轮,玩家收集分数。分数最多者获胜。
I、掷骰阶段
II、计分阶段
I、掷骰阶段
掷骰阶段时,玩家挑选骰子。然后记录收入。
II、计分阶段
计分阶段时,玩家把收入记录下来。
A、谷仓
B、助手
A、谷仓
谷仓位于左上角。玩家用银币划记。
B、助手
助手区位于谷仓下方,可以任意顺序划记。
单人游戏
玩家可以进行单人游戏,规则有以下调整。
游戏准备
拿取 7 个骰子并把它们放到场中央。
掷骰阶段时,玩家挑选骰子。然后记录收入。
II、计分阶段
计分阶段时,玩家把收入记录下来。
"""


def _outline(text, refs=()):
    return outline(text, cited_titles(refs))


def test_in_unbroken_text_numbering_that_counts_on_line_by_line_is_an_outline_not_headings():
    got = [(s.line, s.number, s.title, s.found_by) for s in _outline(UNBROKEN).sections]
    assert (14, "I", "掷骰阶段", "numbering") in got and (16, "II", "计分阶段", "numbering") in got
    assert (20, "A", "谷仓", "numbering") in got and (22, "B", "助手", "numbering") in got
    assert not [g for g in got if g[0] in (12, 13, 18, 19)]       # I、II、 and A、B、 listed one under another


def test_in_unbroken_text_a_short_line_is_a_heading_by_its_shape_or_when_a_citation_names_it():
    by_line = {s.line: s for s in _outline(UNBROKEN).sections}
    assert [(n, by_line[n].found_by) for n in (10, 24)] == [(10, "shape"), (24, "shape")]  # after a sentence,
    assert 4 not in by_line and 7 not in by_line             # before text; a line ending in ":" needs a citation,
    assert 26 not in by_line                                 # and so does a title that recurs (游戏准备: on line 7)
    by_line = {s.line: s for s in _outline(UNBROKEN, ["游戏配件", "游戏准备 (每个游戏者获得)", "单人游戏 游戏准备"]).sections}
    assert [by_line[n].found_by for n in (4, 7, 26)] == ["citation"] * 3
    assert by_line[4].has_text                                              # the list is its text


def test_a_line_that_introduces_a_list_is_no_heading_even_when_a_citation_names_a_part_by_it():
    refs = ["游戏准备 每个游戏者获得", "§游戏配件 每个游戏者获得:"]
    heads = {s.title for s in _outline(UNBROKEN, refs).sections}
    assert "每个游戏者获得" not in heads
    heads = {s.title for s in _outline(RULEBOOK.replace("\n\n", "\n"), ["收容院", "游戏概述 每个游戏者获得"]).sections}
    assert "每个游戏者获得" not in heads and "提示" not in heads


def test_rows_of_facts_and_counted_lists_are_no_headings_even_when_cited():
    heads = {s.line for s in _outline(UNBROKEN, ["玩家人数", "9 个木制骰子", "4 枝彩色铅笔"]).sections}
    assert 1 in heads and not heads & {2, 3, 5, 6}          # the first line titles the text; the rows do not


def test_a_block_pasted_twice_is_reported_once_and_its_copy_is_neither_heading_nor_text():
    book = _outline(UNBROKEN, ["单人游戏", "单人游戏 游戏准备"])
    assert [(r.first, r.last, r.of_first, r.of_last) for r in book.repeats] == [(28, 30, 15, 17)]
    assert 29 not in {s.line for s in book.sections}
    setup = [s for s in book.sections if s.title == "游戏准备"]
    assert [s.line for s in setup] == [26]                  # the repeated title stands in the solo part too...
    assert not [s for s in book.sections if s.line == 7]   # ...but "游戏准备:" at line 7 is uncited here


def test_a_word_after_a_heading_names_a_part_of_it_the_first_such_heading_at_or_after_it(tmp_path, capsys):
    (tmp_path / "g.yaml").write_text("""
game: {id: parts, players: [2], source: "rules.txt §游戏准备"}
vars:
  player:
    coins: {source: "rules.txt §单人游戏 游戏准备; §单人游戏 谷仓; §玩家人数"}
flow: {each_player: {step: s}}
steps:
  s:
    source: "rules.txt §I 掷骰阶段; §A–§B"
    actions:
      take: {effect: "player.coins += 1", source: "rules.txt §II 计分阶段"}
scoring:
  items:
    coins: {expr: "player.coins"}
""", encoding="utf-8")
    (tmp_path / "rules.txt").write_text(UNBROKEN, encoding="utf-8")
    assert main(["verify", str(tmp_path), "--coverage-of", str(tmp_path / "rules.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unknown"] == []
    assert data["repeats"] == [{"first": 28, "last": 30, "of_first": 15, "of_last": 17}]
    assert data["layout"] == "unbroken"
    by_title = {(h["title"], h["line"]) for h in data["headings"] if h["citations"]}
    assert ("游戏准备", 7) in by_title and ("游戏准备", 26) in by_title  # the first, and the solo part's
    assert ("谷仓", 20) in by_title and ("助手", 22) in by_title          # §A–§B
    assert ("游戏名称:示例", 1) in by_title                              # §玩家人数: a term of its facts
    assert data["uncited"] == [{"title": "目标", "line": 10}]
    assert data["found_by"] == {"contents": 0, "numbering": 4, "layout": 1, "citation": 3, "shape": 1}


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


def _coverage(capsys, game, rulebook):
    assert main(["verify", game, "--coverage-of", str(SHARED / rulebook), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return data, {h["title"] for h in data["headings"]}


shipped = pytest.mark.skipif(SHARED is None, reason="the shared rulebooks are not beside the checkout")


@shipped
def test_castles_of_burgundy_translation_sections_come_from_its_contents_and_numbers(capsys):
    data, titles = _coverage(capsys, "castles_of_burgundy", "castles-of-burgundy.zh-hans.txt")
    assert (data["sections"], data["unknown"], data["repeats"]) == (25, [], [])
    assert data["found_by"] == {"contents": 14, "numbering": 11, "layout": 0, "citation": 0, "shape": 0}
    assert {"5个阶段说明", "行动:出售货物", "航船牌片", "放置六边形牌片的其他规则"} <= titles
    assert data["uncited"] == [{"title": "公共版图区设置", "line": 52}, {"title": "更多信息", "line": 297}]


@shipped
def test_puerto_rico_translation_sections_come_from_its_blank_line_layout(capsys):
    data, titles = _coverage(capsys, "puerto_rico", "puerto-rico.zh-hans.txt")
    assert (data["sections"], data["layout"], data["unknown"]) == (48, "blank lines", [])
    assert {"收容院", "装货条件", "建筑物", "生产", "大型建筑物"} <= titles
    assert not {"提示", "波多黎各", "每个游戏者获得"} & titles     # recurring labels, a line introducing a list
    assert "生产建筑" not in titles     # a paragraph of 建筑物 that starts with the word: cited as §建筑物 (生产建筑)


@shipped
def test_phoenicia_translation_its_pasted_copies_are_counted_once(capsys):
    data, titles = _coverage(capsys, "phoenicia", "phoenicia.zh-hans.txt")
    assert [(r["first"], r["last"], r["of_first"], r["of_last"]) for r in data["repeats"]] == [
        (52, 101, 2, 51), (130, 149, 110, 129)]
    assert [(h["line"], h["title"], h["found_by"]) for h in data["headings"]] == [
        (1, "游戏名称:腓尼基人", "layout"), (7, "游戏配件", "citation"), (16, "游戏准备", "citation"),
        (35, "介绍", "citation"), (41, "游戏进程", "citation"), (102, "玩家回合", "numbering"),
        (104, "发起拍卖", "numbering")]
    assert (data["citations"], data["matched"], data["uncited"]) == (114, 114, [])
    assert "游戏策略体现在三方面" not in titles and "管理" not in titles   # a list's lead-in, an outline's item


@shipped
def test_la_granja_translation_headings_from_numbers_citations_and_shape(capsys):
    data, titles = _coverage(capsys, "la_granja_no_siesta", "la-granja-no-siesta.zh-hant.txt")
    assert data["sections"] == 32 and data["layout"] == "unbroken"
    assert data["repeats"] == [{"first": 217, "last": 228, "of_first": 12, "of_last": 23}]
    heads = {(h["line"], h["number"], h["title"]) for h in data["headings"]}
    assert {(56, "I", "擲骰階段"), (70, "II", "計分階段"), (113, "III", "一輪結束"), (83, "A", "穀倉屋頂"),
            (108, "F", "午休軌圖板"), (158, "", "12 個灰色助手說明"), (68, "", "2 人遊戲變體:原味大莊園")} <= heads
    assert not {h for h in heads if h[0] in (53, 54, 55, 77, 82)}         # the outlines that announce them
    assert not {"9 個骰子", "4 枝鉛筆", "遊戲名稱:La Granja: No Siesta", "刪除"} & titles
    setups = [h for h in data["headings"] if h["title"] == "遊戲設置"]
    assert [(h["line"], h["citations"] > 0) for h in setups] == [(36, True), (153, True), (168, True)]
    assert data["matched"] == data["citations"] and data["unknown"] == []   # every citation names a section
    assert data["uncited"] == [{"title": "遊戲目標", "line": 34}, {"title": "遊戲配件", "line": 215}]


def test_every_word_of_a_citation_is_read_up_to_its_last_heading(tmp_path, capsys):
    """A citation that names several sections names all of them, the last as well as the first."""
    root = _game(tmp_path, ["rules.txt §游戏概述 游戏流程 一、5个阶段说明 2、行动:出售货物 (2)航船牌片 收容院"] * 4)
    assert main(["verify", str(root), "--coverage-of", str(root / "rules.txt"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["uncited"] == [] and data["unknown"] == []
