"""meeple: one generic interpreter for board games whose rules live in YAML (see README.md here)."""

__version__ = "0.1.0"


def load_game(name_or_path, variant=None):
    """Load, check and compile a game definition (see interpreter.game.load_game)."""
    from .game import load_game as _load
    return _load(name_or_path, variant)
