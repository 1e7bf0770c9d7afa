"""Conditional GETs of a match view, for both HTTP faces (REST and the fast lane): the view's
``ETag`` on an answer, and whether ``If-None-Match`` already holds it."""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpResponseBase

R = TypeVar("R", bound=HttpResponseBase)


def tag_matches(sent: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` value holds ``tag``."""
    return bool(sent) and tag in [t.strip() for t in sent.split(",")]  # type: ignore[union-attr]


def tagged(response: R, tag: str) -> R:
    """``response`` (DRF's or a plain Django one) with the view's ``ETag``."""
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    return response
