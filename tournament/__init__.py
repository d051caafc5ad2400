"""The Django app: tournaments, players, results, and the pages that show them."""
