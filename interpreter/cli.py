"""The `meeple` command line. It and interpreter/commands/ are the only modules that print or exit.

Commands: validate, play, simulate, replay, bench, verify, rules, diff, compare, serve, schema, upgrade (`meeple COMMAND
--help` for each). Every command that loads a game takes `--variant FILE` (repeatable): overlay files (variants and house
rules) applied to the game in order.
Exit codes: 0 ok; 1 failures (definition errors, an illegal action, games that raised); 2 usage or I/O
errors. `main(argv)` returns the code instead of exiting, so that tests can call it.
"""
from __future__ import annotations

import os
import sys

from .analysis.parallel import ParallelError
from .commands.common import Failure, PROG, UsageError, _utf8_safe_streams, err, fault, printable
from .commands.parser import build_parser


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
    except (UsageError, ParallelError) as exc:  # may quote a stranger's text: shown escaped
        err(f"{PROG} {args.command}: error: {printable(exc, None)}")
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
        err(f"{PROG} {args.command}: {fault(exc)}: {printable(exc, 2000)}")
        err("(run with --debug for the Python traceback)")
        return 1


if __name__ == "__main__":
    sys.exit(main())
