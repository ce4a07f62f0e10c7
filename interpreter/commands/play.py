"""Commands that play a game: `play` (people and bots at a terminal), `replay`, `serve` (the web table)."""
from __future__ import annotations

import json
import random
from importlib.util import find_spec
from pathlib import Path

from ..players.bots import BotSpecError, parse_bot_spec
from .common import (PROG, SEAT_KINDS, Failure, UsageError, available_games, check_players, engine, err, fault,
                     label_of, load, new_game, out, parse_options, person, print_log, print_outcome, printable,
                     resolve_game, title)

# What a record may ask a bot to spend per decision when `play --resume` seats it: a record is a stranger's
# file (`mcts:ms=20000` would make every decision wait 20 s). A larger budget is cut to these, with a
# warning; `--seat N=BOT` on the command line chooses any budget.
RECORD_BOT_LIMITS = {"mcts": {"ms": 1000.0, "iterations": 2000, "depth": 200}, "greedy": {"depth": 10}}


def parse_seats(specs: list[str] | None, players: int, default_bot: str,
                allowed: tuple[str, ...] = SEAT_KINDS, start: list[str] | None = None) -> list[str]:
    """The kind of every seat: `start` (else `default_bot` at every seat), changed by each `--seat N=KIND`."""
    kinds = list(start) if start is not None else [default_bot] * players
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
    return read_located_record(path)[0]


def read_located_record(path: str):
    """(record, where) of a record file (`record.read_located`); UsageError for a file that is no record."""
    from ..table.record import RecordError, read_located

    if not Path(path).is_file():
        raise UsageError(f"{printable(path, None)}: no such file")
    try:
        return read_located(path)
    except RecordError as exc:
        raise UsageError(printable(exc, None)) from None


def record_seat(kind: str, where: str) -> str:
    """A seat as a record names it, as it will play: `human`, or its bot with every budget at most
    RECORD_BOT_LIMITS (a warning says so); UsageError, located, for what is no seat kind."""
    if kind.strip().lower() == "human":
        return "human"
    try:
        name, options = parse_bot_spec(kind)
    except BotSpecError as exc:
        raise UsageError(f"{where}: {printable(exc, 300)}") from None
    limits = RECORD_BOT_LIMITS.get(name, {})
    capped = {k: min(v, limits[k]) if k in limits else v for k, v in options.items()}
    spec = name + (":" + ",".join(f"{k}={v:g}" for k, v in capped.items()) if capped else "")
    if capped != options:
        err(f"{PROG} play: warning: {where}: the record's bot {printable(kind)} may think longer than a record "
            f"may ask; it plays as {spec} (--seat N=BOT chooses any bot)")
    return spec


def action_problem(at: str, index: int, action, exc: Exception, illegal: bool) -> str:
    """The message for an action of a file that cannot be played: where, which, why; a stranger's id
    shown escaped and cut."""
    aid = action if isinstance(action, str) else action.get("id", action) if isinstance(action, dict) else action
    why = str(exc)
    if isinstance(aid, str) and aid:
        why = why.replace(aid, printable(aid))
    why = printable(why, 2000)
    return f"{at}: action {index} ({printable(aid)}): {'illegal' if illegal else fault(exc)}: {why}"


def check_actions(game, players: int, seed, options, ids: list, at) -> None:
    """Every action of a record applied in turn, as `replay` applies them; an illegal action or a rule that
    fails is reported at `at(i)` (the file:line:col of action i) and raises Failure (exit 1)."""
    game_module, _ = engine()
    state = new_game(game, players, seed, options)
    for i, aid in enumerate(ids):
        try:
            state = game.apply(state, aid)
        except game_module.IllegalAction as exc:
            err(action_problem(at(i), i + 1, aid, exc, True))
            raise Failure() from None
        except game_module.RuleError as exc:
            err(action_problem(at(i), i + 1, aid, exc, False))
            raise Failure() from None


def check_setup(game, record: dict, where) -> None:
    """The record's player count and options fit the game (a new game can be set up); UsageError, located."""
    players = record["players"]
    counts = list(getattr(game, "player_counts", []) or [])
    if counts and players not in counts:
        raise UsageError(f"{where('players')}: this game takes {', '.join(map(str, counts))} players, not {players}")
    try:
        new_game(game, players, record["seed"], record["options"])
    except UsageError as exc:
        raise UsageError(f"{where('options')}: {printable(exc, 300)}") from None


def resume_record(path: str, args):
    """What `play --resume FILE` plays, checked before anything is shown, each value located in the file as
    `replay` reports it: (game, players, seed, options, seats, action ids, path, variants)."""
    record, where = read_located_record(path)
    game = record_game(record, args.variant, where)
    players, seed, options = record["players"], record["seed"], record["options"]
    check_setup(game, record, where)
    kinds = [record_seat(kind, where("seats", i)) for i, kind in enumerate(record["seats"])]
    kinds = parse_seats(args.seat, players, "random", start=kinds)
    ids = [a["id"] for a in record["actions"]]
    check_actions(game, players, seed, options, ids, lambda i: where("actions", i, "id"))
    return game, players, seed, options, kinds, ids, record["path"], list(args.variant or record["variants"])


def record_game(record: dict, variant: list[str] | None = None, where=None):
    """The game a record names (its path, else its id), with its variants; a warning when the
    definition is not the one the record was made with. A game not found is a UsageError at `where`."""
    ref = record["path"] if Path(record["path"]).exists() or record["path"] in available_games() else record["game"]
    variants = variant if variant is not None else record_variants(ref, record["variants"])
    try:
        game = load(ref, variant=variants)
    except UsageError as exc:
        if where is None:
            raise
        raise UsageError(f"{where('game' if ref is record['game'] else 'path')}: {exc}") from None
    if record.get("definition_hash") and record["definition_hash"] != game.content_hash:
        err(f"{PROG}: warning: the definition of {printable(record['game'])} changed since this record was made; "
            "its actions may no longer be legal")
    return game


def record_variants(ref: str, variants: list) -> list:
    """A record's variants as files: an overlay file, or the name of one of the game's own variants (the
    web table names them so: `two_players` is the game's `variants/two_players.yaml`)."""
    from ..game import find_game

    out = []
    for v in variants:
        v = str(v)
        if not Path(v).exists() and "/" not in v and "\\" not in v:
            try:
                named = Path(find_game(resolve_game(ref))) / "variants" / f"{v}.yaml"
            except Exception:
                named = None
            if named is not None and named.is_file():
                v = str(named)
        out.append(v)
    return out


def cmd_play(args) -> int:
    from ..table.terminal import Setup, TerminalTable

    resume = None
    if args.resume:
        game, players, seed, options, kinds, resume, path, variants = resume_record(args.resume, args)
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
    from ..table.words import person as seat_name, say
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


def read_actions(path: str) -> list:
    """Action ids one per line (blank lines and # comments skipped), or a JSON list of ids/objects;
    capped in size, nesting and number size (see untrusted.read_action_list); or the actions of a game
    record."""
    from ..definition.problems import InputError
    from ..definition.untrusted import read_action_list, read_regular

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
        record, where = read_located_record(args.game)
        game = record_game(record, args.variant, where)
        check_setup(game, record, where)
        actions = [a["id"] for a in record["actions"]]
        return replay_actions(args, game, record["players"], record["seed"], record["options"], actions,
                              lambda i: where("actions", i, "id"))
    if args.players is None:
        raise UsageError("--actions needs --players (and --seed)")
    if args.seed is None:
        raise UsageError("--seed S: give the seed of the recorded game (play prints it)")
    game = load(args.game, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    source = printable(args.actions, None)
    return replay_actions(args, game, players, args.seed, options, read_actions(args.actions), lambda i: source)


def replay_actions(args, game, players, seed, options, actions, at) -> int:
    """Apply `actions` one by one with their narration; `at(i)` says where action i was read (a record's
    file:line:col, or the actions file)."""
    from ..table.terminal import narrates_actions

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
            err(action_problem(at(index - 1), index, action, exc, True))
            return 1
        except Exception as exc:
            if args.debug:
                raise
            err(action_problem(at(index - 1), index, action, exc, False))
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
    from ..table.words import say
    out(say("actions_applied", lang, n=len(actions)))
    from ..table.presentation import present
    from ..table.textview import picture

    out(picture(present(game, game.view(state, 0), lang)))  # the table as the first seat sees it
    if over:
        print_outcome(game, state, lang)
    else:
        out(say("game_goes_on", lang, who=person(game.current_player(state), lang)))
    return 0


def _overlay_file(place: str) -> bool:
    from ..table.webgames import overlay_base

    return Path(place).is_file() and overlay_base(place) is not None


def cmd_serve(args) -> int:
    if find_spec("flask") is None:
        raise UsageError("meeple serve needs Flask: pip install flask")
    from ..table.webconfig import ServerConfig
    from ..table.webdb import default_path
    from ..table.webtable import serve

    if find_spec("waitress") is None:
        raise UsageError("meeple serve needs waitress: pip install waitress")
    for place in args.games or ():
        if not (Path(place).is_dir() and (Path(place) / "game.yaml").is_file()) and not _overlay_file(place):
            raise UsageError(f"{place}: not a game folder (with a game.yaml) nor an overlay file")
    db = args.db or str(default_path())
    if args.max_tables < 1 or args.timeout < 1:
        raise UsageError("--max-tables and --timeout are 1 or more")
    config = ServerConfig(host=args.host, port=args.port, allowed_hosts=tuple(args.allow_host or ()), db=db,
                          game_dirs=tuple(args.games or ()), max_tables=args.max_tables,
                          channel_timeout=args.timeout)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        err(f"{PROG} serve: warning: serving on {args.host}: anyone who reaches it can make tables "
            f"(requests must name it as {', '.join(sorted(config.hostnames()))})")
    serve(config, out=out, err=err)
    return 0
