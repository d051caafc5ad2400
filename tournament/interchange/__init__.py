"""File formats the tournament reads and writes: plain Python, no Django, no database."""
