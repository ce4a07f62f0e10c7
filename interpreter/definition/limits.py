"""The budgets that bound what a definition, a record or a saved state may cost.

Each limit is far above what any shipped game needs (the figures in the comments) and far below what
would exhaust a machine. Exceeding one is an ordinary located problem (`DefinitionError`) at load, or a
`RuleError` naming the limit while playing; never a hang or a crash. The README lists them.

Load time (per definition):
- `MAX_EXPR_DEPTH`     nesting of one expression, defs expanded (shipped: < 30)
- `MAX_COMPILE_WORK`   expression nodes compiled for one expression, defs expanded (shipped: < 300);
                       stops chains of defs that double at every link
- `MAX_GAME_WORK`      the same for the whole game (shipped: < 2,500; ~15 µs a node)
- `MAX_STATEMENTS`     statements (and lines) in one effect body (shipped: < 60)
- `MAX_DSL_CHARS`      characters of one expression or effect body (shipped: < 1,500)
- `MAX_BLOCK_DEPTH`    `if`/`for` blocks nested in one effect (shipped: < 5; CPython allows 20)
- `MAX_PLAYERS`        a supported player count (`game.players`; shipped: < 6): checked before any
                       table, piece or seat is made for it
- `MAX_BOARD_SPACES`   spaces of one generated board (`board: {layout, size}`; shipped: none): counted
                       from the size before any space is made
- `MAX_PIECES`         pieces of all component types together, at the largest player count (shipped: < 300)
- tables and every other YAML value: the loader's caps (values per file, aliases, depth)
Run time (per decision):
- `MAX_FLOW_DEPTH`     frames on the flow stack, checked where a call or a hook pushes its flow: the only
                       pushes the flow can repeat without bound (shipped: < 15)
- `MAX_EVENTS`         events emitted while taking one decision (shipped: < 20)
- lists a rule builds grow only by loop steps (`range`, generators), so LOOP_BUDGET bounds them; no
  operator makes a string longer (arithmetic takes numbers only, checked at load, or at run time for a
  value of unknown type)
- `MAX_LIST`           items of one list var (`append` beyond it is a rule error; shipped: none)
- `MAX_PURE_MEMO`      argument lists a pure def's memo keeps (see `language.puredefs`; shipped: < 500)
- `LOOP_BUDGET`        loop steps of one effect, condition or menu: `for` bodies, numbers of a `range`,
                       and the items every generator expression walks (shipped: < 5,000)
Records and saved states: see `untrusted` (file size, JSON depth, integer digits).
"""

from __future__ import annotations

LOOP_BUDGET = 100_000
MAX_PURE_MEMO = 65_536
MAX_EXPR_DEPTH = 250
MAX_COMPILE_WORK = 10_000
MAX_GAME_WORK = 60_000
MAX_STATEMENTS = 2_000
MAX_DSL_CHARS = 50_000
MAX_BLOCK_DEPTH = 12
MAX_PIECES = 10_000
MAX_FLOW_DEPTH = 200
MAX_EVENTS = 10_000
MAX_BOARD_SPACES = 1_000
MAX_PLAYERS = 100
MAX_LIST = 1_000


class LimitExceeded(Exception):
    """A budget was exceeded; `message` names the limit."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def piece_count_problems(plan, player_counts) -> list[tuple[str, str]]:
    """(message, type) for counts that are not whole numbers >= 0, and for the largest type when all pieces
    together exceed MAX_PIECES at some player count. `plan` holds (type, count of n, zone, per player)."""
    out, bad = [], set()
    for n in player_counts or []:
        total, largest = 0, None
        for tname, count, _, per_player in plan:
            c = count(n)
            if type(c) is not int or c < 0:
                if tname not in bad:
                    bad.add(tname)
                    out.append((f"a count is a whole number, at least 0, not {c!r}", tname))
                continue
            c *= n if per_player else 1
            total += c
            if largest is None or c > largest[0]:
                largest = (c, tname)
        if total > MAX_PIECES and largest is not None:
            out.append((f"{total} pieces with {n} players: more than {MAX_PIECES}, the piece limit", largest[1]))
            break
    return out


def text_over_limit(text: str) -> str | None:
    """Why a DSL text is too large to parse (None when it is not): checked before any parsing."""
    if len(text) > MAX_DSL_CHARS:
        return f"this text is longer than {MAX_DSL_CHARS} characters: the text limit"
    if text.count("\n") > MAX_STATEMENTS:
        return f"this text has more than {MAX_STATEMENTS} lines: the statement limit"
    return None


class recursion_room:
    """Within `with recursion_room():` Python may recurse deep enough for MAX_EXPR_DEPTH (about six frames
    a level when compiling); the previous limit is restored after."""

    def __enter__(self):
        import sys
        self.before = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self.before, 8 * MAX_EXPR_DEPTH + 1000))

    def __exit__(self, *exc):
        import sys
        sys.setrecursionlimit(self.before)
