"""The `meeple` commands: what each does, and the parser of their arguments. With interpreter/cli.py the only modules that print or exit."""
