"""Quick play: the waiting queue, the matcher that forms tables from it, and blocks
(docs/matchmaking.md)."""
