"""Tournaments as plain data: players and results in; standings, pairings and ratings out.

Nothing here imports Django or touches a database.
"""
