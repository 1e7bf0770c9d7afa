"""The fast lane: the two hottest requests of a client at play — its moves and its view — and
the long-poll of its events, served without the machinery they do not need, answering exactly
what the full path (Django's handler with every middleware, DRF's views) answers.

- :mod:`.entry`    the WSGI application (gunicorn): plain moves and views served outside
                   Django's request cycle, with Django's own request object and middleware code;
- :mod:`.move`     ``POST /api/matches/{id}/actions/`` as a plain Django view;
- :mod:`.view`     ``GET /api/matches/{id}/`` as a plain Django view;
- :mod:`.follower` ``GET /api/matches/{id}/events/`` on the ASGI follower, outside Django's
                   request cycle;
- :mod:`.answers`  what the plain views share: who is calling, the answers and their headers;
- :mod:`.probe`    Django's own host, HTTPS and answer-header logic, for the entry and the
                   follower.

Whatever the fast lane does not serve itself — another method, a cookie, a token that fails,
another content type, an error the full path words — it **hands over** (:class:`HandOver`):
the full path then answers the request as it always has. The documented DRF twins
(``api.rest.matches.ActionView``, ``MatchDetailView``, ``EventsView``) describe these routes in
the OpenAPI schema; tests hold the two paths to the same answers, headers included.
"""


class HandOver(Exception):
    """The fast lane does not serve this request: the full path answers it, untouched (nothing
    has been read from its body or counted against a rate limit)."""
