"""Shared fixtures; hypothesis is derandomized under CI (HYPOTHESIS_PROFILE=ci or CI=true)."""

import os
from pathlib import Path

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") or os.environ.get("HYPOTHESIS_PROFILE") == "ci" else "dev")

ROOT = Path(__file__).resolve().parent.parent


def game_dirs():
    """Every shipped game and every example game (a directory with a `game:` section)."""
    out = sorted(p for p in (ROOT / "gamedefs").iterdir() if p.is_dir()) if (ROOT / "gamedefs").is_dir() else []
    out += sorted(p.parent for p in (ROOT / "examples").glob("*/game.yaml"))
    return out
