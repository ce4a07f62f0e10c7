"""Speed of this checkout against an older commit, measured in one run, old and new interleaved.

    python benchmarks/ab.py 82dcfcf --game puerto_rico --players 4 --rounds 7 --games 10

This machine is noisy (other processes, CPU frequency), so a figure measured at another time says
little. This script checks the old commit out into a temporary worktree, then alternates runs of
`meeple bench --json` in the old and the new tree (each in a fresh process, so each pays its own load),
and prints every run, the median decisions/s of each side and their ratio, with the range of the
per-round ratios. Each side plays its own copy of the game's files; the golden transcripts guarantee
they are the same games.

With `--bot SPEC` (say `learned`) each run plays the games with that bot at every seat instead, and the
figure is the bot's CPU time per decision (decisions with one legal action not counted; the bot's model is
each tree's own; a few decisions of another game played first, not timed, so what a bot learns once per
process is not counted): the speed of a bot rather than of the engine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def bench_once(tree: Path, game: str, players: int, games: int, seed: int) -> dict:
    """One `meeple bench --json` in a fresh process that imports the engine of `tree`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = ("import sys, interpreter.cli as c; "
            f"assert c.__file__.startswith({str(tree)!r}), c.__file__; sys.exit(c.main(sys.argv[1:]))")
    cmd = [sys.executable, "-c", code, "bench", game, "--players", str(players), "--games", str(games),
           "--seed", str(seed), "--json"]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench failed in {tree.name}:\n{done.stderr}")
    return json.loads(done.stdout)


BOT_RUN = """
import json, sys, time
import interpreter
from interpreter.game import load_game
from interpreter.players.bots import SeatView, make_bot, seat_seed
assert interpreter.__file__.startswith(sys.argv[1]), interpreter.__file__
game_ref, players, games, seed, spec = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
variant = sys.argv[7:] or None
g = load_game(game_ref, variant=variant) if variant else load_game(game_ref)
# a warm-up first, not timed: what a bot learns once per process (its model, what hidden zones hold) would
# otherwise weigh on the first game's decisions (a third of a second in Burgundy)
warm = [make_bot(spec, seat_seed(0, p)) for p in range(players)]
s = g.new_game(players, seed=0)
for _ in range(5):
    if g.is_over(s):
        break
    acts = g.legal_actions(s, labels=False)
    seat = g.current_player(s)
    s = g.apply(s, (warm[seat].choose(g, SeatView(g, s, seat), acts) if len(acts) > 1 else acts[0])["id"])
cpu, decisions = 0.0, 0
for k in range(seed, seed + games):
    bots = [make_bot(spec, seat_seed(k, p)) for p in range(players)]
    s = g.new_game(players, seed=k)
    while not g.is_over(s):
        seat = g.current_player(s)
        acts = g.legal_actions(s, labels=False)
        if len(acts) > 1:
            t = time.process_time()
            a = bots[seat].choose(g, SeatView(g, s, seat), acts)
            cpu += time.process_time() - t
            decisions += 1
        else:
            a = acts[0]
        s = g.apply(s, a["id"])
print(json.dumps({"decisions": decisions, "ms_per_decision": 1000 * cpu / max(1, decisions),
                  "decisions_per_second": decisions / max(cpu, 1e-9), "games_per_second": 0.0, "load_ms": 0.0}))
"""


def bot_once(tree: Path, game: str, players: int, games: int, seed: int, spec: str, variants: list) -> dict:
    """The CPU time per decision of bot `spec` at every seat, in a fresh process importing `tree`'s engine."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", BOT_RUN, str(tree), game, str(players), str(games), str(seed), spec, *variants]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bot run failed in {tree.name}:\n{done.stderr}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the older commit (any git revision)")
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10, help="games per run (default 10)")
    parser.add_argument("--rounds", type=int, default=5, help="old/new pairs (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", metavar="SPEC", help="time this bot's decisions instead of random games")
    parser.add_argument("--variant", action="append", default=[], metavar="FILE",
                        help="an overlay file, relative to the checkout (with --bot; repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="meeple-ab-") as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(TOP), "worktree", "add", "--detach", "-q", str(old_tree), args.old],
                       check=True)
        try:
            runs = {"old": [], "new": []}
            for r in range(args.rounds):
                order = ("old", "new") if r % 2 == 0 else ("new", "old")  # alternate who goes first
                for side in order:
                    tree = old_tree if side == "old" else TOP
                    if args.bot:
                        fig = bot_once(tree, args.game, args.players, args.games, args.seed, args.bot, args.variant)
                        runs[side].append(fig)
                        if not args.json:
                            print(f"round {r + 1} {side}: {fig['ms_per_decision']:.3f} ms per decision "
                                  f"({fig['decisions']} decisions)", flush=True)
                        continue
                    fig = bench_once(tree, args.game, args.players, args.games, args.seed)
                    runs[side].append(fig)
                    if not args.json:
                        print(f"round {r + 1} {side}: {fig['decisions_per_second']:,.0f} decisions/s, "
                              f"{fig['games_per_second']:.1f} games/s, load {fig['load_ms']:.0f} ms", flush=True)
        finally:
            subprocess.run(["git", "-C", str(TOP), "worktree", "remove", "--force", str(old_tree)], check=False)
    dps = {side: [f["decisions_per_second"] for f in figs] for side, figs in runs.items()}
    ratios = [n / o for o, n in zip(dps["old"], dps["new"])]
    result = {
        "game": args.game, "players": args.players, "games": args.games, "rounds": args.rounds, "old": args.old,
        "old_decisions_per_second": statistics.median(dps["old"]),
        "new_decisions_per_second": statistics.median(dps["new"]),
        "ratio": statistics.median(dps["new"]) / statistics.median(dps["old"]),
        "round_ratios": ratios,
        "old_load_ms": statistics.median(f["load_ms"] for f in runs["old"]),
        "new_load_ms": statistics.median(f["load_ms"] for f in runs["new"]),
    }
    if args.bot:
        result["bot"] = args.bot
        result["old_ms_per_decision"] = statistics.median(f["ms_per_decision"] for f in runs["old"])
        result["new_ms_per_decision"] = statistics.median(f["ms_per_decision"] for f in runs["new"])
    if args.json:
        print(json.dumps(result, indent=2))
    elif args.bot:
        print(f"{args.game}, {args.players} players, bot {args.bot}, {args.rounds} rounds of {args.games} games: "
              f"old {result['old_ms_per_decision']:.3f} ms per decision, new {result['new_ms_per_decision']:.3f}, "
              f"speed ratio {result['ratio']:.2f}x (per round {min(ratios):.2f}-{max(ratios):.2f})")
    else:
        print(f"{args.game}, {args.players} players, {args.rounds} rounds of {args.games} games: "
              f"old {result['old_decisions_per_second']:,.0f} decisions/s, "
              f"new {result['new_decisions_per_second']:,.0f} decisions/s, "
              f"ratio {result['ratio']:.2f}x (per round {min(ratios):.2f}-{max(ratios):.2f}); "
              f"load {result['old_load_ms']:.0f} ms -> {result['new_load_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
