"""The `meeple` command line. The only module of the package that prints or exits.

Commands: validate, play, simulate, replay, bench, verify, rules, diff, compare, serve, schema (`meeple COMMAND
--help` for each). Every command that loads a game takes `--variant FILE` (repeatable): overlay files (variants and house
rules) applied to the game in order.
Exit codes: 0 ok; 1 failures (definition errors, an illegal action, games that raised); 2 usage or I/O
errors. `main(argv)` returns the code instead of exiting, so that tests can call it.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from . import playout
from .bots import BOT_HELP, BOTS, BotSpecError, decide, make_bot, parse_bot_spec, seat_seed
from .parallel import DASK_INSTALL, ParallelError, default_jobs
from .simulate import MAX_DECISIONS, text

PROG = "meeple"
SEAT_KINDS = ("human", *BOTS)
SCHEMA_FILE = "gamedef.schema.json"
EDITOR_LINE = "# yaml-language-server: $schema=<path-or-url of gamedef.schema.json>"


class UsageError(Exception):
    """Bad command-line input or an unreadable file: exit code 2."""


class Failure(Exception):
    """The command ran and found something wrong (already reported): exit code 1."""


# --------------------------------------------------------------------------------------------- output

def out(line: str = "") -> None:
    print(line, file=sys.stdout)


def err(line: str) -> None:
    print(line, file=sys.stderr)


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
    from .words import person as seat_name
    return seat_name(seat, lang)


def label_of(action: dict, lang: str) -> str:
    label = action.get("label")
    return text(label, lang) if label else str(action.get("id"))


# ---------------------------------------------------------------------------------------- resources

def _data_dir(name: str) -> Path:
    """A data folder (gamedefs, schemas, grammar) of the checkout or of the installed package."""
    try:
        from .resources import data_dir
    except ImportError:  # pragma: no cover - only while resources.py is being written
        here = Path(__file__).resolve().parent
        for candidate in (here.parent / name, here / "_data" / name):
            if candidate.is_dir():
                return candidate
        return here.parent / name
    return Path(data_dir(name))


def available_games() -> list[str]:
    try:
        from .resources import gamedefs_dirs
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
        from .game import find_game
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
    from . import game as game_module
    from .problems import DefinitionError

    return game_module, DefinitionError


def is_input_error(exc: Exception) -> bool:
    """A DefinitionError that is an I/O error (the files could not be read): exit code 2, not 1."""
    from . import problems

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
    from .diff import overlay_info

    labels = [o["label"] for o in overlay_info(getattr(game, "definition", None), lang)]
    return " + ".join([text(game.name, lang)] + labels)


def fault(exc: Exception) -> str:
    """What kind of failure an exception raised while playing is, for the message."""
    try:
        from .compiler import RuleError
    except ImportError:  # pragma: no cover
        RuleError = ()
    if isinstance(exc, RuleError):
        return "a rule failed"
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
    from .problems import InputError
    from .untrusted import option_value

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
    from .terminal import log_lines

    for line in log_lines(messages, lang):
        out(line)


def print_outcome(game, state, lang: str) -> None:
    """The final scores with their breakdown, why the game ended and the winners (as `play` shows them)."""
    from .presentation import labels_for, outcome_model
    from .textview import outcome_lines

    for line in outcome_lines(outcome_model(labels_for(game, lang), game.outcome(state)), lang):
        out(line)


def describe(game, state, lang: str, viewer: int | None = None) -> str:
    """The position in a few lines; a person at a seat (`viewer`) sees only what that seat may see."""
    return game.describe(state, lang=lang, viewer=viewer)


# -------------------------------------------------------------------------------------------- validate

def cmd_validate(args) -> int:
    game_module, DefinitionError = engine()
    status = 0
    for ref in args.paths:
        try:
            target = resolve_game(ref)
        except UsageError as exc:
            err(f"{PROG}: error: {exc}")
            status = max(status, 2)
            continue
        try:
            game = game_module.load_game(target, variant=variant_files(args.variant))
        except UsageError as exc:
            err(f"{PROG}: error: {exc}")
            status = max(status, 2)
            continue
        except DefinitionError as exc:
            for problem in exc.problems:
                out(str(problem))
            if is_input_error(exc):
                err(f"{PROG}: error: cannot read {ref}")
                status = max(status, 2)
            else:
                out(f"{ref}: {len(exc.problems)} problem(s)")
                status = max(status, 1)
            continue
        except OSError as exc:
            err(f"{PROG}: error: {ref}: {exc.strerror or exc}")
            status = max(status, 2)
            continue
        except Exception as exc:  # a fault of the engine, not of the definition: still no traceback
            if args.debug:
                raise
            err(f"{PROG}: internal error while loading {ref}: {type(exc).__name__}: {exc}")
            status = max(status, 1)
            continue
        for warning in getattr(game, "warnings", None) or []:
            out(str(warning))
        counts = ", ".join(map(str, getattr(game, "player_counts", []) or []))
        out(f"{ref}: ok: {title(game)} ({game.id}), {counts} players")
    return status


# ------------------------------------------------------------------------------------------------ play

def parse_seats(specs: list[str] | None, players: int, default_bot: str,
                allowed: tuple[str, ...] = SEAT_KINDS) -> list[str]:
    kinds = [default_bot] * players
    for spec in specs or []:
        number, sep, kind = spec.partition("=")
        kind = kind.strip().lower()
        if not sep or not (number.strip().isascii() and number.strip().isdigit()):
            raise UsageError(f"--seat {spec!r}: expected SEAT=KIND, e.g. 1=human")
        seat = int(number)
        if not 1 <= seat <= players:
            raise UsageError(f"--seat {spec!r}: seats are numbered 1 to {players}")
        if kind not in allowed:
            try:
                parse_bot_spec(kind)
            except BotSpecError as exc:
                raise UsageError(f"--seat {spec!r}: KIND is one of {', '.join(allowed)}, or a bot spec "
                                 f"such as mcts:ms=500 ({exc})") from None
        kinds[seat - 1] = kind
    return kinds


def parse_pace(value: str | None):
    """--pace: seconds between bot decisions, or `step` (wait for Enter)."""
    if value is None or value == "step":
        return value
    try:
        seconds = float(value)
    except ValueError:
        raise UsageError(f"--pace {value!r}: expected SECONDS or step") from None
    if seconds < 0:
        raise UsageError("--pace must be 0 or more")
    return seconds


def read_record_file(path: str) -> dict:
    from .record import RecordError, read_record

    if not Path(path).is_file():
        raise UsageError(f"{path}: no such file")
    try:
        return read_record(path)
    except RecordError as exc:
        raise UsageError(str(exc)) from None


def record_game(record: dict, variant: list[str] | None = None):
    """The game a record names (its path, else its id), with its variants; a warning when the
    definition is not the one the record was made with."""
    ref = record["path"] if Path(record["path"]).exists() or record["path"] in available_games() else record["game"]
    game = load(ref, variant=variant if variant is not None else record["variants"])
    if record.get("definition_hash") and record["definition_hash"] != game.content_hash:
        err(f"{PROG}: warning: the definition of {record['game']} changed since this record was made; "
            "its actions may no longer be legal")
    return game


LANG_HELP = ("en, zh, or a language the game's labels and `words:` give (de, zh-Hant...); what a language "
             "lacks is shown in English")


def lang_code(text: str) -> str:
    """An argparse type: a language code such as en, zh, de or zh-Hant."""
    from .words import LANG_CODE
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


def cmd_play(args) -> int:
    from .terminal import Setup, TerminalTable

    resume = None
    if args.resume:
        record = read_record_file(args.resume)
        game = record_game(record, args.variant)
        players, seed, options, path = record["players"], record["seed"], record["options"], record["path"]
        kinds = parse_seats(args.seat, players, "random") if args.seat else list(record["seats"])
        resume = [a["id"] for a in record["actions"]]
        variants = list(args.variant or record["variants"])
    else:
        if not args.game or args.players is None:
            raise UsageError("give GAME and --players (or --resume FILE)")
        game = load(args.game, variant=args.variant)
        players = check_players(game, args.players)
        options = parse_options(game, args.option)
        kinds = parse_seats(args.seat, players, args.bot)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1_000_000)
        path, variants = args.game, list(args.variant or [])
    setup = Setup(path=path, players=players, seed=seed, options=options, kinds=kinds, variants=variants,
                  lang=args.lang, narrate=args.narrate, quiet=args.quiet, pace=parse_pace(args.pace),
                  record=args.record)
    from .words import person as seat_name, say
    seats = ", ".join(f"{seat_name(s, args.lang)} {k}" for s, k in enumerate(kinds))
    out(say("game_header", args.lang, game=title(game, args.lang), n=players, seed=seed, seats=seats))
    table = TerminalTable(game, setup, out=out, read=input, title=title(game, args.lang))
    try:
        new_game(game, players, seed, options)  # bad options: a usage error before anything is shown
        return table.run(resume)
    except BrokenPipeError:
        raise  # the reader went away: main() ends quietly
    except Exception as exc:
        if args.debug:
            raise
        decisions = len(table.record["actions"])
        err(f"{PROG} play: {fault(exc)} after {decisions} decisions (seed {seed}): {exc}")
        if args.record:
            err(f"the actions so far are in {args.record}, for `{PROG} replay`")
        return 1


# -------------------------------------------------------------------------------------------- simulate

def scale(args) -> dict:
    """The `jobs` and `dask` arguments of a run from --jobs and --dask (default: all local cores)."""
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.dask and args.jobs is not None:
        raise UsageError("--jobs and --dask exclude each other (the cluster decides how many run at once)")
    if args.dask and find_spec("distributed") is None:
        raise UsageError(f"--dask needs Dask distributed, the optional extra `dask`: {DASK_INSTALL}")
    return {"jobs": args.jobs or default_jobs(), "dask": args.dask}


def cmd_simulate(args) -> int:
    from .simulate import simulate

    game = load(args.game, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    kinds = parse_seats(args.seat, players, args.bot, allowed=tuple(BOTS))
    bots = args.bot if len(set(kinds)) == 1 and kinds[0] == args.bot else kinds
    if args.measure is not None:
        _, DefinitionError = engine()
        try:  # a mistake in the expression is the user's: say so before playing
            game.evaluate(game.new_game(players, seed=args.seed, options=options), args.measure)
        except DefinitionError as ex:
            first = ex.problems[0]
            raise UsageError(f"--measure: {first.message}" + (f"; {first.hint}" if first.hint else "")) from None
    bar = None
    if sys.stderr.isatty() and not args.json:
        from tqdm import tqdm

        bar = tqdm(total=args.games, unit="game", file=sys.stderr, leave=False)
    save = game_saver(game, args, players, options, kinds)

    def progress(i, record):
        if bar is not None:
            bar.update(1)
        save(record)

    try:
        summary = simulate(game, players, args.games, seed=args.seed, bot=bots, options=options,
                           progress=progress, measure=args.measure, keep_actions=bool(args.save_games),
                           **scale(args))
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        out(json.dumps(summary, indent=2, ensure_ascii=False))
        return 1 if summary["errors"] else 0
    last = args.seed + args.games - 1
    who = f"bot {bots}" if isinstance(bots, str) else "bots " + ", ".join(
        f"{person(seat)} {kind}" for seat, kind in enumerate(bots))
    out(f"{title(game)}: {players} players, {args.games} games (seeds {args.seed}..{last}), {who}")
    out(f"completed: {summary['completed']}/{args.games} in {summary['seconds']:.2f} s")
    d = summary["decisions"]
    out(f"decisions per game: mean {d['mean']:.1f}, min {d['min']}, max {d['max']}")
    out(f"{'seat':<10}{'wins':>8}{'win rate':>10}{'score mean':>12}{'stdev':>8}")
    for seat in range(players):
        out(f"{person(seat):<10}{summary['wins'][seat]:>8.2f}{summary['win_rate'][seat]:>10.1%}"
            f"{summary['score_mean'][seat]:>12.2f}{summary['score_stdev'][seat]:>8.2f}")
    if summary["ends"]:
        out("ends: " + ", ".join(f"{trigger} {n}" for trigger, n in sorted(summary["ends"].items())))
    m = summary["measure"]
    if m is not None:
        out(f"{m['expr']} at the end: mean {m['mean']:.1f}, min {m['min']}, max {m['max']}")
    if summary["errors"]:
        out(f"errors: {len(summary['errors'])} game(s) raised:")
        for e in summary["errors"]:
            out(f"  seed {e['seed']}: {e['error']}")
        return 1
    out("errors: none")
    return 0


def game_saver(game, args, players, options, kinds):
    """--save-games DIR: each finished game as a record DIR/<game>-seed<S>.yaml (for `meeple replay`)."""
    from .record import finish, new_record, write_record

    if not args.save_games:
        return lambda record: None
    folder = Path(args.save_games)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"--save-games {folder}: {exc.strerror or exc}") from None

    def save(result: dict) -> None:
        if "actions" not in result:
            return  # a game that raised: listed under errors with its seed
        rec = new_record(game, args.game, players, result["seed"], options, kinds, args.variant)
        rec["actions"] = [{"seat": None, "id": a} for a in result["actions"]]
        finish(rec, {"scores": result["scores"], "winners": result["winners"], "ends": result["ends"]})
        write_record(folder / f"{game.id}-seed{result['seed']}.yaml", rec)
    return save


# ---------------------------------------------------------------------------------------------- replay

def read_actions(path: str) -> list:
    """Action ids one per line (blank lines and # comments skipped), or a JSON list of ids/objects;
    capped in size, nesting and number size (see untrusted.read_action_list); or the actions of a game
    record."""
    from .problems import InputError
    from .untrusted import read_action_list, read_regular

    try:
        head = read_regular(path, 256).decode("utf-8", "replace").lstrip()
    except InputError as exc:
        raise UsageError(str(exc.problems[0]).replace("error: ", "", 1)) from None
    if head.startswith("# meeple game record") or head.startswith("format: meeple-record"):
        return [a["id"] for a in read_record_file(path)["actions"]]
    try:
        return read_action_list(path)
    except InputError as exc:
        raise UsageError(str(exc.problems[0]).replace("error: ", "", 1)) from None


def cmd_replay(args) -> int:
    """`meeple replay FILE` (a record), or the old form `meeple replay GAME --players N --seed S --actions FILE`."""
    if args.actions is None:
        if not Path(args.game).is_file():
            raise UsageError(f"{args.game}: give a record file (or GAME with --players, --seed and --actions)")
        record = read_record_file(args.game)
        game = record_game(record, args.variant)
        actions = [a["id"] for a in record["actions"]]
        return replay_actions(args, game, record["players"], record["seed"], record["options"], actions, args.game)
    if args.players is None:
        raise UsageError("--actions needs --players (and --seed)")
    if args.seed is None:
        raise UsageError("--seed S: give the seed of the recorded game (play prints it)")
    game = load(args.game, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    return replay_actions(args, game, players, args.seed, options, read_actions(args.actions), args.actions)


def replay_actions(args, game, players, seed, options, actions, source: str) -> int:
    from .terminal import narrates_actions

    game_module, _ = engine()
    lang = args.lang
    setup_log: list = []
    state = new_game(game, players, seed, options, setup_log)
    if not args.json:
        print_log(setup_log, lang)
    for index, action in enumerate(actions, 1):
        seat = game.current_player(state)
        messages: list = []
        try:
            state = game.apply(state, action, log=messages)
        except game_module.IllegalAction as exc:
            shown = action if isinstance(action, str) else action.get("id", action)
            err(f"{source}: action {index} ({shown}): illegal: {exc}")
            return 1
        except Exception as exc:
            if args.debug:
                raise
            shown = action if isinstance(action, str) else action.get("id", action)
            err(f"{source}: action {index} ({shown}): {fault(exc)}: {exc}")
            return 1
        if not args.json:
            if seat is not None and not narrates_actions(messages):
                label = label_of(action, lang) if isinstance(action, dict) else action
                out(f"  {person(seat, lang)}: {label}")
            print_log(messages, lang)
    over = game.is_over(state)
    if args.json:
        report = {
            "game": game.id, "players": players, "seed": seed, "applied": len(actions), "over": over,
            "current_player": None if over else game.current_player(state),
            "state": game.to_json(state),
        }
        if over:
            report["outcome"] = game.outcome(state)
        out(json.dumps(report, indent=2, ensure_ascii=False))
        return 0
    out()
    from .words import say
    out(say("actions_applied", lang, n=len(actions)))
    from .presentation import present
    from .textview import picture

    out(picture(present(game, game.view(state, 0), lang)))  # the table as the first seat sees it
    if over:
        print_outcome(game, state, lang)
    else:
        out(say("game_goes_on", lang, who=person(game.current_player(state), lang)))
    return 0


# ----------------------------------------------------------------------------------------------- bench

def cmd_bench(args) -> int:
    from .bench import bench_game, load as timed_load, load_times

    game, load_ms = load(args.game, loader=timed_load, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    figures = bench_game(game, players, args.games, seed=args.seed, options=options)
    figures["load_ms"] = load_ms
    figures.update(load_times(game))
    if args.json:
        out(json.dumps(figures, indent=2))
        return 0
    last = args.seed + args.games - 1
    out(f"{title(game)}: {players} players, {args.games} random games (seeds {args.seed}..{last})")
    source = {"cache": " (from the cache)", "files": " (from the files)"}.get(figures.get("load_source"), "")
    out(f"  load + compile      {load_ms:10.1f} ms{source}")
    if figures.get("first_load_ms") is not None:
        out(f"  first load          {figures['first_load_ms']:10.1f} ms (from the files, cache off; again in this process)")
    if figures.get("cache_load_ms") is not None:
        out(f"  load from cache     {figures['cache_load_ms']:10.1f} ms (again in this process)")
    out(f"  decisions           {figures['decisions']:10d}   ({figures['decisions_per_game']:.1f} per game)")
    out(f"  time                {figures['seconds']:10.3f} s")
    out(f"  decisions/s         {figures['decisions_per_second']:10.0f}")
    out(f"  games/s             {figures['games_per_second']:10.2f}")
    out(f"  µs per decision     {figures['us_per_decision']:10.1f}")
    out(f"  peak RSS            {figures['peak_rss_mib']:10.1f} MiB")
    out(f"  one game, traced    {figures['one_game_traced_peak_kib']:10.1f} KiB peak of Python allocations")
    if figures.get("final_state_json_bytes") is not None:
        out(f"  final state         {figures['final_state_json_bytes']:10d} bytes of compact JSON")
    return 0


# ---------------------------------------------------------------------------------------------- schema

def cmd_schema(args) -> int:
    name = f"{args.kind}.schema.json"
    try:
        source = _data_dir("schemas") / name
        content = source.read_text(encoding="utf-8")
    except (OSError, LookupError) as exc:
        raise UsageError(f"cannot read the schema {name}: {exc}") from None
    if args.output:
        try:
            Path(args.output).write_text(content, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        what = {"gamedef": "a definition file", "overlay": "an overlay file", "scenario": "a scenario file"}
        err(f"wrote {args.output}; put this line at the top of {what[args.kind]}:")
        err(f"# yaml-language-server: $schema={args.output}")
    else:
        sys.stdout.write(content if content.endswith("\n") else content + "\n")
    return 0


# ---------------------------------------------------------------------------------------------- parser

# ---------------------------------------------------------------------------------------------- verify

def cmd_verify(args) -> int:
    from .verify import report_text, verify

    if args.coverage_of:
        return translation_coverage(args)
    target = resolve_game(args.game)
    if args.games < 0:
        raise UsageError("--games must be 0 or more")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    variant = variant_files(args.variant)
    game_module, DefinitionError = engine()
    bar = None
    progress = None
    if sys.stderr.isatty() and not args.json and args.games > 0:
        from tqdm import tqdm

        try:
            counts = game_module.load_game(target, variant=variant).player_counts
        except DefinitionError:
            counts = []
        total = args.games * len([n for n in counts if not args.players or n in args.players])
        bar = tqdm(total=total or None, unit="game", file=sys.stderr, leave=False, desc="random play")
        progress = bar.update
    try:
        try:
            rep = verify(target, games=args.games, seed=args.seed, progress=progress,
                         players=set(args.players) if args.players else None, variant=variant or None,
                         alternatives=args.alternatives, jobs=args.jobs or default_jobs())
        except DefinitionError as exc:  # the game directory cannot be read at all
            for problem in exc.problems:
                err(str(problem))
            raise UsageError(f"cannot read the game {args.game}") from None
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        out(json.dumps(rep.to_json(), indent=2, ensure_ascii=False))
    else:
        out(report_text(rep, verbose=args.verbose))
    return 0 if rep.ok else 1


# ----------------------------------------------------------------------------------------------- rules

def cmd_rules(args) -> int:
    from .rules_text import rulebook
    from .rules_writers import to_html, to_markdown

    game = load(args.game, variant=args.variant)
    base = load(args.game) if args.variant else None
    blocks = rulebook(game, lang=args.lang, base=base)
    text = to_html(blocks, args.lang) if args.format == "html" else to_markdown(blocks)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
        out(f"rules of {title(game, args.lang)} written to {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def translation_coverage(args) -> int:
    """`verify --coverage-of RULEBOOK`: sections no rule cites, citations that name no section."""
    from .translation import coverage_of, coverage_text

    game = load(args.game, variant=args.variant)
    path = Path(args.coverage_of)
    if not path.is_file():
        raise UsageError(f"--coverage-of {args.coverage_of}: no such file")
    try:
        rep = coverage_of(game, path)
    except UnicodeDecodeError:
        raise UsageError(f"--coverage-of {args.coverage_of}: not a UTF-8 text file") from None
    if args.json:
        out(json.dumps(rep, indent=2, ensure_ascii=False))
    else:
        out(coverage_text(rep, game.id))
    return 1 if rep["unknown"] else 0


# ------------------------------------------------------------------------------------------------ diff

def cmd_diff(args) -> int:
    from .diff import diff_text, rules_diff

    base = load(args.game)
    variant = load(args.game, variant=args.variant)
    report = rules_diff(base.definition, variant.definition, lang=args.lang)
    if args.json:
        out(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        out(diff_text(report))
    return 0


# --------------------------------------------------------------------------------------------- compare

PLOT_INSTALL = "pip install 'meeple[plot]', or pip install matplotlib"


def cmd_compare(args) -> int:
    from .compare import compare, compare_text, plot

    if args.plot and find_spec("matplotlib") is None:
        raise UsageError(f"--plot needs matplotlib, the optional extra `plot`: {PLOT_INSTALL}")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    base = load(args.game)
    variant = load(args.game, variant=args.variant)
    for game, side in ((base, "the base game"), (variant, "the variant")):
        counts = list(getattr(game, "player_counts", []) or [])
        if counts and args.players not in counts:
            raise UsageError(f"--players {args.players}: {side} takes {', '.join(map(str, counts))} players")
    options = parse_options(variant, args.option)
    for name in options or {}:
        if name not in (base.options or {}):
            raise UsageError(f"--option {name}: the base game has no such option (only the variant has)")
    kinds = parse_seats(args.seat, args.players, args.bot, allowed=tuple(BOTS))
    bots = args.bot if all(k == args.bot for k in kinds) else kinds
    base_label, variant_label = title(base), title(variant)
    bar = None
    progress = None
    if sys.stderr.isatty() and not args.json:
        from tqdm import tqdm

        bar = tqdm(total=2 * args.games, unit="game", file=sys.stderr, leave=False)
        progress = lambda: bar.update(1)  # noqa: E731
    try:
        result = compare(base, variant, args.players, args.games, seed=args.seed, bot=bots, options=options,
                         progress=progress, **scale(args))
    finally:
        if bar is not None:
            bar.close()
    result["base_label"], result["variant_label"] = base_label, variant_label
    result["variant_files"] = list(args.variant)
    if args.plot:
        try:
            plot(result, args.plot, base_label=text(base.name), variant_label=variant_label)
        except ImportError as exc:
            raise UsageError(f"--plot needs matplotlib ({exc}): {PLOT_INSTALL}") from None
        except OSError as exc:
            raise UsageError(f"cannot write {args.plot}: {exc.strerror or exc}") from None
    if args.json:
        out(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        out(compare_text(result, base_label, f"{variant_label} ({', '.join(args.variant)})"))
        if args.plot:
            out(f"plot written to {args.plot}")
    errors = result["base"]["errors"] or result["variant"]["errors"]
    return 1 if errors else 0


# ----------------------------------------------------------------------------------------------- serve

def cmd_serve(args) -> int:
    if find_spec("flask") is None:
        raise UsageError("meeple serve needs Flask: pip install flask")
    from .webtable import serve

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err(f"{PROG} serve: warning: serving on {args.host}: anyone who reaches it can open the tables")
    out(f"meeple web table on http://{args.host}:{args.port}/ (Ctrl-C stops it)")
    serve(args.host, args.port)
    return 0


# ---------------------------------------------------------------------------------------------- ladder

def cmd_ladder(args) -> int:
    from .ladder import ladder, ladder_text

    game = load(args.game, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    bots = [b.strip().lower() for b in args.bots.split(";" if ";" in args.bots else ",") if b.strip()]
    bots = _join_bot_options(bots)
    for b in bots:
        try:
            parse_bot_spec(b)
        except BotSpecError as exc:
            raise UsageError(f"--bots: {exc}") from None
    if len(set(bots)) < 2:
        raise UsageError("--bots: name at least two different bots")
    pairs = len(bots) * (len(bots) - 1) // 2
    bar = None
    progress = None
    if sys.stderr.isatty() and not args.json:
        from tqdm import tqdm

        bar = tqdm(total=pairs * args.games, unit="game", file=sys.stderr, leave=False)
        progress = lambda record: bar.update(1)  # noqa: E731
    try:
        result = ladder(game, players, args.games, bots, seed=args.seed, options=options, progress=progress,
                        **scale(args))
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        out(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        out(ladder_text(result, title(game)))
    return 1 if any(p["errors"] for p in result["pairs"]) else 0


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


def build_parser() -> argparse.ArgumentParser:
    games = available_games()
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="meeple: a generic interpreter for board games whose rules live in YAML.",
        epilog=("GAME is a game name under gamedefs/"
                + (f" ({', '.join(games)})" if games else "")
                + " or the path of a game directory. Seats are numbered from 1.\n"
                "Exit codes: 0 ok; 1 failures (definition errors, illegal actions, games that raised); "
                "2 usage or I/O errors."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def game_args(p, seed_default: int | None = 1, seed_help: str = "the first seed (default: 1)",
                  variant_required: bool = False):
        p.add_argument("game", metavar="GAME", help="a game name under gamedefs/ or a game directory")
        p.add_argument("--players", "-p", type=int, required=True, metavar="N", help="number of players")
        p.add_argument("--seed", "-s", type=int, default=seed_default, metavar="S", help=seed_help)
        p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                       help="a game option (repeatable); VALUE is read as YAML")
        variant_arg(p, variant_required)

    def scale_args(p):
        p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                       help="play the games on N local processes (default: all cores; the results are "
                            "those of a serial run)")
        p.add_argument("--dask", metavar="ADDRESS",
                       help="play the games on the Dask cluster whose scheduler is at ADDRESS (e.g. "
                            "tcp://127.0.0.1:8786); its workers need meeple installed and the game's files "
                            f"at the same paths; needs the optional extra `dask` ({DASK_INSTALL})")

    def variant_arg(p, required=False):
        p.add_argument("--variant", action="append", metavar="FILE", required=required,
                       help="an overlay file (a variant or house rule) applied to the game (repeatable: "
                            "applied in order)")

    p = sub.add_parser(
        "validate", help="check game definitions and print every problem",
        description="Load each game directory (a file means its directory; a bare name means a game "
                    "under gamedefs/) and print every problem as file:line:col: error: message. "
                    "Exit 0 if all are valid, 1 if a definition has errors, 2 for a missing path.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a game directory, a file in one, or a game name")
    variant_arg(p)
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "play", help="play a game at the terminal: people choose from a menu, bots play by themselves",
        description="Play one game. Before each decision of a human seat its picture of the game is shown "
                    "(its own area, the table, the other players' public areas) and a menu grouped by "
                    "action whose numbers stay with their choices (type a number; ? help, m picture and "
                    "menu again, u undo back to your previous decision, s save, q quit). After every "
                    "decision what changed is narrated as the first human seat sees it. Ends with the "
                    "scores, their breakdown, the winners and why the game ended.\n\n"
                    "Bots see only what their seat may see (its view and legal actions); to look ahead they "
                    "sample the hidden part (face-down pieces, others' secret values) at random. A bot is "
                    "NAME or NAME:key=value,...:\n"
                    "  random                 uniform over the legal actions\n"
                    "  greedy[:depth=D]       the best score margin (in the game's score order, high or low) "
                    "after the action and D more of its own decisions (default 0)\n"
                    "  mcts[:iterations=N]    information-set Monte Carlo tree search, N samples per decision "
                    "(default 200; reproducible under --seed)\n"
                    "  mcts:ms=N              the same with a time budget of N ms per decision (depends on the "
                    "machine)\n"
                    "  mcts options           c=C exploration (default 0.7), depth=D rollout decisions before "
                    "a position is valued by its score margin (default 40; 0 none), prior=P visits each "
                    "action starts with, worth its score margin right after it (default 3; 0 none)\n"
                    "e.g. --bot mcts:ms=500, --seat 2=mcts:iterations=400,c=1",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("game", metavar="GAME", nargs="?", help="a game name under gamedefs/ or a game directory")
    p.add_argument("--players", "-p", type=int, metavar="N", help="number of players")
    p.add_argument("--seed", "-s", type=int, default=None, metavar="S",
                   help="the game's seed (default: a random one, printed)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a game option (repeatable); VALUE is read as YAML")
    variant_arg(p)
    p.add_argument("--seat", action="append", metavar="SEAT=KIND",
                   help="who plays a seat (repeatable), KIND human or a bot spec as for --bot; e.g. 1=human, "
                        "2=mcts:ms=500")
    p.add_argument("--bot", type=bot_spec, default="random", metavar="BOT",
                   help=f"the bot of the other seats (default random): {BOT_HELP}")
    p.add_argument("--lang", type=lang_code, default="en", metavar="LANG", help=LANG_HELP + "; language of everything shown")
    p.add_argument("--narrate", choices=("brief", "full", "none"), default="brief",
                   help="after each decision, what changed: brief (counters, tracks, pieces of players), "
                        "full (also the table's pieces and hidden piles), none")
    p.add_argument("--pace", metavar="SECONDS", help="wait SECONDS after each bot decision, or `step`: "
                                                     "wait for Enter")
    p.add_argument("--quiet", "-q", action="store_true", help="no narration of bot turns")
    p.add_argument("--record", metavar="FILE", help="write the game record (game, definition hash, "
                                                     "options, players, seed, seats, actions) for `meeple "
                                                     "replay FILE` or --resume")
    p.add_argument("--resume", metavar="FILE", help="go on with a saved game or record (GAME, --players "
                                                     "and --seed come from it)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "simulate", help="play many bot games and report lengths, win rates and scores",
        description="Play K bot games seeded S, S+1, ..., S+K-1 and report how many completed, decisions "
                    "per game (mean/min/max), each seat's win rate (a shared win is split), score mean "
                    "and standard deviation per seat, how many games each end trigger ended, and every "
                    "game that raised an error, with its seed. Exit 1 if a game raised.")
    game_args(p)
    p.add_argument("--games", "-k", "-n", type=int, required=True, metavar="K", help="number of games")
    p.add_argument("--bot", type=bot_spec, default="random", metavar="BOT",
                   help=f"the bot of every seat (default random): {BOT_HELP}")
    p.add_argument("--seat", action="append", metavar="SEAT=BOT",
                   help="another bot at one seat (repeatable), BOT a bot spec as for --bot; e.g. 1=greedy, "
                        "2=mcts:ms=500")
    p.add_argument("--measure", metavar="EXPR",
                   help="an expression evaluated at the end of every game (e.g. a round counter: the game "
                        "length in rounds); its mean, min and max are reported")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--save-games", metavar="DIR", help="write each game as a record DIR/GAME-seedS.yaml "
                                                        "(for `meeple replay FILE`)")
    scale_args(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "replay", help="replay a game record, or a list of actions, and show the game",
        description="Replay a record written by `play --record`, `simulate --save-games` or the web "
                    "table: `meeple replay FILE` (the game, variants, options, players and seed come from "
                    "it). The older form applies a list of actions to a game started from flags: `meeple "
                    "replay GAME --players N --seed S --actions FILE` (action ids one per line, # comments "
                    "allowed, or a JSON list of ids or action objects). Narrates the actions and shows the "
                    "final or current state. An illegal action is reported with its 1-based index and the "
                    "reason; exit 1.")
    p.add_argument("game", metavar="FILE|GAME", help="a game record, or (with --actions) a game")
    p.add_argument("--players", "-p", type=int, metavar="N", help="number of players (with --actions)")
    p.add_argument("--seed", "-s", type=int, default=None, metavar="S", help="the game's seed (with --actions)")
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                   help="a game option (repeatable, with --actions); VALUE is read as YAML")
    variant_arg(p)
    p.add_argument("--actions", "-a", metavar="FILE", help="the actions to apply to GAME")
    p.add_argument("--lang", type=lang_code, default="en", metavar="LANG", help=LANG_HELP + "; language of labels and narration")
    p.add_argument("--json", action="store_true", help="print the resulting state (and outcome) as JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "bench", help="measure the engine's speed and memory on random games",
        description="Time K random games: decisions/s, games/s, µs per decision, load and compile time, "
                    "peak resident memory and the peak Python allocations of one game (tracemalloc runs "
                    "apart from the timed games).")
    game_args(p)
    p.add_argument("--games", "-k", "-n", type=int, default=10, metavar="K", help="number of games (default 10)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "verify", help="verify a rulebook encoding: scenarios, lint, random-play checks, coverage",
        description="Check one game as a rulebook verifier would: run its worked examples "
                    "(GAME/scenarios/*.yaml) and report every failing one with expected and actual values "
                    "and the trace; lint the definition (state written but never read, unused names and "
                    "components, unreachable steps/phases/hooks/end triggers, event cycles, counts against "
                    "the box inventory, rules without a source); play N seeded random games per player "
                    "count checking termination, playability, conservation, save/load, determinism and "
                    "hidden information (in views, menus and the rendered text of labels and narration, "
                    "for every seat); report rule coverage (actions, hooks, phases, modifiers, "
                    "abilities, scoring items and end triggers never fired), every provisional value, and every disputed "
                    "rule with its readings (alternatives), their sources and the option that chooses them. "
                    "Exit 0 when everything holds, 1 when something fails, 2 for usage errors.")
    p.add_argument("game", metavar="GAME", help="a game name under gamedefs/ or a game directory")
    p.add_argument("--games", "-k", "-n", type=int, default=100, metavar="N",
                   help="random games per player count (default: 100; 0 skips random play)")
    p.add_argument("--seed", "-s", type=int, default=1, metavar="S", help="the first seed (default: 1)")
    p.add_argument("--players", "-p", type=int, action="append", metavar="N",
                   help="only this player count (repeatable; default: every supported count)")
    variant_arg(p)
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--verbose", "-v", action="store_true", help="also list passing scenarios and notes")
    p.add_argument("--coverage-of", metavar="RULEBOOK",
                   help="instead: translation coverage of a rulebook text file: its sections that no rule's "
                        "source cites, and the citations of that file that name no section of it (exit 1 if "
                        "there is such a citation)")
    p.add_argument("--alternatives", action="store_true",
                   help="also run the scenarios and random play under every reading of every disputed rule, "
                        "and name the scenarios that tell the readings apart")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N",
                   help="play the random games on N local processes (default: all cores; the report is "
                        "that of a serial run)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser(
        "rules", help="write the rulebook generated from the definition (Markdown or HTML, English or Chinese)",
        description="Write a rulebook generated from the definition alone: the components and their counts by "
                    "player count, the setup tables and starting values, the flow as an outline, every phase, "
                    "every decision with its actions (what may be chosen, when it is allowed, its effect), the "
                    "hooks (when ..., ...), the rule parameters and the pieces that modify them, the named "
                    "definitions, the scoring items, end triggers and tie-breakers, and the options with the "
                    "disputed rules. Expressions and effects are put in words with the definition's labels; a "
                    "named definition stays a formula, defined once. Every rule shows its source; provisional "
                    "and disputed rules are marked. With --variant, the rules the variant changes are marked.")
    p.add_argument("game", metavar="GAME", help="a game name under gamedefs/ or a game directory")
    variant_arg(p)
    p.add_argument("--lang", type=lang_code, default="en", metavar="LANG", help=LANG_HELP + "; language of the text (default: en)")
    p.add_argument("--format", choices=("md", "html"), default="md", help="Markdown or HTML (default: md)")
    p.add_argument("--output", "-O", metavar="FILE", help="write to FILE instead of printing")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "diff", help="list what a variant or house rule changes, in rule terms",
        description="Load GAME with and without the overlay files of --variant and list what they change, "
                    "grouped: the player counts; setup values (tables, per-player-count entries, options, "
                    "vars, the setup); components added, removed or changed (counts, costs, modifiers); "
                    "rules and effects (the flow, phases, steps and actions, hooks, definitions); scoring "
                    "and the end. Each line names the thing by its label, e.g. `building Tavern: cost 3 → "
                    "2`, `table start_coins: 2 players: 3 (new)`, `component type cart removed`, `flow "
                    "changed` (with its outline before and after), and changed rule texts show their "
                    "changed lines. Changes of comments, labels and sources only are left out. A broken "
                    "overlay (a path that does not exist, a value that breaks the schema or a rule) is "
                    "reported as file:line:col errors; exit 1.")
    p.add_argument("game", metavar="GAME", help="a game name under gamedefs/ or a game directory")
    variant_arg(p, required=True)
    p.add_argument("--lang", type=lang_code, default="en", metavar="LANG", help=LANG_HELP + "; language of the labels")
    p.add_argument("--json", action="store_true", help="print the changes as JSON (old and new values, paths)")
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "compare", help="play a game and a variant on the same seeds and compare their balance",
        description="Play K bot games of GAME and K of GAME with the overlay files of --variant, seeded "
                    "S..S+K-1 on both sides with the same bots, and print side by side: each seat's win rate "
                    "(a shared win is split) with its Wilson 95% interval, the game length in decisions, "
                    "the score spread (highest minus lowest) and the winning margin (mean ± standard "
                    "deviation, median, range), the mean score by seat and the end reasons "
                    "(outcome()['ends']); the change column gives 95% intervals (Newcombe for win rates, "
                    "normal for means). Then, for every change the variant makes (as `meeple diff` lists "
                    "them), how often it was used on each side: for a component type, its pieces chosen in "
                    "an action (a building bought), its modifiers and abilities applied; for an action, hook "
                    "or phase, itself; each with the games it fired in, uses per game and by seat, and the "
                    "win rate (Wilson 95%) and mean score of the seats that used it. The default bot is "
                    "greedy (random bots rarely build what a rule changes); moves a bot only tries while "
                    "thinking are not counted. --plot FILE.png draws the same figures; it needs matplotlib, the "
                    f"optional extra `plot` ({PLOT_INSTALL}), and exits 2 without it. Exit 1 if a game "
                    "raised (listed with its seed).")
    game_args(p, variant_required=True)
    p.add_argument("--games", "-k", "-n", type=int, required=True, metavar="K", help="games on each side")
    p.add_argument("--bot", type=bot_spec, default="greedy", metavar="BOT",
                   help=f"the bot of every seat (default greedy: random bots rarely build what a rule changes): {BOT_HELP}")
    p.add_argument("--seat", action="append", metavar="SEAT=BOT",
                   help="another bot at one seat (repeatable), BOT a bot spec as for --bot; e.g. 1=greedy, "
                        "2=mcts:ms=500")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the comparison as a PNG (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    scale_args(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser(
        "serve", help="a local web table: lobby, one page per person, replays, verify and compare",
        description="Serve the web table (Flask) on this machine: a lobby to pick the game, players, "
                    "seed, language, variants, options and who sits where (a person, or a bot with its budget such as "
                    "mcts:ms=1000); one page per "
                    "person's seat, each in its own browser tab, showing only what that seat may see (or "
                    "hot-seat mode: one page, with a 'pass to Player N' screen between people); the board "
                    "as SVG, the choices as buttons, the narration, undo; the record of a finished game; a "
                    "replay viewer that steps through a record; pages for `verify` and `compare`. Listens "
                    "on localhost unless --host says otherwise.")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "ladder", help="play bots against each other and print win rates with intervals",
        description="For every pair of the bots of --bots (each later one against each earlier one), play "
                    "K games seeded S..S+K-1: the later bot at one seat (seat i mod N in game i) and the "
                    "earlier one at every other seat. Print the first bot's win rate (a shared win split) "
                    "with its Wilson 95% interval beside the fair share 1/N, the mean score of each side and "
                    "each bot's time per decision (CPU seconds). Exit 1 if a game raised.")
    game_args(p)
    p.add_argument("--games", "-k", "-n", type=int, required=True, metavar="K", help="games per pair of bots")
    p.add_argument("--bots", default="random,greedy,mcts", metavar="BOT,BOT,...",
                   help=f"the bots, weakest first (default random,greedy,mcts); each {BOT_HELP}")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    scale_args(p)
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser(
        "schema", help="print or export the JSON Schema of definition files",
        description="Print the JSON Schema of game definition files (gamedef.schema.json), or write it "
                    "to FILE. Editors with the YAML language server (VS Code's YAML extension, for one) "
                    "complete and check a definition file that starts with:\n\n  " + EDITOR_LINE,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--output", "-O", metavar="FILE", help="write the schema to FILE instead of printing it")
    p.add_argument("--kind", choices=("gamedef", "overlay", "scenario"), default="gamedef",
                   help="which schema: game definition files (default), overlay files (variants and house "
                        "rules) or scenario files")
    p.set_defaults(func=cmd_schema)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    _utf8_safe_streams()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    try:
        return args.func(args)
    except (UsageError, ParallelError) as exc:
        err(f"{PROG} {args.command}: error: {exc}")
        return 2
    except Failure:
        return 1
    except KeyboardInterrupt:
        err(f"{PROG}: interrupted")
        return 130
    except BrokenPipeError:
        try:  # the reader went away (`meeple ... | head`): nothing more to say
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except OSError as exc:
        err(f"{PROG} {args.command}: error: {exc}")
        return 2
    except Exception as exc:
        if args.debug or os.environ.get("MEEPLE_DEBUG"):
            raise
        err(f"{PROG} {args.command}: {fault(exc)}: {exc}")
        err("(run with --debug for the Python traceback)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
