"""Commands that check and study a game: validate, simulate, bench, schema, verify, rules, diff, compare, ladder."""
from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from pathlib import Path

from ..analysis.parallel import Interrupted, default_jobs
from ..analysis.simulate import text
from ..players.bots import BOTS, BotSpecError, parse_bot_spec
from .common import (PROG, UsageError, _data_dir, _join_bot_options, check_models, check_players, default_bot,
                     engine, err, is_input_error, load, out, parse_options, person, resolve_game, scale, title,
                     variant_files)
from .play import parse_seats


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


def cmd_simulate(args) -> int:
    from ..analysis.simulate import simulate

    game = load(args.game, variant=args.variant)
    players = check_players(game, args.players)
    options = parse_options(game, args.option)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    told = set()
    if args.bot is None:
        args.bot, note = default_bot(game, players)
        err(note)
        told.add(args.bot)
    kinds = parse_seats(args.seat, players, args.bot, allowed=tuple(BOTS))
    for note in check_models(game, players, [k for k in kinds if k not in told]):
        err(note)
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

    interrupted = False
    try:
        summary = simulate(game, players, args.games, seed=args.seed, bot=bots, options=options,
                           progress=progress, measure=args.measure, keep_actions=bool(args.save_games),
                           **scale(args))
    except Interrupted as stop:  # Ctrl-C: the report of the games that ended (saved as they ended)
        summary, interrupted = stop.partial, True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        err(f"{PROG}: interrupted")
    if args.json:
        out(json.dumps(summary, indent=2, ensure_ascii=False))
        return 130 if interrupted else 1 if summary["errors"] else 0
    last = args.seed + args.games - 1
    who = f"bot {bots}" if isinstance(bots, str) else "bots " + ", ".join(
        f"{person(seat)} {kind}" for seat, kind in enumerate(bots))
    out(f"{title(game)}: {players} players, {args.games} games (seeds {args.seed}..{last}), {who}")
    if interrupted:
        out(f"PARTIAL: interrupted after {summary['completed'] + len(summary['errors'])} of {args.games} games; "
            "the figures are those of the games that ended")
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
        return 130 if interrupted else 1
    out("errors: none")
    return 130 if interrupted else 0


def game_saver(game, args, players, options, kinds):
    """--save-games DIR: each finished game as a record DIR/<game>-seed<S>.yaml (for `meeple replay`)."""
    from ..table.record import finish, new_record, write_record

    if not args.save_games:
        return lambda record: None
    folder = Path(args.save_games)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        held = next(folder.iterdir(), None)
    except OSError as exc:
        raise UsageError(f"--save-games {folder}: {exc.strerror or exc}") from None
    if held is not None and not getattr(args, "overwrite", False):  # another run's games are not overwritten
        raise UsageError(f"--save-games {folder}: the folder is not empty (it holds {held.name}); give an empty "
                         "folder, or --overwrite to write over the records in it")

    def save(result: dict) -> None:
        if "actions" not in result:
            return  # a game that raised: listed under errors with its seed
        rec = new_record(game, args.game, players, result["seed"], options, kinds, args.variant)
        rec["actions"] = [{"seat": None, "id": a} for a in result["actions"]]
        finish(rec, {"scores": result["scores"], "winners": result["winners"], "ends": result["ends"]})
        write_record(folder / f"{game.id}-seed{result['seed']}.yaml", rec)
    return save


def cmd_bench(args) -> int:
    from ..analysis.bench import bench_game, load as timed_load, load_times

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


def cmd_upgrade(args) -> int:
    from ..analysis.upgrade import upgrade
    from ..definition.versions import CURRENT

    status = 0
    for ref in args.paths:
        if not Path(ref).exists():
            raise UsageError(f"no such file or directory: {ref}")
    for ref in args.paths:
        report = upgrade(Path(ref), variants=variant_files(args.variant), game=args.game, check=args.check)
        for change in report.changes:
            out(str(change))
        for problem in report.problems:
            out(str(problem))
        errors = [p for p in report.problems if p.severity == "error"]
        verb = "would rewrite" if args.check else "rewrote"
        out(f"{ref}: {verb} {len(report.rewritten)} file(s) to format {CURRENT} ({len(report.changes)} "
            f"change(s)); {len(report.current)} already current" + (f"; {len(errors)} problem(s)" if errors else ""))
        if errors or (args.check and report.rewritten):
            status = 1
    return status


def cmd_verify(args) -> int:
    from ..analysis.verify import report_text, verify

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


def cmd_rules(args) -> int:
    from ..readback.rules_text import rulebook
    from ..readback.rules_writers import to_html, to_markdown

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
    from ..analysis.translation import coverage_of, coverage_text

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


def cmd_diff(args) -> int:
    from ..analysis.diff import diff_text, rules_diff

    base = load(args.game)
    variant = load(args.game, variant=args.variant)
    report = rules_diff(base.definition, variant.definition, lang=args.lang)
    if args.json:
        out(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        out(diff_text(report))
    return 0


PLOT_INSTALL = "pip install 'meeple[plot]', or pip install matplotlib"


def cmd_compare(args) -> int:
    from ..analysis.compare import compare, compare_text, plot

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
    told = set()
    if args.bot is None:
        args.bot, note = default_bot(base, args.players)
        err(note)
        told.add(args.bot)
    kinds = parse_seats(args.seat, args.players, args.bot, allowed=tuple(BOTS))
    for game, side in ((base, "base game"), (variant, "variant")):
        for note in check_models(game, args.players, kinds if side == "variant" else
                                 [k for k in kinds if k not in told]):
            err(f"{side}: {note}")
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


def cmd_ladder(args) -> int:
    from ..analysis.ladder import ladder, ladder_text

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
    interrupted = False
    try:
        result = ladder(game, players, args.games, bots, seed=args.seed, options=options, progress=progress,
                        **scale(args))
    except Interrupted as stop:  # Ctrl-C: the pairs played so far, the last one over the games that ended
        result, interrupted = stop.partial, True
    finally:
        if bar is not None:
            bar.close()
    if interrupted:
        err(f"{PROG}: interrupted")
    if args.json:
        out(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        out(ladder_text(result, title(game)))
    return 130 if interrupted else 1 if any(p["errors"] for p in result["pairs"]) else 0
