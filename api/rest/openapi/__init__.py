"""The OpenAPI description of the REST API beyond what drf-spectacular infers.

- :mod:`.components`: the response shapes as JSON-schema dicts (OpenAPI 3.0 schema objects),
  one named component each: matches, lists, events, errors, replays, statistics;
- :mod:`.games`: what depends on the game, per game: options, legal-action entries and their
  domains, actions, the public and private parts of a view, statistics;
- :mod:`.extensions`: the drf-spectacular glue that puts those components into the generated
  schema, makes strict input serializers ``additionalProperties: false`` and documents the
  strict fields;
- :mod:`.responses`: the documented answers of each operation (its errors by status).

``tests/api/test_openapi*.py`` validate real payloads (views of random matches of every game and
variant, whole API responses) against these components, so they cannot drift from the engines.
"""
