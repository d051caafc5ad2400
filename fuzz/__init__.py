"""Seeded mutation fuzzing of Spread's readers: `python -m fuzz` (or `make fuzz`) for a long run,
`tests/fuzz/` for the short seeded pass that `make test` runs."""
