"""Work per decision, counted rather than timed: instructions and mispredicted branches (valgrind's cachegrind).

    python benchmarks/instructions.py 82dcfcf --game castles_of_burgundy --players 4 --games 3

On a noisy machine two timings of the same code differ by 10% and more, which hides a change worth 2%.
The number of machine instructions a run executes does not depend on what else the machine does: this
script counts them (with the branches the simulated predictor misses) for random playouts in this
checkout and, given a revision, in that revision checked out into a temporary worktree. Each count is
the difference between a run that plays the games and one that only loads the game, divided by the
decisions played, so loading is not counted. Hash randomization is off (PYTHONHASHSEED=0): the same
tree gives the same figures to within a fraction of a percent.

An instruction is not a unit of time: a mispredicted branch or a cache miss costs many, and Python's
interpreter loop mispredicts often. So the ratio of instructions is an upper bound of the speed-up that
`ab.py` measures; use this to compare two versions of a change, and `ab.py` for the figure itself.
Needs valgrind on the PATH; a run is some 50 times slower than without it.

With `--bot SPEC` (say `learned`) the games are played by that bot at every seat and the figures are per
decision it made (more than one legal action), its thinking and the moves alike:

    python benchmarks/instructions.py 07bdcae --game castles_of_burgundy --players 2 --games 1 --bot learned
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent

# Plays `games` random games in a fresh process that imports the engine of the tree on PYTHONPATH (its own
# random_playout: interpreter/analysis/bench.py, or interpreter/bench.py in older trees).
PLAY = """
import os, random, sys
import interpreter
from interpreter.game import load_game
here = os.path.dirname(interpreter.__file__)
if os.path.isdir(os.path.join(here, "analysis")):
    from interpreter.analysis import bench
else:
    from interpreter import bench
assert bench.__file__.startswith(sys.argv[1]), bench.__file__
game = load_game(sys.argv[2])
players, seed, games = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
total = 0
for i in range(seed, seed + games):
    total += bench.random_playout(game, players, i, random.Random(i))[1]
print("decisions", total)
"""

# With --bot: games between that bot at every seat, counted per decision the bot made (more than one legal
# action); each process first plays a few decisions of another game, so what a bot learns once per process
# (its model, what hidden zones hold) is in the base run too and is not counted.
PLAY_BOT = """
import sys
import interpreter
from interpreter.game import load_game
from interpreter.players.bots import SeatView, make_bot, seat_seed
assert interpreter.__file__.startswith(sys.argv[1]), interpreter.__file__
game = load_game(sys.argv[2])
players, seed, games, spec = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]

def play(k, limit):
    bots = [make_bot(spec, seat_seed(k, p)) for p in range(players)]
    s, made = game.new_game(players, seed=k), 0
    while not game.is_over(s) and made < limit:
        acts = game.legal_actions(s, labels=False)
        if len(acts) > 1:
            seat = game.current_player(s)
            a = bots[seat].choose(game, SeatView(game, s, seat), acts)
            made += 1
        else:
            a = acts[0]
        s = game.apply(s, a["id"])
    return made

play(0, 5)  # (the warm-up: see above)
print("decisions", sum(play(i, 10**9) for i in range(seed, seed + games)))
"""

COUNTS = {"instructions": r"I\s+refs:\s+([\d,]+)", "mispredicts": r"Mispredicts:\s+([\d,]+)"}


def run(tree: Path, game: str, players: int, seed: int, games: int, valgrind: bool, bot: str | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    cmd = [sys.executable, "-c", PLAY, str(tree), game, str(players), str(seed), str(games)]
    if bot:
        cmd = [sys.executable, "-c", PLAY_BOT, str(tree), game, str(players), str(seed), str(games), bot]
    if valgrind:
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
               "--cachegrind-out-file=/dev/null"] + cmd
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the playout failed in {tree}:\n{done.stderr[-2000:]}")
    out = {"decisions": int(re.search(r"decisions (\d+)", done.stdout).group(1))}
    for key, pattern in COUNTS.items():
        m = re.search(pattern, done.stderr)
        out[key] = int(m.group(1).replace(",", "")) if m else None
    return out


def per_decision(tree: Path, game: str, players: int, seed: int, games: int, bot: str | None = None) -> dict:
    """Instructions and mispredicted branches per decision of `games` random games in `tree` (with `bot`:
    games between that bot, per decision it made)."""
    run(tree, game, players, seed, 0, valgrind=False, bot=bot)  # fills the load cache: both counted runs load alike
    base = run(tree, game, players, seed, 0, valgrind=True, bot=bot)
    full = run(tree, game, players, seed, games, valgrind=True, bot=bot)
    n = full["decisions"]
    return {"decisions": n, **{k: (full[k] - base[k]) / n for k in COUNTS}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", nargs="?", help="an older revision to count too (any git revision)")
    parser.add_argument("--game", default="puerto_rico")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3, help="games played (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", metavar="SPEC", help="count games between this bot at every seat (say "
                        "learned), per decision it made, instead of random games")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions.py needs valgrind (its cachegrind tool) on the PATH", file=sys.stderr)
        return 2
    result = {"game": args.game, "players": args.players, "games": args.games, "seed": args.seed,
              **({"bot": args.bot} if args.bot else {})}
    with tempfile.TemporaryDirectory(prefix="meeple-instructions-") as tmp:
        trees = {"new": TOP}
        if args.old:
            trees["old"] = Path(tmp) / "old"
            subprocess.run(["git", "-C", str(TOP), "worktree", "add", "--detach", "-q", str(trees["old"]),
                            args.old], check=True)
        try:
            for side, tree in trees.items():
                result[side] = per_decision(tree, args.game, args.players, args.seed, args.games, args.bot)
        finally:
            if args.old:
                subprocess.run(["git", "-C", str(TOP), "worktree", "remove", "--force", str(trees["old"])],
                               check=False)
    if args.old:
        result["old_revision"] = args.old
        result["ratio"] = {k: result["old"][k] / result["new"][k] for k in COUNTS}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for side in ("old", "new"):
        if side in result:
            f = result[side]
            print(f"{side}: {f['decisions']} decisions, {f['instructions']:,.0f} instructions and "
                  f"{f['mispredicts']:,.0f} mispredicted branches per decision")
    if args.old:
        r = result["ratio"]
        print(f"{args.game}, {args.players} players{', bot ' + args.bot if args.bot else ''}: old/new {r['instructions']:.2f}x the instructions, "
              f"{r['mispredicts']:.2f}x the mispredicted branches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
