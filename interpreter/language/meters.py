"""Read meters: how often the compiled rules read the named values a caller asked about (a table or one of
its entries, a rule parameter, a var, a property of a piece type), counted while the game is played.

    game = Game(definition, meter={("table", "watchtower_vp"), ("param", "ship_bonus")})
    game.world.meter.counts      # {("table", "watchtower_vp", None, False): 3, ...}

A meter is chosen when a game is compiled, never afterwards: only the reads of the names it lists are
compiled as a call of `ReadMeter.value` or `ReadMeter.entry` (the names they count given as constants of the
pool, never as text), and a game compiled without one runs the very code it ran before meters existed (no
flag is tested while playing). So what a meter costs is paid by the
metered game alone (`compare` plays one), on the reads it counts.

A count's key is (kind, name, key, in_menu): kind one of KINDS; key the entry read (a table's key, the
piece type whose property was read) or None for the whole value; in_menu is True for a read made while a
menu was computed (the state cannot change then: `s.pcache` is the menu's memo), counted once per menu,
and False for a read by a rule that ran (an effect, a hook, a flow condition, the setup, scoring). Reads
made through a function that takes a property's name (`region(x, 'color')`) are not counted.
"""
from __future__ import annotations

KINDS = ("table", "param", "var", "prop")
_MENU = object()  # the first part of the keys this module keeps in a menu's memo: no game name collides with it


class ReadMeter:
    """The counts of reads of the `names` ((kind, name) pairs) of one compiled game."""

    def __init__(self, names):
        self.names = frozenset((str(kind), str(name)) for kind, name in names)
        unknown = sorted({kind for kind, _ in self.names} - set(KINDS))
        if unknown:
            raise ValueError(f"a read meter counts {', '.join(KINDS)}, not {', '.join(unknown)}")
        self.counts: dict = {}

    def metered(self, kind: str, name: str) -> bool:
        return (kind, name) in self.names

    def _count(self, s, key: tuple) -> None:
        memo = s.pcache
        counts = self.counts
        if memo is None:
            key = key + (False,)
            counts[key] = counts.get(key, 0) + 1
            return
        seen = (_MENU, key)
        if seen not in memo:
            memo[seen] = True
            key = key + (True,)
            counts[key] = counts.get(key, 0) + 1

    def value(self, s, key: tuple, v):
        """v, after counting a read of the whole value `key` ((kind, name, None))."""
        self._count(s, key)
        return v

    def entry(self, s, what: tuple, container, k):
        """container[k], after counting a read of entry k of `what` ((kind, name))."""
        v = container[k]
        try:
            self._count(s, what + (k,))
        except TypeError:  # a key that is not hashable names no entry: the whole value was read
            self._count(s, what + (None,))
        return v
