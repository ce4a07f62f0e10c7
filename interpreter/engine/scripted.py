"""Scripted seats: seats at the table that make no decisions (a neutral player, an automa, a dummy).

    scripted_seats:
      neutral:
        if: "player_count == 1"          # optional: the seat is at the table when this holds
        label: {en: Neutral player, zh: 中立玩家}

A scripted seat has every player var and player zone a player has (and the pieces a player zone gives each
player), so the rules write `neutral.pos += 1` or `move(d, neutral.hand)` as they would for a player. Its
name is a DSL value of type player: the seat, or `none` when it is not at the table. It is never asked for a
decision: the definition scripts its moves as effects (in the flow, in hooks whose `player:` names it), and a
step that would make it decide is a rule error. It is not one of `players` nor counted in `player_count`;
`each_player`, turn order and start players go round the players only; it takes no part in the scoring,
the winners and the ratings (an end trigger's `winners:` may name it: then no player wins).

Seats are numbered: the players 0..N-1, then the scripted seats present, in the order declared. A state's
per-seat rows (`State.p`, the player zones) hold the players' rows, then theirs. Which seats are present
depends on the player count and the options only (its `if` may read nothing else), so it is worked out from
them and never stored.
"""
from __future__ import annotations

from ..language.compiler import RuleError, Unit
from ..language.entries import label_of

# what a presence condition may read: what is fixed when the game is set up
_FIXED = ("option", "table", "kind", "name")


class _Fixed:
    """The part of a state a presence condition may read (the player count and the options)."""
    __slots__ = ("n", "opts", "budget")

    def __init__(self, n, opts):
        self.n, self.opts, self.budget = n, opts, 0


class ScriptedSeats:
    """The `scripted_seats` section of a definition: names, labels, presence."""

    def __init__(self, w):
        section = w.d.sections.get("scripted_seats") or {}
        self.entries = {k: (v if isinstance(v, dict) else {}) for k, v in section.items()}
        self.names = list(self.entries)
        self.labels = {k: label_of(v, k) for k, v in self.entries.items()}
        self.conds: dict = {}
        self._present: dict = {}
        self.seat_fns = {name: self._seat_fn(name) for name in self.names}
        taken = w.reserved_names | set(w.BUILTIN_NAMES) | set(w.pvars) | set(w.pzones)
        for name in self.names:
            if name in taken:
                w.error(f"scripted seat '{name}' has the name of another thing of the game: choose another",
                        ("scripted_seats", name))

    def compile(self, w):
        """Compile the presence conditions (after the World's compiler exists)."""
        for name, v in self.entries.items():
            if v.get("if") is None:
                continue
            before = set(w.reads)
            x = w.compile_expr(v["if"], ("scripted_seats", name, "if"), Unit(player=False), want="bool")
            late = sorted(f"{what} {n}" for what, n in set(w.reads) - before if what not in _FIXED)
            if late:
                w.error(f"scripted seat '{name}': its `if` may read only player_count, options and tables "
                        f"(it reads {', '.join(late)})", ("scripted_seats", name, "if"))
            elif x is not None:
                self.conds[name] = x.f

    def present(self, n: int, opts: dict) -> tuple:
        """The names of the scripted seats at a table of `n` players with options `opts`, in seat order."""
        try:
            key = (n, tuple(sorted(opts.items())))
            hash(key)
        except TypeError:  # an option whose value is a list or a map
            key = (n, repr(sorted(opts.items())))
        hit = self._present.get(key)
        if hit is None:
            fixed = _Fixed(n, opts)
            here = []
            for name in self.names:
                try:
                    if name not in self.conds or self.conds[name](fixed, [None, None]):
                        here.append(name)
                except (TypeError, KeyError, IndexError, AttributeError, ValueError) as ex:
                    raise RuleError(f"{type(ex).__name__}: {ex} (it may read only player_count, options and "
                                    "tables)", f"scripted seat {name}, its `if`") from None
            hit = self._present[key] = tuple(here)
        return hit

    def count(self, n: int, opts: dict) -> int:
        return len(self.present(n, opts)) if self.names else 0

    def seats(self, n: int, opts: dict) -> list[tuple[int, str]]:
        """(seat, name) of each scripted seat present."""
        return [(n + i, name) for i, name in enumerate(self.present(n, opts))] if self.names else []

    def name_of(self, n: int, opts: dict, seat: int) -> str | None:
        """The name of scripted seat `seat`, or None when it is a player's seat (or no seat)."""
        if not self.names or seat < n:
            return None
        here = self.present(n, opts)
        return here[seat - n] if seat - n < len(here) else None

    def _seat_fn(self, name):
        def seat(s):
            here = self.present(s.n, s.opts)
            return s.n + here.index(name) if name in here else None
        return seat


def seat_label(game, n: int, opts: dict, seat: int, lang: str) -> str | None:
    """A scripted seat's label in `lang`, or None for a player's seat."""
    name = game.world.scripted.name_of(n, opts, seat)
    if name is None:
        return None
    lab = game.world.scripted.labels[name]
    return lab.get(lang) or lab.get("en") or name
