"""Benchmarks (run as scripts: ``uv run python bench/<name>.py``)."""
