"""Typed domain signals: a lower app announces what happened, upper apps listen.

A :class:`Signal` is declared in the app where the thing happens (``games.signals``,
``matchmaking.signals``) with the exact parameters its listeners take; the upper app connects
plain functions in its ``AppConfig.ready()``. Unlike Django's ``Signal`` the call is typed
(mypy checks every ``send`` and every listener against the declaration), listeners run in the
order they were connected, inside the sender's transaction, and an exception in a listener is
the sender's: a notification that cannot be written fails its cause, as when it was written
inline. A listener that writes rows for a step gives them to the step's sink
(``games.services.sink``), so they ride in the step's one statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, ParamSpec

P = ParamSpec("P")


class Signal(Generic[P]):
    def __init__(self, name: str, doc: str = "") -> None:
        self.name = name
        self.__doc__ = doc
        self._listeners: list[Callable[P, None]] = []

    def connect(self, listener: Callable[P, None]) -> Callable[P, None]:
        """Add ``listener`` (once: connecting it again changes nothing); usable as a
        decorator."""
        if listener not in self._listeners:
            self._listeners.append(listener)
        return listener

    def disconnect(self, listener: Callable[P, None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    @property
    def listeners(self) -> tuple[Callable[P, None], ...]:
        return tuple(self._listeners)

    def send(self, *args: P.args, **kwargs: P.kwargs) -> None:
        for listener in self._listeners:
            listener(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Signal {self.name}: {len(self._listeners)} listener(s)>"
