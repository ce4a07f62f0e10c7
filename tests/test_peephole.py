"""The peephole pass (interpreter/language/peephole.py): generated source rewritten before it is compiled,
with the same meaning.

Each test compiles a source as written and as rewritten, and runs both: the values, the environment they
leave and the failures are the same. The golden transcripts check that no shipped game's play changed.
"""

import ast
import dis

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.language import codegen, peephole


def run(src, K, s=None, e=None, rewritten=True):
    """Define `src` (a generated function of s, e) as the pool does, or as written; call it."""
    code = compile(peephole.optimized(src) if rewritten else src, "<test>", "exec")
    ns = {"K": K}
    for i in peephole.constants_read(code):
        ns[peephole.constant_name(i)] = K[i]
    exec(code, ns)
    return ns["_f"](s, e)


def test_a_constant_of_the_pool_is_read_as_a_global_name():
    src = "def _f(s, e, K=K):\n    return K[0] + K[2] * 2\n"
    code = compile(peephole.optimized(src), "<test>", "exec")
    assert peephole.constants_read(code) == (0, 2)
    inner = next(c for c in code.co_consts if hasattr(c, "co_code"))
    assert "BINARY_SUBSCR" not in {i.opname for i in dis.get_instructions(inner)}
    assert run(src, [1, 99, 10]) == run(src, [1, 99, 10], rewritten=False) == 21


def test_a_constant_inside_a_comprehension_is_read_as_a_global_name_too():
    src = "def _f(s, e, K=K):\n    return [x * K[1] for x in K[0] if x != K[2]]\n"
    K = [[1, 2, 3], 10, 2]
    assert run(src, K) == run(src, K, rewritten=False) == [10, 30]


@pytest.mark.parametrize("literal", ["'K[1]'", '"it\'s K[1]"', r"'a\'K[1]'", "'K[1]\\\\'"])
def test_text_inside_a_string_is_never_rewritten(literal):
    src = f"def _f(s, e, K=K):\n    return ({literal}, K[1])\n"
    value = ast.literal_eval(literal)
    assert run(src, ["zero", "one"]) == (value, "one")


def test_a_pool_that_grows_after_a_function_was_made_does_not_change_it():
    pool = codegen.Pool()
    ref = pool.ref(5)
    f = pool.function(f"{ref} + 1")
    for i in range(10):
        pool.ref(object())
    assert f(None, None) == 6


def test_slot_stores_before_a_body_become_statements_in_their_order():
    src = ("def _f(s, e, K=K):\n"
           "    return (e.__setitem__(2, K[0](e)) or e.__setitem__(3, e[2] + 1) or (e[2] * 10 + e[3]))\n")
    tree = peephole.optimized(src)
    body = tree.body[0].body
    assert [type(x).__name__ for x in body] == ["Assign", "Assign", "Return"]
    for rewritten in (True, False):
        e = [None, None, None, None]
        assert run(src, [lambda env: 4], e=e, rewritten=rewritten) == 45
        assert e == [None, None, 4, 5]


def test_a_store_that_fails_leaves_the_stores_before_it_and_runs_none_after():
    src = ("def _f(s, e, K=K):\n"
           "    return (e.__setitem__(1, 7) or e.__setitem__(2, 1 // e[0]) or e.__setitem__(3, 9) or (e[1]))\n")
    for rewritten in (True, False):
        e = [0, None, None, None]
        with pytest.raises(ZeroDivisionError):
            run(src, [], e=e, rewritten=rewritten)
        assert e == [0, 7, None, None]


def test_a_chain_nested_in_the_last_operand_is_unchained_too():
    src = ("def _f(s, e, K=K):\n"
           "    return (e.__setitem__(1, 2) or (e.__setitem__(2, e[1] * 3) or (e[1] + e[2])))\n")
    assert [type(x).__name__ for x in peephole.optimized(src).body[0].body] == ["Assign", "Assign", "Return"]
    e = [None] * 3
    assert run(src, [], e=e) == 8 and e == [None, 2, 6]


def test_an_or_that_is_not_a_chain_of_stores_is_left_as_it_is():
    src = "def _f(s, e, K=K):\n    return (e[0] or e.__setitem__(1, 5) or e[1])\n"
    for first in (0, 3):
        for rewritten in (True, False):
            e = [first, None]
            assert run(src, [], e=e, rewritten=rewritten) == (5 if first == 0 else 3)


@given(stores=st.lists(st.tuples(st.integers(1, 5), st.integers(-9, 9)), max_size=6),
       fail_at=st.one_of(st.none(), st.integers(0, 5)))
def test_any_chain_of_stores_means_what_it_meant(stores, fail_at):
    parts = [f"e.__setitem__({slot}, {'1 // e[0]' if i == fail_at else v} + sum(e[1:6]))"
             for i, (slot, v) in enumerate(stores)]
    src = "def _f(s, e, K=K):\n    return (" + " or ".join(parts + ["(tuple(e))"]) + ")\n"
    outcomes = []
    for rewritten in (True, False):
        e = [0, 0, 0, 0, 0, 0]
        try:
            outcomes.append(("value", run(src, [], e=e, rewritten=rewritten), e))
        except ZeroDivisionError:
            outcomes.append(("fails", None, e))
    assert outcomes[0] == outcomes[1]
