"""Outages in the one error shape: when the database or Redis does not answer, every process
answers ``503`` with code ``unavailable`` and a ``Retry-After`` header (docs/api.md, "Errors";
docs/operations.md, "Outages"), never a bare 500 or a page of text.

:func:`is_outage` says whether an exception means that a dependency is away (a database
connection refused, lost or closed; a Redis or broker connection refused, reset or timed out),
following the exception's causes, so a wrapped error counts too. :func:`unavailable` is the
application error the API answers in its place.
"""

from __future__ import annotations

import functools

from kernel.errors import Unavailable

#: Seconds a client is asked to wait before trying again (``Retry-After``).
RETRY_AFTER_SECONDS = 5

MESSAGE = "The service is briefly unavailable (its database or cache does not answer); try again."


@functools.cache
def outage_errors() -> tuple[type[BaseException], ...]:
    from django.db import InterfaceError, OperationalError
    from kombu.exceptions import OperationalError as BrokerError
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    raw: tuple[type[BaseException], ...] = ()
    try:  # the driver's own, where a query ran outside Django's wrapper (games/hotsql.py)
        import psycopg

        raw = (psycopg.OperationalError, psycopg.InterfaceError)
    except ImportError:
        pass
    return (
        *raw,
        OperationalError,
        InterfaceError,
        RedisConnectionError,
        RedisTimeoutError,
        BrokerError,
        ConnectionError,  # the OS's: refused, reset, broken pipe
    )


def is_outage(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it) is a dependency that does not answer."""
    seen = 0
    while error is not None and seen < 8:
        if isinstance(error, outage_errors()):
            return True
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def unavailable() -> Unavailable:
    return Unavailable(MESSAGE, retry_after=RETRY_AFTER_SECONDS)


def retry_after_header() -> tuple[str, str]:
    return ("Retry-After", str(RETRY_AFTER_SECONDS))
