"""Production (docker-compose.yml, the image): :mod:`.base` made safe for the internet.

- No debug, whatever the environment says.
- ``SECRET_KEY`` must be set and strong: the development key, a ``django-insecure-`` key or a
  short or repetitive one stops the process at start-up (``ImproperlyConfigured``).
- ``ALLOWED_HOSTS`` must be listed (comma-separated); nothing is allowed by default.
- HTTPS hardening (redirect, HSTS, secure cookies), each switch configurable, all on unless
  ``FIBSERVER_HTTPS=false`` says that the public entry point serves plain HTTP.
- Static files collected with hashed, compressed names (the Dockerfile runs collectstatic).

``manage.py check --deploy`` is clean with these settings (tests/deploy/test_settings.py).
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DEV_SECRET_KEY, LOG_LEVEL, env_bool, env_int, env_list, logging_config

DEBUG = False

# JSON log lines (kernel/ops/logs.py, docs/operations.md). A line per request is opt-in
# (LOG_REQUESTS, about 50 µs of CPU a request): the proxy's access log has one for every request,
# with the same request id.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or "json"
LOGGING = logging_config(LOG_LEVEL, LOG_FORMAT)


def _secret_key() -> str:
    """The SECRET_KEY from the environment, if it is one Django's deploy check accepts."""
    key = os.environ.get("SECRET_KEY", "")
    if key == DEV_SECRET_KEY or key.startswith("django-insecure-"):
        raise ImproperlyConfigured("SECRET_KEY is the insecure development key; set a real one.")
    if len(key) < 50 or len(set(key)) < 5:
        raise ImproperlyConfigured(
            "SECRET_KEY is missing or weak: set at least 50 random characters, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    return key


SECRET_KEY = _secret_key()

METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip() or None
if METRICS_TOKEN is not None and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN is too short: set at least 16 random characters.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")

# GraphQL introspection only when asked for (the SDL is public: api/graphql/schema.graphql).
GRAPHQL = {**GRAPHQL, "INTROSPECTION": env_bool("GRAPHQL_INTROSPECTION", False)}  # noqa: F405

# --- HTTPS -----------------------------------------------------------------------------------

# The public entry point speaks HTTPS. Behind the proxy, Django knows a request was HTTPS from
# X-Forwarded-Proto, trusted only with NUM_PROXIES set (base.py: SECURE_PROXY_SSL_HEADER).
HTTPS = env_bool("FIBSERVER_HTTPS", True)

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
# Health probes come over the internal network in plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz/$", r"^livez/$", r"^readyz/$", r"^metrics/?$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
# Browsers only heed HSTS on HTTPS responses. One year, as the deploy check asks.
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

SILENCED_SYSTEM_CHECKS = [
    # security.W021 ("SECURE_HSTS_PRELOAD is not True"): the preload lists of browsers take a
    # whole registrable domain, submitted by its owner, and bind every host on it to HTTPS for
    # good. That is a decision about the domain, not about this API (usually one host of it),
    # so it stays opt-in (SECURE_HSTS_PRELOAD=true) and the warning does not apply by default.
    "security.W021",
]

# --- Static files ----------------------------------------------------------------------------

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names (cached for a year by WhiteNoise) and gzip copies, made by collectstatic.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- API -------------------------------------------------------------------------------------

# JSON only: DRF's browsable API (HTML pages with forms) is a development convenience; the
# interactive documentation is /api/docs/.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_RENDERER_CLASSES": ["api.rest.renderers.OrjsonRenderer"],
}
