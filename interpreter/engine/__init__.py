"""Running a game: the state, the turn-and-phase machine, simultaneous decisions, visibility, outcomes, the fast playout path and the invariants every state keeps."""
