"""Deletion and export by registration: each app that holds rows about a user registers its
part, and ``accounts`` calls the parts without importing any of those apps.

An app's part (:func:`register`, from its ``AppConfig.ready()``) says:

- ``erasure``: what deleting an account does to each of its references to the user
  (``"app_label.Model.field"`` -> :class:`accounts.erasure.Decision`); the deletion applies
  ``DELETE`` and ``SET_NULL`` itself, ``HANDLED`` rows are the ``depart`` function's;
- ``depart``: the app's own work when a player leaves (seats handed to bots, tickets out of the
  queue), run before any row is deleted. Departures run from the highest app down (the reverse
  of ``INSTALLED_APPS``: the queue lets go of a table it is forming before the tables settle
  their seats);
- ``export``: sections of the "export my data" document (name -> the reader that renders it
  as the API shows it to the player), in the order of ``INSTALLED_APPS``;
- ``bounded``: at most one list section that may be cut to keep the document under its cap
  (``matches``), as ``(name, iterator of entries, newest first)``.

``tests/accounts/test_erasure_registry.py`` fails while a table that holds a user is covered
by no registration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps

from .erasure import Decision
from .models import User


@dataclass(frozen=True)
class Part:
    app: str
    erasure: dict[str, Decision] = field(default_factory=dict)
    depart: Callable[[User], None] | None = None
    export: dict[str, Callable[[User], Any]] = field(default_factory=dict)
    bounded: tuple[str, Callable[[User], Iterator[Any]]] | None = None


_parts: dict[str, Part] = {}


def register(
    app: str,
    *,
    erasure: dict[str, Decision] | None = None,
    depart: Callable[[User], None] | None = None,
    export: dict[str, Callable[[User], Any]] | None = None,
    bounded: tuple[str, Callable[[User], Iterator[Any]]] | None = None,
) -> None:
    """Register ``app``'s part (again: replaces it). Every erasure label must name a model of
    ``app`` (a part is about its own tables only)."""
    for label in erasure or {}:
        if label.split(".")[0] != app:
            raise ValueError(f"{app} cannot decide for {label}")
    _parts[app] = Part(app, dict(erasure or {}), depart, dict(export or {}), bounded)


def _order() -> list[str]:
    return [config.label for config in apps.get_app_configs() if config.label in _parts]


def parts() -> list[Part]:
    """The registered parts in the order of ``INSTALLED_APPS``."""
    return [_parts[label] for label in _order()]


def erasure() -> dict[str, Decision]:
    """Every registered decision, the apps' in the order of ``INSTALLED_APPS``."""
    out: dict[str, Decision] = {}
    for part in parts():
        out.update(part.erasure)
    return out


def departures() -> list[Callable[[User], None]]:
    """The apps' departures, highest app first."""
    return [p.depart for p in reversed(parts()) if p.depart is not None]


def export_sections() -> dict[str, Callable[[User], Any]]:
    out: dict[str, Callable[[User], Any]] = {}
    for part in parts():
        out.update(part.export)
    return out


def bounded_section() -> tuple[str, Callable[[User], Iterator[Any]]] | None:
    found = [p.bounded for p in parts() if p.bounded is not None]
    if len(found) > 1:
        raise ValueError("only one section of the export may be cut to fit")
    return found[0] if found else None
