"""Pure rules engines: no Django, no I/O, no global randomness (docs/architecture.md)."""
