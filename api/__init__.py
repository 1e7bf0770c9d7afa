"""The API: two faces — REST (DRF, with its fast lane ``api.fast``) and GraphQL (Strawberry) — over
one play layer (``api.play``: inputs, moves, query parameters, the wait loop), itself over
``games.services`` (writers) and ``games.reads`` (readers)."""
