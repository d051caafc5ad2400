"""Tournament models: divisions, players, rounds, results. None yet."""
