"""What a game used: how often each action, component, hook, phase, modifier and ability fired, per seat.

    meter = UsageMeter(game, players)
    meter.before(); state = game.apply(state, action); meter.after(seat)
    meter.counts()     # {"component:harbor": [0, 1, 0, 0], "modifier:harbor/ship_bonus": [...], ...}

The engine keeps running counters of what fired (for rule coverage: `game.fired`, the modifiers and
abilities of `game.world`); the meter reads what one decision added to them and books it to the seat that
decided (a hook that an action sets off counts for the seat whose action it was). Keys are plain
strings, so a game's usage travels in its small record (`parallel.game_record`) and merges by addition.

Key kinds: `action:STEP/ACTION` (an action taken), `component:TYPE` (a piece of that type chosen in an
action, e.g. a building bought), `hook:ID`, `phase:ID`, `modifier:TYPE/PARAMETER` (a modifier of a piece
of that type applied to a rule parameter), `ability:TYPE` (a rule asked whether a player has an active
piece of that type, and it had).
"""
from __future__ import annotations


def _key(kind: str, key) -> str | None:
    if kind == "fired":
        if key[0] == "action":
            return f"action:{key[1]}/{key[2]}"
        if key[0] in ("component", "hook", "phase"):
            return f"{key[0]}:{key[1]}"
        return None
    if kind == "mod":
        return f"modifier:{key[0]}/{key[1]}"
    return f"ability:{key}"


class UsageMeter:
    """Books what each decision made fire to the deciding seat (see the module doc)."""

    def __init__(self, game, players: int):
        world = getattr(game, "world", None)
        self.sources = [(kind, c) for kind, c in (("fired", getattr(game, "fired", None)),
                                                  ("mod", getattr(world, "mod_fired", None)),
                                                  ("active", getattr(world, "active_fired", None)))
                        if isinstance(c, dict)]
        self.players = players
        self.usage: dict[str, list[int]] = {}
        self._before: list[dict] = []

    def before(self) -> None:
        self._before = [dict(c) for _, c in self.sources]

    def after(self, seat: int | None) -> None:
        for (kind, c), old in zip(self.sources, self._before):
            if len(c) == len(old) and c == old:
                continue
            for key, n in c.items():
                added = n - old.get(key, 0)
                if added:
                    name = _key(kind, key)
                    if name is None:
                        continue
                    row = self.usage.get(name)
                    if row is None:
                        row = self.usage[name] = [0] * self.players
                    row[seat if seat is not None and 0 <= seat < self.players else 0] += added

    def counts(self) -> dict[str, list[int]]:
        return dict(sorted(self.usage.items()))
