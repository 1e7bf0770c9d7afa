"""Offline solvers of small games (they need SciPy, a development dependency; the server
only reads what they write)."""
