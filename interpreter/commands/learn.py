"""`meeple train`: learn a value model of a game by self-play, for the `learned` and `search` bots."""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path

from .common import PROG, UsageError, err, load, out, scale, title


def seats(counts: list[int]) -> str:
    """"2, 3 players", "1 player"."""
    return f"{', '.join(map(str, counts))} player{'' if counts == [1] else 's'}"


def player_counts(text: str) -> list[int]:
    """`4` or `3,4,5`: the player counts a model is trained for."""
    try:
        counts = sorted({int(p) for p in str(text).split(",") if p.strip()})
    except ValueError:
        raise UsageError(f"--players {text}: a count or counts separated by commas, like 4 or 3,4,5") from None
    if not counts:
        raise UsageError("--players: name at least one player count")
    return counts


def default_output(game, counts: list[int], variants) -> Path:
    """`GAME_DIR/models/value-Np.json` (`value-3-5p.json` for several counts; `value-2p-VARIANT.json` for a
    model of a variant's rules)."""
    root = Path(game.origin[0]) if getattr(game, "origin", None) else Path(".")
    span = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    tail = "".join(f"-{Path(v).stem}" for v in variants or [])
    return root / "models" / f"value-{span}p{tail}.json"


def cmd_train(args) -> int:
    from ..analysis.train import EXPLORE, GENERATION_GAMES, expert_bot, train
    from ..players.learned import STALL_LENGTHS

    game = load(args.game, variant=args.variant)
    counts = player_counts(args.players)
    bad = [n for n in counts if n not in game.player_counts]
    if bad:
        raise UsageError(f"--players {args.players}: this game takes {', '.join(map(str, game.player_counts))} players")
    if args.average:
        played = [opt for opt, v in (("--games", args.games), ("--minutes", args.minutes), ("--expert", args.expert),
                                     ("--generation-games", args.generation_games), ("--explore", args.explore))
                  if v is not None]
        if played:
            raise UsageError(f"--average plays no game: {', '.join(played)} belong to the runs it averages")
        return average(game, counts, args, Path(args.output) if args.output
                       else default_output(game, counts, args.variant))
    if args.games is None and args.minutes is None:
        args.minutes = 15.0
    if args.games is not None and args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.minutes is not None and args.minutes <= 0:
        raise UsageError("--minutes must be positive")
    gen_games = args.generation_games or GENERATION_GAMES
    if gen_games < 2:
        raise UsageError("--generation-games must be at least 2")
    explore = EXPLORE if args.explore is None else args.explore
    if not 0 <= explore <= 1:
        raise UsageError("--explore is a chance, from 0 to 1")
    if args.expert is not None:
        try:
            expert_bot(args.expert, 0, None)  # checked here, before any game is played
        except ValueError as exc:
            raise UsageError(f"--expert: {exc}") from None
    target = Path(args.output) if args.output else default_output(game, counts, args.variant)
    runs = scale(args)
    budget = f"{args.games} games" if args.games is not None else f"{args.minutes:g} minutes"
    err(f"{PROG} train: {title(game)} at {seats(counts)}, {budget}, "
        f"generations of {gen_games} games per count, seed {args.seed}, "
        + (f"Dask at {runs['dask']}" if runs["dask"] else f"{runs['jobs']} process(es)"))
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=args.games if args.games is not None else None, unit="game", file=sys.stderr,
                   leave=False)
    last = {"games": 0}

    def progress(info):
        if bar is not None:
            bar.update(info["games"] - last["games"])
            bar.set_postfix(generation=info["generation"], score=f"{info['mean_final_score']:.1f}")
        else:
            err(f"generation {info['generation']}: {info['games']} games, mean final score "
                f"{info['mean_final_score']:.1f}, decisions per game "
                + ", ".join(f"{n}p {v}" for n, v in info["mean_length"].items())
                + (f"; {info['stalled']} stopped at {STALL_LENGTHS:g} usual lengths" if info.get("stalled") else ""))
        last["games"] = info["games"]

    started, cpu = time.perf_counter(), time.process_time()
    try:
        model = train(game, counts, seed=args.seed, games=args.games, minutes=args.minutes,
                      generation_games=gen_games, explore=explore, progress=progress, expert=args.expert,
                      **runs)
    finally:
        if bar is not None:
            bar.close()
    ref = args.game if not Path(args.game).is_absolute() else game.id  # no path of this machine in the file
    command = [PROG, "train", ref, "--players", ",".join(map(str, counts)), "--seed", str(args.seed)]
    command += ["--games", str(args.games)] if args.games is not None else ["--minutes", f"{args.minutes:g}"]
    if gen_games != GENERATION_GAMES:
        command += ["--generation-games", str(gen_games)]
    if explore != EXPLORE:
        command += ["--explore", f"{explore:g}"]
    if args.expert is not None:
        command += ["--expert", args.expert]
    for v in args.variant or []:
        command += ["--variant", v if not Path(v).is_absolute() else Path(v).name]
    model.trained.update({"command": " ".join(shlex.quote(c) for c in command),
                          "wall_seconds": round(time.perf_counter() - started, 1)})
    t = model.trained
    return written(model, target, args, f"{title(game)}: a value model for {seats(counts)}, {t['games']} "
                   f"self-play games in {t['generations']} generations, {t['wall_seconds']:.0f} s")


def written(model, target: Path, args, line: str) -> int:
    """Save `model` to `target` and say so: `line`, the file, and with --json how it was made."""
    model.save(target)
    out(line)
    out(f"written: {target}")
    if args.json:
        out(json.dumps({"output": str(target), "trained": model.trained}, indent=2, ensure_ascii=False))
    return 0


def average(game, counts: list[int], args, target: Path) -> int:
    """`meeple train GAME --players N --average A.json B.json ...`: the mean of models already made (each
    checked against the game's rules and the counts), written as a model that names what it averaged."""
    from ..players.valuemodel import ModelError, ValueModel
    models = []
    for name in args.average:
        try:
            model = ValueModel.load(name)
            model.check(game)
        except ModelError as exc:
            raise UsageError(f"--average {name}: {exc}") from None
        if model.players != counts:
            raise UsageError(f"--average {name}: a model for {seats(model.players)}, not {seats(counts)}")
        models.append(model)
    made = [{k: m.trained[k] for k in ("command", "games", "generations", "wall_seconds", "seed") if k in m.trained}
            for m in models]
    ref = args.game if not Path(args.game).is_absolute() else game.id
    command = [PROG, "train", ref, "--players", ",".join(map(str, counts)), "--average",
               *(Path(n).name for n in args.average)]
    trained = {"generations": sum(int(m.get("generations", 0)) for m in made),
               "games": sum(int(m.get("games", 0)) for m in made), "averaged": made,
               "wall_seconds": round(sum(float(m.get("wall_seconds", 0)) for m in made), 1),
               "command": " ".join(shlex.quote(c) for c in command)}
    return written(ValueModel.mean(models, trained), target, args,
                   f"{title(game)}: a value model for {seats(counts)}, the mean of {len(models)} models "
                   f"({trained['games']} self-play games in all, {trained['wall_seconds']:.0f} s of training)")
