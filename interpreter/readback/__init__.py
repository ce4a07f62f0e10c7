"""The rules read back: a rulebook generated from the definition, in words."""
