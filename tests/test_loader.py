"""loader: hardened YAML — plain values, positions, and located errors for bad input."""

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.definition.loader import Limits, load_yaml, load_yaml_text
from interpreter.definition.problems import DefinitionError, InputError, Location


def load(text, **limits):
    return load_yaml_text(text, "g.yaml", Limits(**limits) if limits else Limits())


def problems_of(text, **limits):
    with pytest.raises(DefinitionError) as caught:
        load(text, **limits)
    return caught.value.problems


def only_problem(text, **limits):
    problems = problems_of(text, **limits)
    assert len(problems) == 1, problems
    return problems[0]


# ---------------------------------------------------------------- values


def test_plain_data_from_a_mapping():
    doc = load("game:\n  id: pr\n  players: [3, 4, 5]\n  name: {en: Puerto Rico, zh: 波多黎各}\n")
    assert doc.data == {"game": {"id": "pr", "players": [3, 4, 5], "name": {"en": "Puerto Rico", "zh": "波多黎各"}}}
    assert doc.file == "g.yaml"


@pytest.mark.parametrize("word", ["on", "off", "yes", "no", "y", "n", "Yes", "NO", "On"])
def test_yaml_1_1_booleans_stay_strings(word):
    assert load(f"{word}: {word}\n").data == {word: word}


def test_hook_key_on_stays_a_string():
    assert load("hooks:\n  h: {on: built, do: []}\n").data == {"hooks": {"h": {"on": "built", "do": []}}}


@pytest.mark.parametrize("word, value", [
    ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
])
def test_booleans_are_the_yaml_1_2_spellings(word, value):
    assert load(f"a: {word}\n").data == {"a": value}


def test_player_count_keys_stay_ints():
    assert load("t: {3: 2, 4: 3, 5: 4}\n").data == {"t": {3: 2, 4: 3, 5: 4}}


@pytest.mark.parametrize("text", ["1:30", "2024-01-01", "2001-12-14t21:59:43.10-05:00", "1_000", ".inf", "-.inf", ".nan"])
def test_no_sexagesimal_timestamps_underscores_or_infinities(text):
    assert load(f"a: {text}\n").data == {"a": text}


@pytest.mark.parametrize("text, value", [
    ("0", 0), ("-7", -7), ("+5", 5), ("007", 7), ("0x1F", 31), ("0o17", 15), ("1.5", 1.5), ("1e3", 1000.0),
    ("~", None), ("null", None), ("", None), ("none", "none"), ("'3'", "3"), ('"true"', "true"),
])
def test_scalars_follow_the_yaml_1_2_core_schema(text, value):
    assert load(f"a: {text}\n").data == {"a": value}


def test_explicit_core_tags():
    assert load("a: !!str 3\nb: !!int '4'\n").data == {"a": "3", "b": 4}


def test_anchors_and_aliases_expand_to_copies():
    doc = load("a: &x {n: 1}\nb: *x\n")
    assert doc.data == {"a": {"n": 1}, "b": {"n": 1}}
    assert doc.data["a"] is not doc.data["b"]


def test_empty_file_is_none():
    doc = load("# nothing here\n")
    assert doc.data is None
    assert doc.where(()) == Location("g.yaml", 1, 1)


def test_byte_order_mark_and_crlf():
    doc = load("\ufeffa: 1\r\nb:\r\n  c: 2\r\n")
    assert doc.data == {"a": 1, "b": {"c": 2}}
    assert doc.where(("b", "c")) == Location("g.yaml", 3, 6)


# ---------------------------------------------------------------- positions


SAMPLE = """\
components:
  building:
    types:
      university:
        cost: 8
        vp: 3
tables:
  start: {3: 2, 4: 3}
flow:
  - step: build
  - effect: "x"
"""


def test_where_gives_the_position_of_the_value_and_key_where_of_the_key():
    doc = load(SAMPLE)
    path = ("components", "building", "types", "university", "cost")
    assert doc.where(path) == Location("g.yaml", 5, 15)
    assert doc.key_where(path) == Location("g.yaml", 5, 9)
    assert doc.where(("flow", 1)) == Location("g.yaml", 11, 5)
    assert doc.where(("flow", 1, "effect")) == Location("g.yaml", 11, 13)
    assert doc.where(()) == Location("g.yaml", 1, 1)


def test_int_keys_are_found_by_value_or_by_their_text():
    doc = load(SAMPLE)
    assert doc.where(("tables", "start", 4)) == Location("g.yaml", 8, 20)
    assert doc.where(("tables", "start", "4")) == Location("g.yaml", 8, 20)
    assert doc.key_where(("tables", "start", "4")) == Location("g.yaml", 8, 17)


def test_unknown_paths_fall_back_to_the_nearest_ancestor():
    doc = load(SAMPLE)
    university = ("components", "building", "types", "university")
    assert doc.where((*university, "label")) == doc.where(university)
    assert doc.key_where((*university, "label", "en")) == doc.where(university)
    assert doc.where(("flow", 7)) == doc.where(("flow",))


def test_positions_count_characters_not_bytes():
    doc = load("label: {zh: 大学, en: University}\n")
    assert doc.where(("label", "en")) == Location("g.yaml", 1, 21)


# ---------------------------------------------------------------- positions inside strings


def test_locate_in_a_plain_scalar():
    doc = load("steps:\n  s:\n    if: price(player, b) <= player.doubloons\n")
    path = ("steps", "s", "if")
    assert doc.locate_in_scalar(path, 1, 1) == Location("g.yaml", 3, 9)
    assert doc.locate_in_scalar(path, 1, 7) == Location("g.yaml", 3, 15)  # the '('


def test_locate_in_quoted_scalars():
    doc = load("a: \"f(x) \\\"q\\\" + y\"\nb: 'it''s + z'\n")
    assert doc.data == {"a": 'f(x) "q" + y', "b": "it's + z"}
    assert doc.locate_in_scalar(("a",), 1, 12) == Location("g.yaml", 1, 18)  # the 'y' after two escapes
    assert doc.locate_in_scalar(("b",), 1, 8) == Location("g.yaml", 2, 13)  # the 'z' after a doubled quote


def test_locate_in_a_folded_multi_line_quoted_scalar():
    doc = load('a: "one and\n     two"\n')
    assert doc.data == {"a": "one and two"}
    assert doc.locate_in_scalar(("a",), 1, 9) == Location("g.yaml", 2, 6)


def test_locate_in_a_literal_block_scalar():
    text = (
        "steps:\n"
        "  build:\n"
        "    effect: |\n"
        "      player.doubloons -= price(player, b)\n"
        "      if x:\n"
        "          move(b, player.city)\n"
    )
    doc = load(text)
    path = ("steps", "build", "effect")
    assert doc.where(path) == Location("g.yaml", 3, 13)  # the indicator
    assert doc.locate_in_scalar(path, 1, 1) == Location("g.yaml", 4, 7)
    assert doc.locate_in_scalar(path, 3, 5) == Location("g.yaml", 6, 11)  # 'move'
    assert doc.locate_in_scalar(path, 3, 9) == Location("g.yaml", 6, 15)  # its '('


def test_locate_in_a_stripped_block_scalar_with_leading_blank_line():
    doc = load("e: |-\n\n  a = 1\n  b = )\nz: 1\n")
    assert doc.data["e"] == "\na = 1\nb = )"
    assert doc.locate_in_scalar(("e",), 3, 5) == Location("g.yaml", 4, 7)


def test_locate_in_a_block_scalar_with_an_indentation_indicator():
    doc = load("a:\n  e: |2\n      x\n    y\n")
    assert doc.data == {"a": {"e": "  x\ny\n"}}
    assert doc.locate_in_scalar(("a", "e"), 2, 1) == Location("g.yaml", 4, 5)
    assert doc.locate_in_scalar(("a", "e"), 1, 3) == Location("g.yaml", 3, 7)


def test_locate_in_a_folded_block_scalar():
    doc = load("f: >\n  one\n  two\n\n  three\n")
    assert doc.data == {"f": "one two\nthree\n"}
    assert doc.locate_in_scalar(("f",), 1, 5) == Location("g.yaml", 3, 3)
    assert doc.locate_in_scalar(("f",), 2, 1) == Location("g.yaml", 5, 3)


def test_locate_after_an_anchor_or_a_tag():
    doc = load("a: &x 'p + q'\nb: !!str |\n  r + s\nc: *x\n")
    assert doc.locate_in_scalar(("a",), 1, 5) == Location("g.yaml", 1, 12)
    assert doc.locate_in_scalar(("b",), 1, 5) == Location("g.yaml", 3, 7)
    assert doc.locate_in_scalar(("c",), 1, 5) == Location("g.yaml", 1, 12)  # in the anchored text


def test_locate_clamps_past_the_end_and_falls_back_for_non_strings():
    doc = load("a: abc\nb: 5\n")
    assert doc.locate_in_scalar(("a",), 1, 99) == Location("g.yaml", 1, 7)  # just after 'c'
    assert doc.locate_in_scalar(("a",), 9, 1) == Location("g.yaml", 1, 4)
    assert doc.locate_in_scalar(("b",), 1, 1) == doc.where(("b",))
    assert doc.locate_in_scalar(("missing",), 1, 1) == doc.where(())


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    lines=st.lists(st.text(alphabet="ab(x)+=.,:'\"#- 字", min_size=1, max_size=12).map(str.strip).filter(bool),
                   min_size=1, max_size=4),
    style=st.sampled_from(["|", "|-", "|+", ">", "dq", "sq"]),
    indent=st.integers(1, 6),
)
def test_every_character_of_a_string_is_located_at_that_character(lines, style, indent):
    pad = " " * indent
    if style == "dq":
        text = 'k: "' + ("\n" + pad).join(line.replace("\\", "").replace('"', '\\"') for line in lines) + '"\n'
    elif style == "sq":
        text = "k: '" + ("\n" + pad).join(line.replace("'", "''") for line in lines) + "'\n"
    else:
        text = f"k: {style}\n" + "".join(pad + line + "\n" for line in lines) + "z: 1\n"
    doc = load(text)
    source = doc.text.split("\n")
    for row, line in enumerate(doc.data["k"].split("\n"), 1):
        for col, char in enumerate(line, 1):
            if char in " '\"":  # folded breaks become spaces; quotes may be escapes
                continue
            loc = doc.locate_in_scalar(("k",), row, col)
            assert source[loc.line - 1][loc.col - 1] == char


# ---------------------------------------------------------------- errors


def test_duplicate_keys_name_both_lines():
    problem = only_problem("components:\n  b:\n    cost: 1\n    vp: 2\n    cost: 3\n")
    assert problem.message == "duplicate key 'cost' (first defined at line 3)"
    assert problem.location == Location("g.yaml", 5, 5)


def test_every_duplicate_is_reported():
    problems = problems_of("a: 1\na: 2\nb: {c: 1, c: 2}\n")
    assert [str(p) for p in problems] == [
        "g.yaml:2:1: error: duplicate key 'a' (first defined at line 1)",
        "g.yaml:3:11: error: duplicate key 'c' (first defined at line 3)",
    ]


def test_keys_equal_as_text_or_as_python_values_are_duplicates():
    problems = problems_of("3: a\n'3': b\n1: c\ntrue: d\n")
    assert [p.message for p in problems] == [
        "duplicate key '3' (first defined at line 1)",
        "duplicate key 'true' (first defined at line 3)",
    ]


def test_syntax_error_is_located():
    problem = only_problem("a:\n  b: [1, 2\nc: 3\n")
    assert problem.message.startswith("invalid YAML: ")
    assert problem.location.file == "g.yaml" and problem.location.line == 3


def test_tab_indentation_gets_a_hint():
    problem = only_problem("a:\n\tb: 1\n")
    assert problem.location == Location("g.yaml", 2, 1)
    assert "spaces" in problem.hint


def test_unsafe_and_unknown_tags_are_rejected():
    problems = problems_of("a: !!python/object/apply:os.system ['true']\nb: !custom 1\nc: !!timestamp 2001-01-01\n")
    assert [p.location.line for p in problems] == [1, 2, 3]
    assert all(p.message.startswith("unsupported tag") for p in problems)


def test_bad_explicit_core_tag_value():
    problem = only_problem("a: !!int abc\n")
    assert problem.message == "'abc' is not a valid int"


def test_merge_keys_are_rejected():
    problem = only_problem("base: &b {cost: 1}\nx:\n  <<: *b\n  vp: 2\n")
    assert "merge keys" in problem.message
    assert problem.location == Location("g.yaml", 3, 3)


def test_complex_and_empty_keys_are_rejected():
    assert "not a list" in only_problem("? [a, b]\n: 1\n").message
    assert "must not be empty" in only_problem("~: 1\n").message


def test_multiple_documents_are_an_error():
    problem = only_problem("a: 1\n---\nb: 2\n")
    assert "one YAML document" in problem.message
    assert problem.location == Location("g.yaml", 2, 1)


def test_undefined_and_recursive_aliases():
    assert "undefined alias" in only_problem("a: *nope\n").message
    assert "contains it" in only_problem("a: &x [1, *x]\n").message


def test_billion_laughs_fails_fast_with_a_problem():
    text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for name, previous in zip("bcdefghi", "abcdefgh"):
        text += f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]\n"
    start = time.perf_counter()
    problem = only_problem(text)
    assert time.perf_counter() - start < 5
    assert "aliases expand to more than 100000 values" in problem.message
    assert problem.location.file == "g.yaml"


def test_alias_node_cap_is_configurable():
    text = "a: &a [1, 2, 3]\nb: [*a, *a]\n"
    assert load(text, max_alias_nodes=8).data["b"] == [[1, 2, 3], [1, 2, 3]]
    problem = only_problem(text, max_alias_nodes=7)
    assert problem.location == Location("g.yaml", 2, 9)  # the alias that went over


def test_alias_count_cap():
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * 11) + "]\n"
    problem = only_problem(text, max_aliases=10)
    assert "too many aliases" in problem.message
    assert problem.location.line == 2


def test_depth_cap():
    # The root mapping is the first level.
    assert load("a: " + "[" * 63 + "]" * 63 + "\n").data is not None
    problem = only_problem("a: " + "[" * 64 + "]" * 64 + "\n")
    assert "nesting is too deep: more than 64 levels" in problem.message
    assert problem.location == Location("g.yaml", 1, 67)  # the 65th level


def test_very_deep_nesting_fails_with_a_problem_not_a_recursion_error():
    assert "too deep" in only_problem("a: " + "[" * 100_000 + "]" * 100_000 + "\n").message


def test_depth_cap_applies_to_aliases_too():
    text = "a: &a [[[1]]]\nb: " + "[" * 6 + "*a" + "]" * 6 + "\n"
    assert "too deep" in only_problem(text, max_depth=8).message


def test_size_cap_on_text_and_on_files(tmp_path):
    problem = only_problem("a: " + "x" * 100 + "\n", max_bytes=50)
    assert "larger than the limit" in problem.message
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 3 * 1024 * 1024 + "\n")
    with pytest.raises(DefinitionError) as caught:
        load_yaml(path)
    assert not isinstance(caught.value, InputError)
    assert caught.value.problems[0].location.file == str(path)


def test_load_yaml_reads_a_file(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("game: {id: x}\n", encoding="utf-8")
    doc = load_yaml(path)
    assert doc.data == {"game": {"id": "x"}}
    assert doc.where(("game", "id")) == Location(str(path), 1, 12)


def test_unreadable_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as caught:
        load_yaml(tmp_path / "missing.yaml")
    assert "cannot read file" in str(caught.value)
    with pytest.raises(InputError):
        load_yaml(tmp_path)  # a directory


def test_invalid_utf8_is_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(DefinitionError) as caught:
        load_yaml(path)
    assert caught.value.problems[0].location == Location(str(path), 2, 7)


def test_control_characters_are_located():
    problem = only_problem("a: 1\nb: x\x07y\n")
    assert problem.location == Location("g.yaml", 2, 5)


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(list("ab :-[]{},&*!|>'\"#\n\t?%@\\1.~<\x07") +
                                ["  ", "\n  ", "---", "!!int", "&a", "*a", "<<"]),
                max_size=40).map("".join))
def test_any_input_loads_or_fails_with_located_problems(text):
    try:
        doc = load(text)
    except DefinitionError as error:
        assert error.problems
        assert all(p.location is not None and p.location.file == "g.yaml" for p in error.problems)
    else:
        doc.where(("a",))
        doc.locate_in_scalar(("a",), 2, 3)


# ---------------------------------------------------------------- two parsers, one outcome


def _outcome(text, pure, monkeypatch):
    """What loading `text` gives, read by PyYAML's own parser (`pure`) or by libyaml where it can:
    the data and every position, or the problems."""
    from interpreter.definition import loader
    with monkeypatch.context() as patch:
        if pure:
            patch.setattr(loader, "_CLoader", None)
        try:
            doc = load(text)
        except DefinitionError as error:
            return ("problems", [(p.message, p.location, p.hint) for p in error.problems])
    positions = {path: (pos.key, pos.value, pos.node and (pos.node.value, pos.node.style,
                                                         pos.node.start_mark.index, pos.node.end_mark.index))
                 for path, pos in doc._positions.items()}
    return ("data", doc.data, positions)


def _shipped_yaml():
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    return sorted(str(p.relative_to(root)) for d in ("gamedefs", "examples") for p in (root / d).rglob("*.yaml"))


@pytest.mark.skipif(__import__("interpreter.definition.loader", fromlist=["_CLoader"])._CLoader is None,
                    reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("name", _shipped_yaml())
def test_libyaml_reads_every_shipped_file_as_pyyaml_does(name, monkeypatch):
    import pathlib
    text = (pathlib.Path(__file__).resolve().parent.parent / name).read_text(encoding="utf-8")
    fast = _outcome(text, False, monkeypatch)
    assert fast[0] == "data"
    assert fast == _outcome(text, True, monkeypatch)


@pytest.mark.parametrize("text", ["a: [1, 2\n", "a: 1\n b: 2\n", "a:\n\t- 1\n", "a: 'x\n", "a: 1\nb: x\x07y\n",
                                  "- a\nb: 1\n", "a: &x 1\nb: *y\n", "a: 1\n---\nb: 2\n"])
def test_a_file_libyaml_rejects_gets_pyyaml_messages(text, monkeypatch):
    fast = _outcome(text, False, monkeypatch)
    assert fast[0] == "problems"
    assert fast == _outcome(text, True, monkeypatch)


_CHARACTERS = list("ab :-[]{},&*!|>'\"#\n\t?%@\\1.~") + ["中", "  ", "\n  ", "---", "!!int", "&a", "*a", "<<", "\n- "]
_PIECES = ["a: ", "b:", "\n", "\n  ", "\n    ", "- ", "{x: 1, 中: 2}", "[1, 2]", "|\n  line", ">-\n  t", "|+",
           "'q'", '"d\\n"', '"多"', "&x ", "*x", " # c", "!!str ", "3", "{", "}", "[", "]", ",", ": ", "中文",
           "x != y", "...", "---\n", "!", "~", "1.5", "0x1F", "<<: ", "#", "\t", "?"]


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_CHARACTERS), max_size=40).map("".join)
       | st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_libyaml_and_pyyaml_give_the_same_outcome(text):
    """Found this way: where the two differ, the file is left to PyYAML (`loader._LEFT_TO_PYYAML`)."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _outcome(text, False, monkeypatch) == _outcome(text, True, monkeypatch)


def test_an_integer_of_thousands_of_digits_is_one_short_located_problem():
    (p,) = problems_of("tables:\n  big: " + "9" * 5000 + "\n")
    assert (p.location.line, p.location.col) == (2, 8)
    assert p.message == "an integer of 5000 digits is beyond the limit of ±2**53"
