"""The read side: everything that leaves the database for a client, redacted for the caller
(docs/architecture.md: every payload derived from a match's state passes through the engine's
``view``; only a finished match reveals its record).

One module per thing read; in each, ``read_<what>`` reads it from the database (for a
``caller``, who may be anonymous) and ``render_<what>`` builds it from rows already in hand:

- :mod:`.views`      the caller's view of a match and its ETag; the match a caller may see;
- :mod:`.feeds`      the caller's event feed after a sequence number;
- :mod:`.lists`      the open lobby, a player's matches and turns;
- :mod:`.replays`    a finished match's record, its step-by-step re-run and its statistics;
- :mod:`.leaderboards` ratings, boards and player statistics;
- :mod:`.redaction`  whose eyes a caller looks through, and each log row as a seat may see it;
- :mod:`.store`      the one seam between the readers and the database vendor (snapshots, the
                     one-statement reads of PostgreSQL).
"""
