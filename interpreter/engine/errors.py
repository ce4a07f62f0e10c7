"""What the public API raises for a caller's mistake: an action that is not legal, bad arguments to
`new_game`; and the longest text taken as an action id."""

from __future__ import annotations

MAX_ACTION_ID = 2_000  # characters: longer text is no action id (and did-you-mean on it would be slow)


class IllegalAction(Exception):
    """An action that is not legal in the given state; the message says why."""


class GameSetupError(ValueError):
    """Bad arguments to new_game (player count, options)."""
