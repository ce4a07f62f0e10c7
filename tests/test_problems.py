"""problems: the text authors read, ordering, and did-you-mean."""

import pickle

import pytest

from interpreter.definition.problems import (
    DefinitionError,
    InputError,
    Location,
    Problem,
    close_matches,
    did_you_mean,
    format_choices,
    sort_problems,
)


def test_location_text_is_file_line_col():
    assert str(Location("gamedefs/pr/buildings.yaml", 12, 5)) == "gamedefs/pr/buildings.yaml:12:5"


def test_location_without_line_or_column_names_the_file_or_line():
    assert str(Location("a.yaml", 0, 0)) == "a.yaml"
    assert str(Location("a.yaml", 3, 0)) == "a.yaml:3"


def test_problem_text_has_location_severity_message_and_hint():
    problem = Problem("unknown key 'cots'", Location("b.yaml", 12, 5), "did you mean 'cost'?")
    assert str(problem) == "b.yaml:12:5: error: unknown key 'cots'; did you mean 'cost'?"


def test_problem_without_location_or_hint():
    assert str(Problem("no game directory at 'x'")) == "error: no game directory at 'x'"
    assert str(Problem("unused", severity="warning")) == "warning: unused"


def test_problem_rejects_unknown_severity():
    with pytest.raises(ValueError):
        Problem("x", severity="fatal")


def test_problems_sort_by_file_position_then_errors_first():
    a = Problem("late", Location("a.yaml", 9, 1))
    b = Problem("warn", Location("a.yaml", 2, 3), severity="warning")
    c = Problem("early", Location("a.yaml", 2, 3))
    d = Problem("whole input")
    e = Problem("other file", Location("b.yaml", 1, 1))
    assert sort_problems([a, b, c, d, e]) == [d, c, b, a, e]


def test_definition_error_lists_every_problem_one_per_line():
    problems = [Problem("first", Location("a.yaml", 1, 1)), Problem("second", Location("a.yaml", 2, 1))]
    error = DefinitionError(problems)
    assert error.problems == problems
    assert str(error) == "a.yaml:1:1: error: first\na.yaml:2:1: error: second"


def test_definition_error_accepts_a_single_problem_and_pickles():
    error = DefinitionError(Problem("only", Location("a.yaml", 1, 2)))
    assert len(error.problems) == 1
    copy = pickle.loads(pickle.dumps(error))
    assert copy.problems == error.problems


def test_input_error_is_a_definition_error():
    error = InputError([Problem("cannot read file")])
    assert isinstance(error, DefinitionError)
    assert isinstance(pickle.loads(pickle.dumps(error)), InputError)


def test_did_you_mean_suggests_the_closest_name():
    assert did_you_mean("wokers", ["workers", "vp", "cost"]) == "did you mean 'workers'?"
    assert did_you_mean("cots", ["cost", "vp"]) == "did you mean 'cost'?"


def test_did_you_mean_prefers_a_case_only_difference():
    assert did_you_mean("Cost", ["cost", "Coast"]) == "did you mean 'cost'?"


def test_did_you_mean_none_when_nothing_is_close():
    assert did_you_mean("zzz", ["workers", "cost"]) is None
    assert did_you_mean("cost", []) is None
    assert did_you_mean("cost", ["cost"]) is None  # the name itself is no suggestion


def test_did_you_mean_several_and_non_string_candidates():
    assert did_you_mean("4", [3, 4, 5]) is None
    assert did_you_mean("colour", ["color", "colours"], n=2) == "did you mean 'colours' or 'color'?"
    assert close_matches("tabel", ["label", "table"], n=2) == ["table", "label"]


def test_format_choices():
    assert format_choices(["a"]) == "'a'"
    assert format_choices(["a", "b", "c"]) == "'a', 'b' or 'c'"
    assert format_choices(["a", "b"], "and") == "'a' and 'b'"
