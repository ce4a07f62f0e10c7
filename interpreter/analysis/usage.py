"""What a game used: how often each action, component, hook, phase, modifier and ability fired, and how
often the rules read the values a read meter counts, per seat.

    meter = UsageMeter(game, players)
    meter.before(); state = game.new_game(players, seed); meter.after_apart("setup")
    meter.before(); state = game.apply(state, action); meter.after(seat, game.current_player(state))
    meter.before(); game.outcome(state); meter.after_apart("end")
    meter.counts()               # {"component:harbor": [0, 1, 0, 0], "modifier:harbor/ship_bonus": [...], ...}
    meter.apart_counts("setup")  # {"read:table/start_coins": 3}

The engine keeps running counters of what fired (for rule coverage: `game.fired`, the modifiers and
abilities of `game.world`) and, in a game compiled with a read meter (`Game.metered`), of the reads it
counts (`world.meter.counts`); the meter reads what one decision added to them and books it to the seat
that decided (a hook that an action sets off counts for the seat whose action it was), except that a read
made while the next menu was computed is booked to the seat that menu is for. What the setup and the
final scoring added is kept apart, not by seat. Keys are plain strings, so a game's usage travels in its small record
(`parallel.game_record`) and merges by addition.

Key kinds: `action:STEP/ACTION` (an action taken), `component:TYPE` (a piece of that type chosen in an
action, e.g. a building bought), `hook:ID`, `phase:ID`, `modifier:TYPE/PARAMETER` (a modifier of a piece
of that type applied to a rule parameter), `ability:TYPE` (a rule asked whether a player has an active
piece of that type, and it had), `read:KIND/NAME` and `read:KIND/NAME[ENTRY]` (a rule that ran read the
value, or one entry of it: a table's key, the piece type whose property it read; KIND one of table,
parameter, var, property), `menu:KIND/NAME...` (a menu asked it: once per menu).
"""
from __future__ import annotations

# The words of usage keys for the kinds a read meter counts (language.meters.KINDS).
READ_WORDS = {"table": "table", "param": "parameter", "var": "var", "prop": "property"}


def read_key(kind: str, name: str, entry, in_menu: bool) -> str:
    """The usage key of a read a meter counted (see the module doc)."""
    return (("menu:" if in_menu else "read:") + f"{READ_WORDS.get(kind, kind)}/{name}"
            + (f"[{entry}]" if entry is not None else ""))


def _key(kind: str, key) -> str | None:
    if kind == "fired":
        if key[0] == "action":
            return f"action:{key[1]}/{key[2]}"
        if key[0] in ("component", "hook", "phase"):
            return f"{key[0]}:{key[1]}"
        return None
    if kind == "mod":
        return f"modifier:{key[0]}/{key[1]}"
    if kind == "read":
        return read_key(*key)
    return f"ability:{key}"


class UsageMeter:
    """Books what each decision made fire to the deciding seat (see the module doc)."""

    def __init__(self, game, players: int):
        world = getattr(game, "world", None)
        meter = getattr(world, "meter", None)
        self.sources = [(kind, c) for kind, c in (("fired", getattr(game, "fired", None)),
                                                  ("mod", getattr(world, "mod_fired", None)),
                                                  ("active", getattr(world, "active_fired", None)),
                                                  ("read", getattr(meter, "counts", None)))
                        if isinstance(c, dict)]
        self.players = players
        self.usage: dict[str, list[int]] = {}
        self.apart: dict[str, dict[str, int]] = {}  # what happened outside the decisions, by when
        self._before: list[dict] = []

    def before(self) -> None:
        self._before = [dict(c) for _, c in self.sources]

    def _added(self):
        """(kind, counter key, how many) of what the counters gained since `before`."""
        for (kind, c), old in zip(self.sources, self._before):
            if len(c) == len(old) and c == old:
                continue
            for key, n in c.items():
                added = n - old.get(key, 0)
                if added:
                    yield kind, key, added

    def after_apart(self, when: str) -> None:
        """Keep what was added since `before` apart from the seats' uses, under `when` (the setup, the
        end)."""
        counts = self.apart.setdefault(when, {})
        for kind, key, added in self._added():
            name = _key(kind, key)
            if name is not None:
                counts[name] = counts.get(name, 0) + added

    def apart_counts(self, when: str) -> dict[str, int]:
        return dict(sorted(self.apart.get(when, {}).items()))

    def after(self, seat: int | None, menu_seat: int | None = None) -> None:
        """Book what the decision added (since `before`) to `seat`; the menus' reads to `menu_seat` (the
        seat whose menu was computed: the next to decide) when given."""
        for kind, key, added in self._added():
            name = _key(kind, key)
            if name is None:
                continue
            row = self.usage.get(name)
            if row is None:
                row = self.usage[name] = [0] * self.players
            who = menu_seat if kind == "read" and key[-1] and menu_seat is not None else seat
            row[who if who is not None and 0 <= who < self.players else 0] += added

    def counts(self) -> dict[str, list[int]]:
        return dict(sorted(self.usage.items()))


# ------------------------------------------------------------------------- what a variant changed, in play

def summarize_usage(records: list[dict], players: int, keys) -> dict:
    """For each usage key: the games it fired in (in play, at the setup or at the end), its uses per game
    (all of them) and those at the setup and at the end, its uses by seat, and the outcome of the seats
    that used it: {key: {"games", "of", "per_game", "setup_per_game", "end_per_game", "by_seat", "users",
    "user_wins", "user_win_rate", "user_score", "others_score"}} (a shared win split)."""
    done = [r for r in records if "error" not in r and "usage" in r]
    out = {}
    for key in keys:
        by_seat = [0] * players
        games = users = setup = end = 0
        wins = 0.0
        user_scores, other_scores = [], []
        for r in done:
            row = r["usage"].get(key)
            at_setup = (r.get("usage_setup") or {}).get(key, 0)
            at_end = (r.get("usage_end") or {}).get(key, 0)
            setup += at_setup
            end += at_end
            if not row or not any(row):
                other_scores.extend(r["scores"])
                games += 1 if at_setup or at_end else 0
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
        out[key] = {"games": games, "of": len(done),
                    "per_game": (sum(by_seat) + setup + end) / len(done) if done else 0.0,
                    "setup_per_game": setup / len(done) if done else 0.0,
                    "end_per_game": end / len(done) if done else 0.0,
                    "by_seat": by_seat, "users": users, "user_wins": wins,
                    "user_win_rate": wins / users if users else None,
                    "user_score": sum(user_scores) / len(user_scores) if user_scores else None,
                    "others_score": sum(other_scores) / len(other_scores) if other_scores else None}
    return out


def item_points(records: list[dict], players: int, item: str) -> dict:
    """The points scoring item `item` gave in each game (a record's "points"): {"per_seat": every seat's
    points of every game, "by_seat": [mean points of each seat], "games": games that have the item}."""
    done = [r for r in records if "error" not in r and item in (r.get("points") or {})]
    rows = [r["points"][item] for r in done]
    by_seat = [sum(float(row[seat]) for row in rows) / len(rows) if rows else None for seat in range(players)]
    return {"per_seat": [float(v) for row in rows for v in row], "by_seat": by_seat, "games": len(rows),
            "of": len([r for r in records if "error" not in r])}
