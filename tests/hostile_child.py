"""Run hostile cases (tests/hostile.py) in this process and print one JSON result per case.

    python tests/hostile_child.py NAME...      (from the repository's root)

For each case: its files are written into a fresh directory (removed after the case), its command line is
run with `cli.main` (stdin empty, output captured), and the result records the exit code, the output, the CPU
seconds the case took and the peak memory of the process after it. A case that runs past `CPU_GUARD` seconds
of CPU is stopped and reported as exit "timeout"; the address space is capped so that a runaway case cannot
take the machine down with it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

CPU_GUARD = 5.0
ADDRESS_SPACE = 2 * 1024 ** 3


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def run_state(case, d: Path) -> int:
    """A saved state read from a file and loaded by the API: 2 when refused, 0 when accepted."""
    from interpreter.game import StateFormatError, load_game
    from interpreter.definition.problems import InputError
    from interpreter.definition.untrusted import read_state

    game = load_game("examples/market_day")
    f = d / "state.json"
    if case["argv"][0] != "raw":
        data = game.to_json(game.new_game(2, seed=1))
        if case["argv"][0] == "@":  # ["@", path, value]: one value deep inside the state
            *head, last = case["argv"][1]
            node = data
            for k in head:
                node = node[k]
            node[last] = case["argv"][2]
        else:
            data[case["argv"][0]] = case["argv"][1]
        f.write_text(json.dumps(data), encoding="utf-8")
    try:
        game.from_json(read_state(str(f)))
    except (InputError, StateFormatError) as ex:
        print(f"{f}: error: {ex}", file=sys.stderr)
        return 2
    return 0


def peak_memory_mb() -> float:
    """The peak resident memory of this process's own image, in MB.

    Linux's `ru_maxrss` keeps the high-water mark of the process image replaced by exec, so a child started
    by a large test runner would report the runner's size; VmHWM belongs to this image alone. Elsewhere
    `ru_maxrss` is the best there is.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_case(case) -> dict:
    from interpreter.cli import main

    d = Path(tempfile.mkdtemp(prefix="hostile-"))
    for rel, text in case["files"].items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    if case.get("fifo"):
        os.mkfifo(d / case["fifo"])
    argv = [a.replace("{d}", str(d)) if isinstance(a, str) else a for a in case["argv"]]
    out = io.StringIO()
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, CPU_GUARD)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            sys.stdin = io.StringIO("")
            code = run_state(case, d) if case["kind"] == "state" else main(argv)
    except _Timeout:
        code = "timeout"
    except MemoryError:
        code = "memory"
    except BaseException as ex:  # noqa: BLE001 — anything else is what the test must report
        code = f"raised {type(ex).__name__}: {ex}"[:300]
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    cpu = time.process_time() - start
    rss = peak_memory_mb()
    shutil.rmtree(d, ignore_errors=True)  # the result keeps only its name, which the messages quote
    return {"name": case["name"], "exit": code, "cpu": round(cpu, 3), "rss_mb": round(rss, 1),
            "out": out.getvalue()[-3000:], "dir": str(d)}


def main(names) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from hostile import corpus
    from dataclasses import asdict

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    signal.signal(signal.SIGPROF, _alarm)
    sys.setrecursionlimit(3000)
    wanted = set(names)
    import interpreter.cli  # noqa: F401 — imports are not charged to the first case
    import interpreter.game  # noqa: F401
    from interpreter.language.dsl import parser
    parser()
    results = [run_case(asdict(c)) for c in corpus() if c.name in wanted]
    sys.__stdout__.write(json.dumps(results) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:] or [line.strip() for line in sys.stdin if line.strip()])
