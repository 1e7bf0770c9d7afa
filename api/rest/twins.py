"""A served view that is no DRF view names the DRF view that documents it in the OpenAPI
schema (``api.rest.schema_urls`` puts the twin in its place)."""

from __future__ import annotations

from typing import Any

from rest_framework.views import APIView


def documented_by(view: Any, twin: type[APIView]) -> Any:
    """``view``, served as it is, documented in the OpenAPI schema by its DRF ``twin``."""
    view.schema_twin = twin
    return view
