"""What every command shares: errors, output, finding and loading a game, options, outcomes."""
from __future__ import annotations

import argparse
import difflib
import re
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from ..analysis.parallel import DASK_INSTALL, default_jobs
from ..analysis.simulate import text
from ..engine import playout
from ..players.bots import BOTS, BotSpecError, parse_bot_spec


PROG = "meeple"


SEAT_KINDS = ("human", *BOTS)


SCHEMA_FILE = "gamedef.schema.json"


EDITOR_LINE = "# yaml-language-server: $schema=<path-or-url of gamedef.schema.json>"


class UsageError(Exception):
    """Bad command-line input or an unreadable file: exit code 2."""


class Failure(Exception):
    """The command ran and found something wrong (already reported): exit code 1."""


def out(line: str = "") -> None:
    print(line, file=sys.stdout)


def err(line: str) -> None:
    print(line, file=sys.stderr)


MAX_SHOWN = 80  # characters of a stranger's text (an action id, a bot spec from a record) shown in a message

# C0 and C1 controls, and the characters that reorder or hide text on a terminal (bidi overrides, separators)
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def printable(text: Any, limit: int | None = MAX_SHOWN) -> str:
    """A stranger's text as a message shows it: every control character escaped (`\\x1b`, `\\n`), so a record
    cannot drive the terminal; cut to `limit` characters (None: whole) with how long it was."""
    raw = str(text)
    s = _UNSHOWABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), raw)
    if limit is not None and len(s) > limit:
        s = f"{s[:limit]}… ({len(raw)} characters)"
    return s


def _utf8_safe_streams() -> None:
    """Never fail on a character the terminal cannot show (labels may be in Chinese)."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding != "utf8" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):
                pass


def person(seat: int, lang: str = "en") -> str:
    """A seat as people count it: seat 0 is Player 1."""
    from ..table.words import person as seat_name
    return seat_name(seat, lang)


def label_of(action: dict, lang: str) -> str:
    label = action.get("label")
    return text(label, lang) if label else str(action.get("id"))


def _data_dir(name: str) -> Path:
    """A data folder (gamedefs, schemas, grammar) of the checkout or of the installed package."""
    try:
        from ..definition.resources import data_dir
    except ImportError:  # pragma: no cover - only while resources.py is being written
        here = Path(__file__).resolve().parent
        for candidate in (here.parent / name, here / "_data" / name):
            if candidate.is_dir():
                return candidate
        return here.parent / name
    return Path(data_dir(name))


def available_games() -> list[str]:
    try:
        from ..definition.resources import gamedefs_dirs
        return sorted({p.name for root in gamedefs_dirs() if root.is_dir() for p in root.iterdir()
                       if p.is_dir() and not p.name.startswith((".", "_"))})
    except (OSError, LookupError, ValueError):
        return []


def resolve_game(ref: str) -> str:
    """A game reference as load_game takes it: an existing directory (a file means its directory), or a
    game name under gamedefs/. UsageError for anything else."""
    path = Path(ref)
    if path.exists():
        return str(path.parent if path.is_file() else path)
    games = available_games()
    if ref in games:
        from ..game import find_game
        where = find_game(ref)
        err(f"{PROG}: {ref}: the copy in {where}")  # which copy a bare name loaded (a checkout's first)
        return str(where)
    hint = ""
    close = difflib.get_close_matches(ref, games, n=1)
    if close:
        hint = f"; did you mean {close[0]!r}?"
    elif games:
        hint = f"; games: {', '.join(games)}"
    raise UsageError(f"no such game or path: {ref}{hint}")


def engine():
    """The engine's public names, imported on first use (so that --help works without them)."""
    from .. import game as game_module
    from ..definition.problems import DefinitionError

    return game_module, DefinitionError


def is_input_error(exc: Exception) -> bool:
    """A DefinitionError that is an I/O error (the files could not be read): exit code 2, not 1."""
    from ..definition import problems

    input_error = getattr(problems, "InputError", None)
    return input_error is not None and isinstance(exc, input_error)


def variant_files(paths: list[str] | None) -> list[str]:
    """The overlay files of `--variant` (repeatable), each an existing file (UsageError otherwise)."""
    files = list(paths or [])
    for f in files:
        if not Path(f).is_file():
            raise UsageError(f"--variant {f}: no such file" + ("" if not Path(f).exists() else " (a directory)"))
    return files


def load(ref: str, loader=None, variant: list[str] | None = None):
    """Load a game for a command (with `loader`, default load_game), with the overlay files `variant`
    applied; a broken definition or overlay is reported on stderr and ends in Failure."""
    game_module, DefinitionError = engine()
    target = resolve_game(ref)
    files = variant_files(variant)
    try:
        if files:
            return (loader or game_module.load_game)(target, variant=files)
        return (loader or game_module.load_game)(target)
    except DefinitionError as exc:
        for problem in exc.problems:
            err(str(problem))
        if is_input_error(exc):
            raise UsageError(f"cannot read the game {ref}" + (" or its variant" if files else "")) from None
        if files:
            err(f"{PROG}: {ref} with {', '.join(files)}: {len(exc.problems)} problem(s); see "
                f"`{PROG} validate {ref} --variant FILE`")
        else:
            err(f"{PROG}: {ref}: {len(exc.problems)} problem(s) in the definition; see `{PROG} validate`")
        raise Failure() from None


def title(game, lang: str = "en") -> str:
    """The game's name, with the labels of the overlays applied to it ("Game + House rule")."""
    from ..analysis.diff import overlay_info

    labels = [o["label"] for o in overlay_info(getattr(game, "definition", None), lang)]
    return " + ".join([text(game.name, lang)] + labels)


def fault(exc: Exception) -> str:
    """What kind of failure an exception raised while playing is, for the message."""
    try:
        from ..language.compiler import RuleError
    except ImportError:  # pragma: no cover
        RuleError = ()
    if isinstance(exc, RuleError):
        return "a rule failed"
    from ..engine.playout import GameTooLong
    if isinstance(exc, GameTooLong):
        return "the game went on too long"
    return f"internal error {type(exc).__name__}"


def check_players(game, players: int) -> int:
    counts = list(getattr(game, "player_counts", []) or [])
    if counts and players not in counts:
        raise UsageError(f"--players {players}: this game takes {', '.join(map(str, counts))} players")
    return players


def parse_options(game, pairs: list[str] | None) -> dict | None:
    """`--option NAME=VALUE` pairs; VALUE is read as YAML (7, true, text) by the hardened loader."""
    if not pairs:
        return None
    from ..definition.problems import InputError
    from ..definition.untrusted import option_value

    specs = getattr(game, "options", {}) or {}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise UsageError(f"--option {pair!r}: expected NAME=VALUE")
        if specs and name not in specs:
            close = difflib.get_close_matches(name, list(specs), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; options: {', '.join(specs)}"
            raise UsageError(f"--option {name}: no such option{hint}")
        try:
            options[name] = option_value(name, raw)
        except InputError as exc:
            raise UsageError(str(exc.problems[0]).replace("error: ", "", 1)) from None
    return options


def new_game(game, players: int, seed: Any, options: dict | None, log: list | None = None):
    try:
        return playout.new_game(game, players, seed, options, log)
    except ValueError as exc:  # a bad option value or player count
        raise UsageError(str(exc)) from None


def print_log(messages: list, lang: str) -> None:
    """The narrative: what a player did, indented under the headers of rounds and phases."""
    from ..table.terminal import log_lines

    for line in log_lines(messages, lang):
        out(line)


def print_outcome(game, state, lang: str) -> None:
    """The final scores with their breakdown, why the game ended and the winners (as `play` shows them)."""
    from ..table.presentation import labels_for, outcome_model
    from ..table.textview import outcome_lines

    for line in outcome_lines(outcome_model(labels_for(game, lang), game.outcome(state)), lang):
        out(line)


def describe(game, state, lang: str, viewer: int | None = None) -> str:
    """The position in a few lines; a person at a seat (`viewer`) sees only what that seat may see."""
    return game.describe(state, lang=lang, viewer=viewer)


LANG_HELP = ("en, zh, or a language the game's labels and `words:` give (de, zh-Hant...); what a language "
             "lacks is shown in English")


def lang_code(text: str) -> str:
    """An argparse type: a language code such as en, zh, de or zh-Hant."""
    from ..table.words import LANG_CODE
    if not LANG_CODE.match(text):
        raise argparse.ArgumentTypeError(f"{text!r} is no language code (en, zh, de, zh-Hant...)")
    return text


def bot_spec(text: str) -> str:
    """An argparse type: a bot spec (NAME or NAME:key=value,...), checked."""
    try:
        parse_bot_spec(text)
    except BotSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text.strip().lower()


def default_bot(game, players: int) -> tuple[str, str]:
    """The strongest bot that fits a run of many games, and a line saying which and why: the learned bot
    where the game has a trained model for this count, else greedy looking one decision further (enough
    for a turn of several decisions, such as taking a tile and then placing it, to count)."""
    from ..players.learned import find_model
    from ..players.valuemodel import ModelError
    try:
        _model, note = find_model(game, players)
        return "learned", f"bots: learned, with {note}"
    except ModelError as exc:
        return "greedy:depth=1", f"bots: greedy:depth=1 ({exc})"


def check_models(game, players: int, kinds) -> list[str]:
    """Each model the bots of `kinds` use, as a line to print; UsageError where a learned or search bot
    has no usable model (missing, of other rules, unreadable)."""
    from ..players.learned import find_model
    from ..players.valuemodel import ModelError
    notes = []
    for kind in dict.fromkeys([kinds] if isinstance(kinds, str) else kinds):
        name, options = parse_bot_spec(kind)
        if name not in ("learned", "search"):
            continue
        try:
            _model, note = find_model(game, players, options.get("model"))
        except ModelError as exc:
            raise UsageError(f"bot {kind}: {exc}") from None
        notes.append(f"{kind}: {note}")
    return notes


def scale(args) -> dict:
    """The `jobs` and `dask` arguments of a run from --jobs and --dask (default: all local cores)."""
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.dask and args.jobs is not None:
        raise UsageError("--jobs and --dask exclude each other (the cluster decides how many run at once)")
    if args.dask and find_spec("distributed") is None:
        raise UsageError(f"--dask needs Dask distributed, the optional extra `dask`: {DASK_INSTALL}")
    return {"jobs": args.jobs or default_jobs(), "dask": args.dask}


def _join_bot_options(parts: list[str]) -> list[str]:
    """`mcts:ms=200,c=1` split at commas comes back as one spec: a part with `=` but no `:` belongs to
    the spec before it."""
    out: list[str] = []
    for part in parts:
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("meeple")
    except Exception:  # not installed: running from a checkout
        return "0.1.0 (checkout)"
