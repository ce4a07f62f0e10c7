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


# ------------------------------------------------------------------------- what a variant changed, in play

def changed_things(changes: list[dict], types) -> list[dict]:
    """For each change of `diff.rules_diff` (its `path`), what usage keys can tell whether it mattered:
    [{"text", "path", "match": [(kind prefix, name or None)]}]. A component type matches its uses as a
    chosen piece, its modifiers and its abilities; an action, hook or phase matches itself; a table
    matches the component types named in the table's name (`trading_house_size`: the type
    `trading_house`), the only link between a value and the things it governs that a name gives."""
    out = []
    type_names = sorted(types, key=len, reverse=True)
    for c in changes:
        path = c["path"].split(".")
        match: list[tuple[str, str]] = []
        if path[0] == "components" and len(path) >= 4 and path[2] == "types":
            match = _type_match(path[3])
        elif path[0] == "components" and len(path) >= 2:
            match = [m for t, cls in types.items() if cls == path[1] for m in _type_match(t)]
        elif path[0] == "steps" and len(path) >= 4 and path[2] == "actions":
            match = [("action", f"{path[1]}/{path[3]}")]
        elif path[0] == "steps" and len(path) >= 2:
            match = [("action", f"{path[1]}/")]
        elif path[0] in ("hooks", "phases") and len(path) >= 2:
            match = [(path[0][:-1], path[1])]
        elif path[0] == "tables" and len(path) >= 2:
            named = [t for t in type_names if t in path[1]]
            match = [m for t in named[:1] for m in _type_match(t)]
        elif path[0] == "parameters" and len(path) >= 2:
            match = [("modifier", f"/{path[1]}")]
        out.append({"text": c.get("text") or c["path"], "path": c["path"], "match": match})
    return out


def _type_match(t: str) -> list[tuple[str, str]]:
    return [("component", t), ("modifier", f"{t}/"), ("ability", t)]


def matching_keys(match: list[tuple[str, str]], keys) -> list[str]:
    """The usage keys (`kind:name`) that a `changed_things` match selects."""
    out = []
    for key in keys:
        kind, _, name = key.partition(":")
        for mkind, mname in match:
            if kind != mkind:
                continue
            if (name == mname or (mname.endswith("/") and name.startswith(mname))
                    or (mname.startswith("/") and name.endswith(mname))):
                out.append(key)
                break
    return sorted(out)


def summarize_usage(records: list[dict], players: int, keys) -> dict:
    """For each usage key: the games it fired in, its uses per game, its uses by seat, and the outcome
    of the seats that used it: {key: {"games", "per_game", "by_seat", "users", "user_wins",
    "user_win_rate", "user_score", "others_score"}} (a shared win split)."""
    done = [r for r in records if "error" not in r and "usage" in r]
    out = {}
    for key in keys:
        by_seat = [0] * players
        games = users = 0
        wins = 0.0
        user_scores, other_scores = [], []
        for r in done:
            row = r["usage"].get(key)
            if not row or not any(row):
                other_scores.extend(r["scores"])
                continue
            games += 1
            for seat, n in enumerate(row):
                by_seat[seat] += n
                if n:
                    users += 1
                    user_scores.append(r["scores"][seat])
                    if seat in r["winners"]:
                        wins += 1.0 / len(r["winners"])
                else:
                    other_scores.append(r["scores"][seat])
        out[key] = {"games": games, "of": len(done), "per_game": sum(by_seat) / len(done) if done else 0.0,
                    "by_seat": by_seat, "users": users, "user_wins": wins,
                    "user_win_rate": wins / users if users else None,
                    "user_score": sum(user_scores) / len(user_scores) if user_scores else None,
                    "others_score": sum(other_scores) / len(other_scores) if other_scores else None}
    return out
