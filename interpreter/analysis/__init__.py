"""What authors and verifiers run on a game: verify, lint, scenarios, secrecy checks, diff, compare, simulate, the ladder, the benchmark, translation coverage, parallel and Dask runs."""
