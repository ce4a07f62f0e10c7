"""Bots: players that decide from their seat's view; determinization and search."""
