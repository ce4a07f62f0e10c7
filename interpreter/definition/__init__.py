"""Reading a game definition: YAML with positions, the schema, overlays, problems for authors, limits, the load cache."""
