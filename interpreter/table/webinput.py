"""Every value a request brings, read with the same hardened readers and limits as the command line.

    seed = read_seed(form.get("seed"))            # BadValue("the seed is a whole number ...") otherwise
    spec = read_bot(form.get("seat2"), config)    # a bot spec within the server's budget caps
    options = read_options(game, {"short_game": "true"})

A reader returns a plain value or raises `BadValue`, whose message is for the person at the browser (the
server answers 400 with it). A message never repeats more than a short, shown form of what was sent, and
never anything read from a file.
"""
from __future__ import annotations

import math
import secrets

MAX_NUMBER_DIGITS = 9      # a menu number, a version, a step of a replay
MAX_SEED_DIGITS = 18
RANDOM_SEEDS = 1_000_000   # a random seed is drawn below this (short enough to write down)


class BadValue(ValueError):
    """A request value that cannot be used; the message says what was expected."""


def shown(raw, n: int = 24) -> str:
    """A short form of a request value for a message (its escaping is the page's)."""
    text = str(raw)
    return repr(text if len(text) <= n else text[:n] + "…")


def read_int(raw, what: str, low: int | None = None, high: int | None = None,
             digits: int = MAX_NUMBER_DIGITS) -> int:
    text = (raw or "").strip() if isinstance(raw, str) else ""
    sign = text[:1] == "-"
    body = text[1:] if sign else text
    if not (body.isascii() and body.isdigit()) or len(body) > digits:
        raise BadValue(f"{what} is a whole number of at most {digits} digits, not {shown(raw)}")
    value = -int(body) if sign else int(body)
    if (low is not None and value < low) or (high is not None and value > high):
        span = f"from {low} to {high}" if low is not None and high is not None else (
            f"at least {low}" if low is not None else f"at most {high}")
        raise BadValue(f"{what} is {span}, not {value}")
    return value


def read_seed(raw) -> int:
    """A game's seed: blank for a random one (shown on the table's page, so the deal can be replayed)."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return secrets.randbelow(RANDOM_SEEDS)
    return read_int(raw, "the seed", 0, None, MAX_SEED_DIGITS)


def read_players(raw, counts: list[int]) -> int:
    n = read_int(raw, "the number of players", 1, 64, 2)
    if counts and n not in counts:
        raise BadValue(f"this game takes {', '.join(map(str, counts))} players, not {n}")
    return n


def read_lang(raw, languages: list[str], default: str = "en") -> str:
    """A language the served games speak; a missing one is `default`."""
    if raw is None or raw == "":
        return default
    if raw not in languages:
        raise BadValue(f"the languages here are {', '.join(languages)}")
    return raw


def read_options(game, raw: dict[str, str]) -> dict | None:
    """The game's options from `{name: text}`: each name must be one of the game's options, each text is
    read as YAML by the CLI's hardened reader (no aliases, 1 KiB, shallow). An option left at its
    default is left out. The game checks the values when it starts (GameSetupError: a 400 as well)."""
    from ..definition.problems import InputError
    from ..definition.untrusted import option_value

    specs = getattr(game, "options", {}) or {}
    options = {}
    for name, text in raw.items():
        if name not in specs:
            raise BadValue(f"{shown(name)} is not an option of this game; its options: {', '.join(specs) or 'none'}")
        if not isinstance(text, str) or not text.strip():
            continue
        try:
            value = option_value(name, text)
        except InputError as exc:
            raise BadValue(f"option {name}: {exc.problems[0].message}") from None
        if value != (specs[name] or {}).get("default"):
            options[name] = value
    return options or None


def read_bot(raw, config) -> str:
    """A bot spec (`random`, `greedy:depth=2`, `mcts:ms=500`), within the server's caps: `ms` at most
    `max_bot_ms`, `iterations` at most `max_bot_iterations`, depths at most `max_bot_depth` and
    `max_greedy_depth`. Returns the spec as the bot writes it."""
    from ..players.bots import BotSpecError, make_bot, parse_bot_spec

    if not isinstance(raw, str) or len(raw) > 80:
        raise BadValue("a seat is a person or a bot spec such as mcts:ms=500")
    try:
        name, options = parse_bot_spec(raw)
    except BotSpecError as exc:
        raise BadValue(f"a seat is a person or a bot spec such as mcts:ms=500 ({exc})") from None
    ms = options.get("ms")
    if ms is not None and not (math.isfinite(ms) and 0 < ms <= config.max_bot_ms):
        raise BadValue(f"a bot thinks at most {config.max_bot_ms:g} ms per decision here (mcts:ms=N)")
    if options.get("iterations", 0) > config.max_bot_iterations:
        raise BadValue(f"a bot runs at most {config.max_bot_iterations} iterations per decision here")
    cap = config.max_greedy_depth if name == "greedy" else config.max_bot_depth
    if options.get("depth", 0) > cap:
        raise BadValue(f"the {name} bot looks at most {cap} decisions deep here")
    for key in ("c", "prior"):
        value = options.get(key)
        if value is not None and not (math.isfinite(value) and value <= 1000):
            raise BadValue(f"mcts:{key} is at most 1000")
    try:
        return make_bot(raw).spec()
    except BotSpecError as exc:
        raise BadValue(str(exc)) from None
