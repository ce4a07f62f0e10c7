"""Shared fixtures. Hypothesis profiles: `ci` (under CI=true or HYPOTHESIS_PROFILE=ci) is derandomized, the
same examples on every run; `dev` (the default elsewhere) draws new examples on each run and keeps the
failing ones in .hypothesis/; `explore` (HYPOTHESIS_PROFILE=explore) draws EXPLORE times as many."""

import os
from pathlib import Path

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.register_profile("explore", deadline=None, max_examples=600)
PROFILE = ("ci" if os.environ.get("CI") or os.environ.get("HYPOTHESIS_PROFILE") == "ci"
           else "explore" if os.environ.get("HYPOTHESIS_PROFILE") == "explore" else "dev")
settings.load_profile(PROFILE)
EXPLORE = 10 if PROFILE == "explore" else 1  # how many times the examples a test with its own count draws

ROOT = Path(__file__).resolve().parent.parent

# Loaded games are cached (interpreter/definition/cache.py) in a private directory of this test session, not in the
# user's cache: the suite loads each game from its files once, then from this cache (and the CLI's
# subprocesses, which inherit the variable, too); the directory goes away with the session.
if "MEEPLE_CACHE_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile

    _cache = tempfile.mkdtemp(prefix="meeple-test-cache-")  # mode 0700, owned by this user
    os.environ["MEEPLE_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, True)


def game_dirs():
    """Every shipped game and every example game (a directory with a `game:` section)."""
    out = sorted(p for p in (ROOT / "gamedefs").iterdir() if p.is_dir()) if (ROOT / "gamedefs").is_dir() else []
    out += sorted(p.parent for p in (ROOT / "examples").glob("*/game.yaml"))
    out += sorted(p.parent for p in (ROOT / "examples" / "mechanisms").glob("*/game.yaml"))
    return out
