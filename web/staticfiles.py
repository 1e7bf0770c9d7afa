"""Static files as ``scripts/serve`` serves them: collected with hashed names and gzip copies, so
WhiteNoise answers with a compressed body and caches each file for a year (a changed file gets
a new name), as in production.

The web table is plain ES modules importing each other (``import ... from "./api.js"``): the
imports are rewritten to the hashed names too, so every module is cached and none goes stale.
With ``DEBUG`` on (the development settings) Django would link the plain names; this storage
links the hashed ones whatever ``DEBUG`` says."""

from __future__ import annotations

from typing import Any

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedModulesStorage(CompressedManifestStaticFilesStorage):
    # Django's rewriting of module imports, for the web table's modules only (other bundles,
    # such as GraphiQL's, have strings that look like imports and are left alone).
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        (
            "web/*.js",
            CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns[1],
        ),
    )

    def url(self, name: Any, force: bool = False) -> str:
        return super().url(name, force=True)
