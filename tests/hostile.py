"""A generated corpus of hostile inputs: definitions, overlays, records, option values, saved states and
scenario files that must be refused cleanly (issue classes 1-10: cost, caps, crashes, hidden errors, traps,
states, paths, host and budget holes, checkers, locations).

Each `Case` is a set of files written into a fresh directory and a command line run on them with `cli.main`
(or, for saved states, the API). The test (`test_hostile.py`) runs every case in a child process and asserts
the exit code (1: the definition is at fault, 2: usage or an unreadable input), a `file:line:col` for the
file at fault, no "internal error", and a CPU and memory budget.

    python tests/hostile.py            # how many cases per class
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARKET = (ROOT / "examples" / "market_day" / "game.yaml").read_text(encoding="utf-8")


@dataclass
class Case:
    name: str
    cls: int                            # the class (1-10)
    argv: list                          # "{d}" stands for the case's directory
    files: dict = field(default_factory=dict)   # relative path -> text
    exit: tuple = (1,)                  # the allowed exit codes
    at_fault: str | None = None         # a file whose file:line:col must be in the output
    whole_file: bool = False            # at_fault is wrong as a whole (too large): its name suffices
    fifo: str | None = None             # a FIFO to make at this relative path
    kind: str = "cli"                   # "cli", or "state" (saved state read through the API)


def market(old: str, new: str, count: int = 1) -> str:
    assert old in MARKET, old
    return MARKET.replace(old, new, count)


SCORE = 'coins: {expr: "player.coins"'
SETUP = "  first_player = random(player_count)\n"
HOOK = 'effect: "price[event.kind] -= 1"'


def validate(name, cls, text, exit=(1,), located=True):
    return Case(name, cls, ["validate", "{d}"], {"game.yaml": text}, exit, "game.yaml" if located else None)


def simulate(name, cls, text, located=False):
    return Case(name, cls, ["simulate", "{d}", "--players", "2", "--games", "1"], {"game.yaml": text}, (1,),
                "game.yaml" if located else None)


def overlay(name, cls, texts, exit=(1,), at_fault="v0.yaml", command="validate"):
    files = {f"v{i}.yaml": t for i, t in enumerate(texts)}
    argv = [command, "examples/market_day"] + [x for f in files for x in ("--variant", "{d}/" + f)]
    if command == "simulate":
        argv += ["--players", "2", "--games", "1"]
    return Case(name, cls, argv, files, exit, at_fault)


def replay(name, cls, text, exit=(2,), at_fault="r.json"):
    return Case(name, cls, ["replay", "examples/market_day", "--actions", "{d}/r.json", "--players", "2", "--seed", "1"],
                {"r.json": text}, exit, at_fault)


def class1():
    """A small definition that validates and then exhausts time or memory."""
    out = []
    for depth in range(14, 26):
        defs = '  "d0(x)": "x + x"\n' + "".join(f'  "d{i}(x)": "d{i - 1}(x) + d{i - 1}(x)"\n' for i in range(1, depth))
        text = MARKET.replace("defs:\n", "defs:\n" + defs).replace(SCORE, f'coins: {{expr: "player.coins + d{depth - 1}(1)"')
        out.append(validate(f"chained_defs_{depth}", 1, text))
    for k in list(range(5, 20)) + [63, 64, 100]:
        out.append(validate(f"count_1e{k}", 1, market("count: 8,", f"count: {10 ** k if k < 63 else 2 ** k},")))
    for n in (1, 2, 3, 5, 8):
        emits = "; ".join(["emit sold(player, event.kind, 1)"] * n)
        text = market('    if: "price[event.kind] > 1"\n', "").replace(HOOK, f'effect: "{emits}"')
        out.append(simulate(f"hook_reemits_{n}", 1, text, located=True))
    for n in (1, 2, 3):
        start, end = MARKET.index("\nflow:\n"), MARKET.index("\nsteps:\n")
        text = (MARKET[:start] + "\nphases:\n  again:\n    flow:\n" + "      - each_player: {step: turn}\n" * n
                + "      - call: again\nflow:\n  call: again\n" + MARKET[end:])
        out.append(Case(f"call_reenters_{n}", 1, ["simulate", "{d}", "--players", "2", "--games", "1"],
                        {"game.yaml": text}, (1,), "game.yaml"))
    for n in (9, 10 ** 6, 10 ** 9):
        out.append(validate(f"string_repeat_{n}", 1, market("hand_limit: 5", 'hand_limit: 5\n  s: "x"').replace(
            SCORE, f'coins: {{expr: "player.coins + len(s * {n})"')))
    for n in (1000, 3000, 100000):
        out.append(simulate(f"nested_generators_{n}", 8, market(SETUP, SETUP + f"  ys = list(x for x in range({n}))\n"
                                                               "  first_player = sum(sum(1 for a in ys) for b in ys) % 2\n"),
                            located=True))
    return out


def class2():
    """Input caps that must bound cost."""
    out = []
    for n in (10_001, 30_000, 100_000, 300_000):
        out.append(validate(f"flat_list_{n}", 2, market("hand_limit: 5", "hand_limit: 5\n  big: [" + ",".join(["0"] * n) + "]")))
    for n in (10_001, 30_000):
        out.append(validate(f"block_list_{n}", 2, market("hand_limit: 5", "hand_limit: 5\n  big:\n" + "    - 0\n" * n)))
    for n in (3000, 20_000, 60_000):
        out.append(validate(f"statements_{n}", 2, market(SETUP, SETUP + "  first_player = 0\n" * n)))
        out[-1].whole_file = n > 50_000
    for n in (60_000, 200_000):
        out.append(validate(f"long_expression_{n}", 2, market(SCORE, 'coins: {expr: "player.coins' + " + 1" * (n // 4) + '"')))
    out.append(validate("two_megabytes_of_comments", 2, MARKET + ("# " + "x" * 78 + "\n") * 26_000))
    out[-1].whole_file = True
    for k, width in enumerate((9, 10, 20)):
        bomb = "a0: &a0 [" + ",".join(["x"] * width) + "]\n" + "".join(
            f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * width) + "]\n" for i in range(1, 9))
        out.append(validate(f"alias_bomb_{k}", 2, MARKET.replace("tables:\n", "tables:\n" + "".join(
            "  " + line + "\n" for line in bomb.splitlines()), 1)))
    for k, width in enumerate((9, 30)):
        bomb = "[&a [" + ",".join(["1"] * width) + "], &b [" + ",".join(["*a"] * width) + "], [" + ",".join(["*b"] * width) + "]]"
        out.append(Case(f"option_alias_bomb_{k}", 2, ["simulate", "examples/market_day", "--players", "2", "--games",
                                                     "1", "--option", f"short_game={bomb}"], {}, (2,)))
    out.append(Case("option_huge", 2, ["simulate", "examples/market_day", "--players", "2", "--games", "1",
                                       "--option", "short_game=" + "x" * 100_000], {}, (2,)))
    out.append(replay("record_40mb_comments", 2, ("# " + "x" * 1000 + "\n") * 5000, at_fault=None))
    out.append(replay("record_too_many_actions", 2, "draw\n" * 100_001, at_fault=None))
    return out


ACTION_SHAPES = [{"id": 5}, {}, {"args": [1]}, {"action": 3}, {"action": "sell", "args": 3}, {"action": "sell", "args": {"k": []}},
                 {"id": None}, {"id": ["draw"]}, {"id": {"x": 1}}, {"id": "x" * 5000}, {"action": None, "args": None},
                 {"action": "sell", "args": {"1": 2}}, {"id": "draw(", "action": "draw"}, {"action": "", "args": {}},
                 {"id": True}, {"id": 1.5}, {"action": ["sell"]}, {"args": {"k": "apple"}}, {"id": ""}, {"id": "sell(k=)"}]


def class3():
    """Crashes where a rejection is due."""
    out = [overlay("first_overlay_removes_game", 3, ["overlay: {base: market_day}\nremove: [game]\n",
                                                     "overlay: {base: market_day}\nset:\n  tables.hand_limit: 4\n"]),
           overlay("overlay_add_list_index", 3, ["overlay: {base: market_day}\nadd:\n  game.players.0: 5\n"]),
           overlay("overlay_add_list_index_far", 3, ["overlay: {base: market_day}\nadd:\n  game.players.9: 5\n"]),
           overlay("overlay_set_list_index_far", 3, ["overlay: {base: market_day}\nset:\n  game.players.9: 5\n"]),
           overlay("overlay_set_section_scalar", 3, ["overlay: {base: market_day}\nset:\n  game: 5\n"]),
           overlay("overlay_remove_flow", 3, ["overlay: {base: market_day}\nremove: [flow]\n"]),
           overlay("overlay_set_flow_number", 3, ["overlay: {base: market_day}\nset:\n  flow: 3\n"]),
           overlay("overlay_set_kinds_list", 3, ["overlay: {base: market_day}\nset:\n  kinds.produce: [1, 2]\n"]),
           overlay("overlay_set_hooks_none", 3, ["overlay: {base: market_day}\nset:\n  hooks.price_drops: null\n"])]
    for i, shape in enumerate(ACTION_SHAPES):
        out.append(replay(f"action_shape_{i}", 3, json.dumps([shape]), exit=(1, 2), at_fault=None))
    for depth in (65, 1000, 100_000):
        out.append(replay(f"record_nested_{depth}", 3, "[" * depth + "]" * depth))
    for digits in (31, 5000, 100_000):
        out.append(replay(f"record_integer_{digits}", 3, "[" + "9" * digits + "]"))
    for bad in ('["draw",', "[NaN]", "[1e999]", '{"a": 1}', "[\"\\ud800\"]", "\x00\x01", "[" + '"a",' * 3 + "]"):
        out.append(replay(f"record_bad_json_{len(out)}", 3, bad, exit=(1, 2), at_fault=None))
    return out


def class4():
    """One engine error must not hide the others; deep nesting is a located limit."""
    out = []
    for n in (300, 330, 400, 1000, 3000):
        out.append(validate(f"parens_{n}", 4, market(SCORE, 'coins: {expr: "' + "(" * n + "1" + ")" * n + ' + nosuch"')))
        out.append(validate(f"sum_{n}", 4, market(SCORE, 'coins: {expr: "' + " + ".join(["1"] * n) + ' + nosuch"')))
        out.append(validate(f"nested_not_{n}", 4, market(SCORE, 'coins: {expr: "' + "not " * n + 'true"')))
        out.append(validate(f"nested_lists_{n}", 4, market(SCORE, 'coins: {expr: "size(' + "[" * n + "]" * n + ')"')))
    for n in (13, 20, 25, 40):
        body = "".join("  " + "    " * i + f"for i{i} in range(2):\n" for i in range(n)) + "  " + "    " * n + "pass\n"
        out.append(validate(f"nested_for_{n}", 4, market(SETUP, SETUP + body)))
        body = "".join("  " + "    " * i + "if true:\n" for i in range(n)) + "  " + "    " * n + "pass\n"
        out.append(validate(f"nested_if_{n}", 4, market(SETUP, SETUP + body)))
    for i, table in enumerate(["{by_players: {x: 1}}", "{by_players: [1, 2]}", "{by_players: {2: 1}}", "{value: }",
                               "{by_players: {2: [1], 3: {a: 1}, 4: 1}}", "{by_players: null}", "[[[[1]]]]",
                               "{by_players: {2: 3, 3: 2, 4: two}}", "{value: {by_players: {2: x}}}", "{1: 2, a: b}"]):
        out.append(validate(f"malformed_table_{i}", 4, market("start_coins: {by_players: {2: 3, 3: 2, 4: 2}}",
                                                             f"start_coins: {table}")))
    return out


def class5():
    """Traps that would validate and then fail in every game."""
    out = []
    for v in ("no", "yes", "off", "on", "1", "0", '"false"', "maybe", "[]", "{}"):
        out.append(validate(f"option_default_{v}", 5, market("default: false", f"default: {v}")))
    for v in ("'five'", "true", "-1", "[5]", "{a: 1}", "price", "start_price", "option.short_game", "'x' * 3", "none"):
        out.append(validate(f"capacity_{v}", 5, market("capacity: hand_limit", f"capacity: {v}")))
    for e in ("random('a')", "random(true)", "random(6) + true", "random(deck)", "random([1])", "random(price)",
              "random(first_player == 0)", "true * 3", "'a' + 1", "price + 1", "-true", "3 // false"):
        out.append(validate(f"expr_{e}", 5, market(SETUP, f"  first_player = {e}\n")))
    for e in ("event.kind == 3", "event.kind == true", "event.cards == 'apple'", "3 == true", "event.kind > 1",
              "event.kind in [1, 2]"):
        out.append(validate(f"compare_{e}", 5, market('"price[event.kind] > 1"', f'"{e}"')))
    for v in ("four", "true", "[4]", "{a: 1}", "null", "'4'", "4.5"):
        out.append(overlay(f"overlay_table_{v}", 5, [f"overlay: {{base: market_day}}\nset:\n  tables.start_coins.by_players.4: {v}\n"]))
        out.append(overlay(f"overlay_hand_limit_{v}", 5, [f"overlay: {{base: market_day}}\nset:\n  tables.hand_limit: {v}\n"]))
    out.append(overlay("overlay_removes_players", 5, ["overlay: {base: market_day}\nremove: [game.players]\n"]))
    out.append(overlay("overlay_players_empty", 5, ["overlay: {base: market_day}\nset:\n  game.players: []\n"]))
    out.append(overlay("overlay_default_no", 5, ["overlay: {base: market_day}\nset:\n  options.short_game.default: no\n"]))
    for v in ("3", "'x'", "none + 1", "price"):
        text = market("    first_player: {type: player}\n", "    first_player: {type: player}\n    flag: {type: bool}\n")
        out.append(validate(f"bool_var_{v}", 5, text.replace(SETUP, SETUP + f"  flag = {v}\n")))
    return out


def class7():
    """Overlay paths, empty variants, seats."""
    out = []
    for entry in ("/etc/passwd", "../outside", "/dev/stdin", "fifo", "/dev/zero", "../../../../etc", "v0.yaml/x", "nosuch"):
        c = overlay(f"scenario_path_{entry}", 7, [f"overlay:\n  base: market_day\n  scenarios: ['{entry}']\n"
                                                  "set:\n  tables.hand_limit: 4\n"], command="verify")
        c.argv += ["--games", "0"]
        c.fifo = "fifo" if entry == "fifo" else None
        out.append(c)
    for text in ("", "# nothing\n", "null\n", "[]\n", "overlay: {}\n", "set: {}\n"):
        out.append(overlay(f"empty_variant_{len(out)}", 7, [text], exit=(1, 2)))
    for seat in ("0=human", "9=human", "-1=human", "x=human", "1=robot", "²=human", "1", "99999999999999999999=human"):
        out.append(Case(f"seat_{seat}", 7, ["play", "examples/market_day", "--players", "2", "--seat", seat], {}, (2,)))
    out.append(Case("variant_fifo", 7, ["validate", "examples/market_day", "--variant", "{d}/fifo"], {}, (2,),
                    fifo="fifo"))
    out.append(Case("variant_dev_stdin", 7, ["validate", "examples/market_day", "--variant", "/dev/stdin"], {}, (2,)))
    out.append(Case("record_fifo", 7, ["replay", "examples/market_day", "--actions", "{d}/fifo", "--players", "2"], {}, (2,),
                    fifo="fifo"))
    out.append(Case("record_directory", 7, ["replay", "examples/market_day", "--actions", "{d}", "--players", "2"], {},
                    (2,)))
    return out


def class8():
    """A mistake in a def that nothing calls."""
    out = []
    for body in ("nosuch.coins", "nosuch(p)", "p.coins +", "size(deck.hnd)", "1 + 'a'", "random('x')"):
        out.append(validate(f"unused_def_{body}", 8, market('  "held(p, k)"', f'  "unused(p)": "{body}"\n  "held(p, k)"')))
    return out


def class9():
    """Scenario expectations that cannot fail must be refused by `verify`."""
    out = []
    scen = {
        "misspelt_illegal_value": "  s:\n    players: 2\n    then:\n      - illegal: sell(k=appel)\n",
        "misspelt_not_legal_value": "  s:\n    players: 2\n    then:\n      - not_legal: sell(k=appel)\n",
        "unknown_action_illegal": "  s:\n    players: 2\n    then:\n      - illegal: sel(k=apple)\n",
        "no_checks": "  s:\n    players: 2\n    then: []\n",
        "no_when_no_then": "  s:\n    players: 2\n",
        "wrong_param": "  s:\n    players: 2\n    then:\n      - illegal: sell(x=apple)\n",
    }
    for name, body in scen.items():
        files = {"game.yaml": MARKET, "scenarios/s.yaml": "scenarios:\n" + body}
        out.append(Case(f"scenario_{name}", 9, ["verify", "{d}", "--games", "0"], files, (1,), "scenarios/s.yaml"))
    return out


def class10():
    """Locations: a one-file game that fails to load, runtime failures."""
    out = []
    for i, text in enumerate(["flow: [\n", "game: {id: x, players: [2]}\nflow: [\n", "\tgame: 1\n", "game:\n  - a\n -b\n",
                              "a: b: c\n", "game: {id: x, players: [2]}\nflow: {step: s}\nsteps: {s: {actions: {a: {effect: 'x ='}}}}\n"]):
        out.append(validate(f"broken_file_{i}", 10, text))
    for e in ("price[event.kind] -= price[event.kind] * 9000000000000000", "price[event.kind] = price[event.kind] // 0", "move(player.hand, deck)"):
        out.append(simulate(f"runtime_{e}", 10, market(HOOK, f'effect: "{e}"'), located=True))
    return out


STATE_MUTATIONS = [
    ("rng", 2 ** 64), ("rng", -1), ("rng", "1"), ("players", 5), ("players", 0), ("decisions", -3), ("options", {"x": 1}),
    ("options", {"short_game": 1}), ("ends", ["nosuch"]), ("flow", [[999, 0, None, 0, None, 0, 0]]), ("flow", [[0]]),
    ("flow", "x"), ("vars", {}), ("player_vars", []), ("zones", {}), ("pieces", {"types": [], "fields": {}}),
]


def class6():
    """Saved states whose shape is right and meaning wrong (read through the API, from a file)."""
    out = []
    for i, (key, value) in enumerate(STATE_MUTATIONS):
        out.append(Case(f"state_{key}_{i}", 6, [key, value], {}, (2,), kind="state"))
    paths = [["vars", "first_player"], ["vars", "price", "apple"], ["player_vars", 0, "coins"], ["player_vars", 1, "sales"],
             ["pieces", "fields", "uses", 0], ["flow", 0, 3], ["flow", -1, 1], ["zones", "deck"]]
    for i, path in enumerate(paths):
        for value in ((-1,) if i in (0, 5, 6) else ()) + ("x", 2 ** 60, [1]):  # -1 only where it is out of range
            out.append(Case(f"state_at_{i}_{json.dumps(value)}", 6, ["@", path, value], {}, (2,), kind="state"))
    for i, text in enumerate(["[" * 100_000, "{" + '"a":' * 50_000, "1" * 10_000, "", "[]", "null"]):
        out.append(Case(f"state_file_{i}", 6, ["raw"], {"state.json": text}, (2,), kind="state"))
    return out


BROKEN_EXPRESSIONS = ["player.coins +", "(player.coins", "player.coins)", "player..coins", "player.coins ==",
                      "1 +* 2", "[1, 2", "sum(x for x in)", "count(x for in p.hand)", "if x", "player.coins if",
                      "'unterminated", "player.coins ; 1", "@", "1 2", "not", "player.", "a[", "f(,)", "x = 1",
                      "lambda: 1", "__import__('os')", "player.__class__", "().__class__", "open('x')"]
RECORD_LINES = ["sell(k=", "draw()", "))((", "sell(k=apple", "x" * 3000, "sell(k=apple,k=pear)", "draw draw",
                "\u0000", "buy_cart(t=99999999999999999999)", "sell(k=apple)" * 200, "²", "pass(", "rest(x=1)",
                "sell(k=apple)(k=pear)", "sell(k=[apple])", "sell(k={apple: 1})", "buy_cart(t=-1)", "draw;rest",
                "sell(k=apple", "\ufeffdraw", "ＤＲＡＷ"]


def class_extra():
    """More of each class: syntax errors at known places, strange record lines, extra state mutations."""
    out = []
    for i, e in enumerate(BROKEN_EXPRESSIONS):
        out.append(validate(f"broken_expression_{i}", 10, market(SCORE, f'coins: {{expr: {json.dumps(e)}')))
        out.append(validate(f"broken_statement_{i}", 10, market(SETUP, SETUP + f"  first_player = {e}\n")))
    for i, line in enumerate(RECORD_LINES):
        out.append(replay(f"record_line_{i}", 3, "draw\n" + line + "\n", exit=(1,), at_fault=None))
    for i, shape in enumerate(ACTION_SHAPES):
        out.append(replay(f"action_shape_after_draw_{i}", 3, json.dumps(["draw", shape]), exit=(1, 2), at_fault=None))
    for e in ("random('a')", "random(6) + true", "true * 3", "'a' + 1", "price + 1", "-true"):
        out.append(validate(f"condition_{e}", 5, market('"size(deck) > 0 and free(player.hand) > 0"', f'"{e} > 0"')))
        out.append(validate(f"label_{e}", 5, market("{en: draw a card, zh: 抽一张牌}", f'{{en: "draw {{{e}}}", zh: x}}')))
    for body in ("nosuch + p", "held(p)", "held(p, k, 1)", "count(x for x in nosuch)", "price[k][1]", "p + 'a'"):
        out.append(validate(f"unused_def_more_{body}", 8, market('  "held(p, k)"', f'  "unused2(p, k)": "{body}"\n  "held(p, k)"')))
    return out


def corpus() -> list[Case]:
    cases = (class1() + class2() + class3() + class4() + class5() + class6() + class7() + class8() + class9()
             + class10() + class_extra())
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    return cases


if __name__ == "__main__":
    from collections import Counter
    cs = corpus()
    print(len(cs), "cases;", dict(sorted(Counter(c.cls for c in cs).items())))
