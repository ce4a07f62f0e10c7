"""The command line's arguments: one argparse parser with a subcommand per command."""
from __future__ import annotations

import argparse

from ..analysis.parallel import DASK_INSTALL
from ..players.bots import BOT_HELP
from .common import EDITOR_LINE, LANG_HELP, PROG, _version, available_games, bot_spec, lang_code
from .learn import cmd_train
from .play import cmd_play, cmd_replay, cmd_serve
from .study import (PLOT_INSTALL, cmd_bench, cmd_compare, cmd_diff, cmd_ladder, cmd_rules, cmd_schema,
                    cmd_simulate, cmd_upgrade, cmd_validate, cmd_verify)


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
                    "  learned[:samples=K]    one look ahead, each position judged by the game's value model "
                    "learned by self-play (meeple train); K samples of the hidden part (default 1, 8 where the "
                    "seat cannot see some of its own pieces); replies=N: an action that hands the decision to "
                    "another seat inside what it opened (an auction) is played through, every seat by its own "
                    "one look, at most N decisions (default 8; 0 none); own=N: an action after which the seat "
                    "decides on in the same step or deeper (its second die, the building its role lets it build) "
                    "is followed by its own best choices, at most N, before it is judged (default 0); win=W: "
                    "where seats compete, a seat's chance to win by the model counts beside its margin, W times "
                    "the model's score scale to a whole win (default 4; 0 the margin alone)\n"
                    "  search[:iterations=N]  the mcts tree with the learned model at its leaves (default 100); "
                    "replies=N: a leaf is played through as by learned (default 0); wide=1: every node "
                    "met is priced action by action by the model (each seat's reply its best), 2-3x the "
                    "cost per iteration; finish=K: past an end trigger a leaf is played out at random K times "
                    "and valued by how the game ends; own=N: leaves judged after the seat's own run as by "
                    "learned (with a large prior=P the tree stays near that look); win=W as for learned\n"
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
    p.add_argument("--bot", type=bot_spec, default=None, metavar="BOT",
                   help=f"the bot of every seat (default: learned where the game has a trained model, else "
                        f"greedy:depth=1; said on stderr): {BOT_HELP}")
    p.add_argument("--seat", action="append", metavar="SEAT=BOT",
                   help="another bot at one seat (repeatable), BOT a bot spec as for --bot; e.g. 1=greedy, "
                        "2=mcts:ms=500")
    p.add_argument("--measure", metavar="EXPR",
                   help="an expression evaluated at the end of every game (e.g. a round counter: the game "
                        "length in rounds); its mean, min and max are reported")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--save-games", metavar="DIR", help="write each game as a record DIR/GAME-seedS.yaml "
                                                        "(for `meeple replay FILE`) as soon as it ends; DIR "
                                                        "must be empty (or give --overwrite)")
    p.add_argument("--overwrite", action="store_true",
                   help="with --save-games: write into a folder that already holds files")
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
                    "(a shared win is split) with its Wilson 95% interval, each seat's score (mean ± "
                    "standard deviation), the game length in decisions, "
                    "the score spread (highest minus lowest) and the winning margin (mean ± standard "
                    "deviation, median, range) and the end reasons "
                    "(outcome()['ends']); the change column gives 95% intervals (Newcombe for win rates, "
                    "normal for means). Then, for every change the variant makes (as `meeple diff` lists "
                    "them), how often it was used on each side: for a component type, its pieces chosen in "
                    "an action (a building bought), its modifiers and abilities applied; for an action, hook "
                    "or phase, itself; for a table (or one entry of it), a rule parameter, a var (whose start "
                    "changed) or a property of a piece type, how often the rules read it (read: by a rule that "
                    "ran; menu: by menus, once per menu; reads at the setup and at the final scoring apart), "
                    "counted in both sides compiled again with a read meter for those names only; each with "
                    "the games it fired in, uses per game and by seat, and the win rate (Wilson 95%) and mean "
                    "score of the seats that used it. For a scoring item the variant changes, or one that "
                    "reads what it changes (a building's vp), the points it gave each seat per game on both "
                    "sides and the change with its 95% interval. A counter several changes share is printed "
                    "once, under all of them (joined by +). The default bot is "
                    "greedy (random bots rarely build what a rule changes); moves a bot only tries while "
                    "thinking are not counted. --plot FILE.png draws the same figures; it needs matplotlib, the "
                    f"optional extra `plot` ({PLOT_INSTALL}), and exits 2 without it. Exit 1 if a game "
                    "raised (listed with its seed).")
    game_args(p, variant_required=True)
    p.add_argument("--games", "-k", "-n", type=int, required=True, metavar="K", help="games on each side")
    p.add_argument("--bot", type=bot_spec, default=None, metavar="BOT",
                   help=f"the bot of every seat (default: learned where the base game has a trained model, else "
                        f"greedy:depth=1, said on stderr; random bots rarely build what a rule changes): {BOT_HELP}")
    p.add_argument("--seat", action="append", metavar="SEAT=BOT",
                   help="another bot at one seat (repeatable), BOT a bot spec as for --bot; e.g. 1=greedy, "
                        "2=mcts:ms=500")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the comparison as a PNG (needs matplotlib)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    scale_args(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser(
        "serve", help="the web table: a game server with a lobby, one page per person, replays, verify and compare",
        description="Serve the web table on this machine (waitress): a lobby to pick the game, players, seed "
                    "(blank: a random one), language, variants, options and who sits where (a person, or a bot "
                    "with its budget such as mcts:ms=1000); one page per person's seat, held by the browser that "
                    "took it through its invite (the creator's page lists the invites), showing only what that "
                    "seat may see and updated live as the game moves on (or hot-seat mode: one page for the "
                    "creator, with a 'pass to Player N' screen between people); the board as SVG, the choices "
                    "as buttons, the narration, undo; the record of a finished game; a replay viewer; verify "
                    "and compare as background jobs. Tables are kept in a database and resumed when the server "
                    "starts again. Listens on localhost unless --host says otherwise.")
    p.add_argument("games", nargs="*", metavar="DIR",
                   help="game folders to serve besides the shipped games (an author's game, with its variants/), "
                        "or overlay files: each is served as a variant of the game its `base` names")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default: 8000)")
    p.add_argument("--allow-host", action="append", metavar="NAME",
                   help="a host name requests may be addressed to besides the one listened on (repeatable; "
                        "the name of this machine when serving on 0.0.0.0)")
    p.add_argument("--db", metavar="FILE",
                   help="the SQLite file the tables are kept in, so that a restarted server resumes every game "
                        "(default: $XDG_DATA_HOME/meeple/tables.sqlite3, else ~/.local/share/meeple/tables.sqlite3; "
                        ":memory: keeps nothing)")
    p.add_argument("--max-tables", type=int, default=1000, metavar="N",
                   help="tables kept at once (default 1000; past it a new table is refused until one expires)")
    p.add_argument("--timeout", type=int, default=30, metavar="SECONDS",
                   help="an idle or slow connection is closed after this long (default 30)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser(
        "ladder", help="play bots against each other and print win rates with intervals",
        description="For every pair of the bots of --bots (each later one against each earlier one), play "
                    "K games seeded S..S+K-1: the later bot at one seat (seat i mod N in game i) and the "
                    "earlier one at every other seat. Print the first bot's win rate (a shared win split) "
                    "with its Wilson 95% interval beside the fair share 1/N, the mean score of each side and "
                    "each bot's time per decision (CPU seconds), then the games the first bot did not win "
                    "outright (seed, its seat, the scores). Exit 1 if a game raised.")
    game_args(p)
    p.add_argument("--games", "-k", "-n", type=int, required=True, metavar="K", help="games per pair of bots")
    p.add_argument("--bots", default="random,greedy,mcts", metavar="BOT,BOT,...",
                   help=f"the bots, weakest first (default random,greedy,mcts); each {BOT_HELP}")
    p.add_argument("--json", action="store_true", help="print the figures as JSON (with every game's seed, "
                   "seats, scores and winners)")
    scale_args(p)
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser(
        "train", help="learn a value model of a game by self-play, for the learned and search bots",
        description="Learn what positions of a game are worth from the definition alone: generations of "
                    "self-play games, each played by the bots of the previous generation's model (the first "
                    "by the score so far), every position a row of features (every var, zone, piece type, "
                    "scoring item and where the flow is, as each seat sees them) fitted by ridge regression "
                    "to how the game ended for that seat. The model is written as JSON (never pickle) to "
                    "GAME_DIR/models/value-Np.json, stamped with the hash of the rules: a model of other "
                    "rules is refused, a variant or house rule uses its base game's model unless one was "
                    "trained on it (--variant: a variant that adds a player count). Seeded: the same "
                    "seed and --games give the same model; --minutes stops at a generation boundary.")
    p.add_argument("game", metavar="GAME", help="a game name under gamedefs/ or a game directory")
    p.add_argument("--players", "-p", required=True, metavar="N[,N...]",
                   help="the player count, or counts separated by commas (one model serves them all)")
    p.add_argument("--seed", "-s", type=int, default=1, metavar="S", help="the first seed (default: 1)")
    p.add_argument("--games", "-k", "-n", type=int, default=None, metavar="K",
                   help="self-play games in all (default: as many as --minutes allows)")
    p.add_argument("--minutes", type=float, default=None, metavar="M",
                   help="stop after the generation that ends past M minutes (default: 15 when --games is "
                        "not given)")
    p.add_argument("--generation-games", type=int, default=None, metavar="G",
                   help="games per generation and player count (default: 40)")
    p.add_argument("--explore", type=float, default=None, metavar="P",
                   help="the chance of a random move in self-play once the schedule has fallen from 0.5 "
                        "(default: 0.08; lower: the games are more like the bot's own, stalls included)")
    p.add_argument("--expert", metavar="BOT", default=None,
                   help="expert iteration: the generations after the first are played by BOT guided by the "
                        "previous generation's model, e.g. search:iterations=30 (slower per game, stronger "
                        "play to learn from; default: the learned bot)")
    p.add_argument("--average", nargs="+", metavar="MODEL", default=None,
                   help="instead of self-play, write the mean of these models' weights (each made for "
                        "this game's rules and these player counts, say by runs with other --seed): one "
                        "run's model is one draw of its luck, the mean of a few often errs less (ladder it "
                        "against the best run before keeping it)")
    p.add_argument("--output", "-O", metavar="FILE", help="write the model to FILE (default: "
                                                           "GAME_DIR/models/value-Np.json)")
    p.add_argument("--json", action="store_true", help="also print how the model was made as JSON")
    variant_arg(p)
    scale_args(p)
    p.set_defaults(func=cmd_train)

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

    p = sub.add_parser(
        "upgrade", help="rewrite files to the current format version, listing every change",
        description="Every file an author writes states the format version it was written for (a "
                    "definition in game.format, an overlay in overlay.format, a scenario file in a top-level "
                    "format, a record in format: meeple-record/N; absent means 1). meeple reads every earlier "
                    "version with the meaning it had; this command rewrites files to the current version "
                    "so that they mean the same when read as it, and prints each change as "
                    "file:line:col: what changed. PATH is a game directory (its files, scenarios and "
                    "variants with their scenarios), an overlay (with its scenario files), a scenario file "
                    "or a game record. Comments and layout are kept. Exit 0 when done (or nothing to do), 1 "
                    "when a file could not be upgraded (or, with --check, when a file is not current), 2 "
                    "for a missing path.")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a game directory, an overlay, a scenario file or a "
                                                          "record")
    p.add_argument("--check", action="store_true", help="write nothing: list what would change, exit 1 if "
                                                        "something would")
    p.add_argument("--game", metavar="GAME", help="the game a scenario file is for, when its folder does not "
                                                  "say (GAME/scenarios/)")
    variant_arg(p)
    p.set_defaults(func=cmd_upgrade)
    return parser
