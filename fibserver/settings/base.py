"""Django settings shared by every process: ``fibserver.settings`` (the default) is this module.

Everything that differs between a laptop, CI and production comes from the environment
(README.md, "Configuration"):

- ``DATABASE_URL``  (default: SQLite file ``db.sqlite3`` beside ``manage.py``)
- ``REDIS_URL``     (optional; Celery broker/result backend, shared cache and pub/sub when set)
- ``SECRET_KEY``, ``DEBUG``, ``ALLOWED_HOSTS``, ``CORS_ALLOWED_ORIGINS``, ``NUM_PROXIES``, ...

The defaults are safe for a bare process (``manage.py``, the tests): no debug, local hosts
only. ``fibserver.settings.dev`` (``scripts/serve``) turns debugging on; ``fibserver.settings
.production`` (docker-compose.yml) insists on a real secret key and HTTPS hardening.
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# --- Core ------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", False)

#: For development and tests only; the production settings refuse it (and any weak key).
DEV_SECRET_KEY = "django-insecure-dev-only-key-change-me-in-production-0123456789"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # runserver leaves static files to WhiteNoise too
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc assets, served locally
    "corsheaders",
    "accounts",
    "games",
    "notifications",
    "api",
    "web",  # the reference web client at /play/
    "matchmaking",  # quick play: the queue, the matcher, blocks
    "tournaments",  # Fibber's Dice tournaments, above games
    "fibserver",  # the entry points: starts the embedded runner under runserver
]

MIDDLEWARE = [
    "kernel.ops.middleware.OpsMiddleware",  # outermost: request id, request metrics and log
    "api.middleware.JsonErrorsMiddleware",  # first: every error under /api/ has the JSON shape
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files, with DEBUG off too
    "corsheaders.middleware.CorsMiddleware",
    "api.middleware.InputGuardMiddleware",  # hostile input under /api/ refused before any view
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fibserver.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "fibserver.wsgi.application"
ASGI_APPLICATION = "fibserver.asgi.application"

# --- Database --------------------------------------------------------------------------------

# DB_CONN_MAX_AGE: keep connections open in the WSGI workers; set it to 0 in the ASGI follower
# process, where sync code runs in a thread per request and persistent connections pile up.
# DB_CONN_HEALTH_CHECKS (off by default): Django's health check costs a `SELECT 1` round trip
# at the start of every request that uses a persistent connection. Without it a connection
# that died (a database restart, a failover) fails the one request that meets it, which then
# closes it (Django drops a connection after an error it cannot use), and the worker's next
# request connects afresh; idle connections older than DB_CONN_MAX_AGE are closed anyway. One
# failed request per worker after a restart is the price of not paying a round trip on every
# request; turn it on where the database drops connections often.
DATABASES = {
    # A blank DATABASE_URL (``DATABASE_URL= scripts/serve``) means the default, as for REDIS_URL.
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
        conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", False),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_SERVER_SIDE_BINDING", False
):
    # Opt-in: psycopg's server-side parameter binding, which lets psycopg prepare a statement
    # the ORM sends again and again (after `prepare_threshold` uses, per connection). Off by
    # default: bench/RESULTS.md measures what it gains before it is made the default.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 2}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite as a server (the embedded default): WAL lets readers run beside the one writer;
    # write transactions take the write lock when they begin (IMMEDIATE), so two of them never
    # deadlock upgrading a read lock (the "database is locked" 500); a busy writer is waited
    # for up to `timeout` seconds instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests get a file too (one per xdist worker), not the shared-cache in-memory database,
    # whose table locks fail at once when a second thread (the embedded runner) writes.
    # The file is named after the test run (xdist's run id, shared by its workers, each of which
    # adds its own suffix; else this process), so two runs in one checkout never share a file.
    _run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:12] or str(os.getpid())
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{_run}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth, i18n, static ----------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Served by WhiteNoise from STATIC_ROOT (``manage.py collectstatic``; the Dockerfile runs it),
# or straight from the apps' static directories while DEBUG is on.
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"

# Request bodies are small JSON actions; anything bigger is rejected early.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024

# --- Proxies ---------------------------------------------------------------------------------

# Reverse proxies in front of the app whose X-Forwarded-* headers we trust (docker-compose.yml:
# one, nginx). With none, a client could claim any address or scheme in those headers.
NUM_PROXIES = env_int("NUM_PROXIES", 0)
if NUM_PROXIES:
    # The proxy sets X-Forwarded-Proto to the scheme the client used (deploy/nginx.conf).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- CORS ------------------------------------------------------------------------------------

CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS")

# --- Django REST Framework / OpenAPI ---------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.BearerTokenAuthentication",  # Authorization: Bearer <token>
        "api.authentication.CachedTokenAuthentication",  # Authorization: Token <token>
        "rest_framework.authentication.SessionAuthentication",  # browsable API and admin
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticatedOrReadOnly",
    ],
    # JSON through orjson (api/rest/renderers.py); the browsable API in development.
    "DEFAULT_RENDERER_CLASSES": [
        "api.rest.renderers.OrjsonRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    # Views opt in with `throttle_scope`; keyed by client IP for anonymous callers. The history
    # lives in the default cache: Redis when REDIS_URL is set, so every process shares it.
    "DEFAULT_THROTTLE_RATES": {
        "guest": os.environ.get("THROTTLE_GUEST", "30/hour"),
        "register": os.environ.get("THROTTLE_REGISTER", "20/hour"),
        "login": os.environ.get("THROTTLE_LOGIN", "20/min"),
        "actions": os.environ.get("THROTTLE_ACTIONS", "1200/min"),
    },
    # How many trusted reverse proxies stand in front of the app: the client's address is the
    # NUM_PROXIES-th entry of X-Forwarded-For from the right (each proxy appends the address it
    # saw). 0 (the default) ignores the header and uses REMOTE_ADDR. Never None: DRF would then
    # trust the whole header, which any client can forge.
    "NUM_PROXIES": NUM_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "fibserver API",
    "DESCRIPTION": "Play Fab Fib, Fibber, Fibber's Dice and Skull.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/ and /api/redoc/ load their assets from this server (drf-spectacular-sidecar),
    # never from a CDN, and Swagger UI does not send the schema to an online validator.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# --- Redis / Celery --------------------------------------------------------------------------

REDIS_URL = os.environ.get("REDIS_URL", "").strip() or None

# The default cache holds DRF's throttle history. With Redis every process (each gunicorn
# worker, each container) counts against the same budget; without it (the embedded default,
# one process) local memory is enough. Keys carry a prefix, beside Celery's own keys.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "fibserver",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# With Redis, tasks go to Celery workers; without it they run on the embedded runner thread
# (FIBSERVER["TASKS"] below), and Celery is not used at all.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("FIBSERVER_QUEUE", "celery")
# A prefix for every key Celery keeps in Redis (queues, unacknowledged tasks), for deployments
# (or test runs) that share one Redis database.
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = (
    {"global_keyprefix": os.environ["FIBSERVER_BROKER_PREFIX"]}
    if os.environ.get("FIBSERVER_BROKER_PREFIX")
    else {}
)
# Celery's Django integration closes the database connection around every task unless this is
# set: a deadline's timer or a bot turn would otherwise pay a new connection each (and the
# sweep every second). A worker reuses its connection for this many tasks, then reconnects.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)

# --- Logging ---------------------------------------------------------------------------------

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
# "text" (the default here) or "json": one JSON object a line with the request id, match id and
# user id of the work at hand (kernel/ops/logs.py; the production default).
LOG_FORMAT = os.environ.get("LOG_FORMAT", "").strip().lower() or "text"
# One log line per request (method, route, status, milliseconds; kernel/ops/middleware.py).
LOG_REQUESTS = env_bool("LOG_REQUESTS", False)


def logging_config(level: str, fmt: str) -> dict[str, Any]:
    """Django's LOGGING: every line through one handler on stderr, in ``fmt`` (text or json),
    with the work's context (request id, match id, user id) on each record."""
    if fmt not in {"text", "json"}:
        raise ImproperlyConfigured("LOG_FORMAT must be text or json.")
    formatters: dict[str, Any] = {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "kernel.ops.logs.JsonFormatter"},
    }
    handler = {
        "class": "logging.StreamHandler",
        "formatter": fmt,
        "filters": ["context"],
    }
    own = {"handlers": ["console"], "level": level, "propagate": False}
    loggers = {"django": own, "celery": own}
    if fmt == "json":
        # The servers' own lines (uvicorn's start-up and errors) in the same format.
        loggers |= {"uvicorn": own, "uvicorn.error": own, "uvicorn.access": own}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "kernel.ops.logs.ContextFilter"}},
        "formatters": {fmt: formatters[fmt]},
        "handlers": {"console": handler},
        "root": {"handlers": ["console"], "level": level},
        "loggers": loggers,
    }


LOGGING = logging_config(LOG_LEVEL, LOG_FORMAT)

# --- Metrics (kernel/ops, docs/operations.md) ------------------------------------------------

# /metrics answers only with `Authorization: Bearer <METRICS_TOKEN>`; unset, it does not exist
# (404). Counted across processes with PROMETHEUS_MULTIPROC_DIR (read by prometheus-client).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip() or None

# --- fibserver ---------------------------------------------------------------------------------


def _fibserver_settings() -> dict[str, Any]:
    return {
        # Where follow-up work (bot turns, deadline timers, end-of-match work) runs: "celery"
        # on Celery workers (needs REDIS_URL), "embedded" on the runner thread of the server
        # process (fibserver/runner.py: the README's one command), "inline" right after the commit
        # in the calling thread (tests and scripts).
        "TASKS": os.environ.get("FIBSERVER_TASKS", "celery" if REDIS_URL else "embedded"),
        # Pause before a bot seat acts, on a Celery worker or the embedded runner (seconds).
        "BOT_DELAY_SECONDS": float(os.environ.get("FIBSERVER_BOT_DELAY", "0.5")),
        # After this many consecutive time-outs a human seat is marked away (the bot plays on).
        "AWAY_AFTER_TIMEOUTS": 3,
        # The bot level that takes a decision for a human whose deadline passed.
        "TAKEOVER_BOT_LEVEL": os.environ.get("FIBSERVER_TAKEOVER_BOT_LEVEL", "strong"),
        # The sweep (Celery beat, or the embedded runner) runs this often (seconds).
        "SWEEP_SECONDS": float(os.environ.get("FIBSERVER_SWEEP_SECONDS", "1.0")),
        # A bot turn still waiting after this long is queued again by the sweep (a lost task).
        "BOT_STALL_SECONDS": float(os.environ.get("FIBSERVER_BOT_STALL_SECONDS", "10")),
        # Deadlines nearer than this get a precise timer task; later ones are left to the sweep
        # (a Redis broker re-delivers unacknowledged tasks after its visibility timeout, 1 h).
        "DEADLINE_TIMER_HORIZON_SECONDS": 15 * 60,
        # Lowest seconds per decision a live match may ask for.
        "LIVE_MIN_SECONDS": int(os.environ.get("FIBSERVER_LIVE_MIN_SECONDS", "10")),
        # Idempotency records are kept this long (seconds), then purged every PURGE_SECONDS.
        "IDEMPOTENCY_TTL_SECONDS": int(os.environ.get("FIBSERVER_IDEMPOTENCY_TTL", "86400")),
        "PURGE_SECONDS": float(os.environ.get("FIBSERVER_PURGE_SECONDS", "600")),
        # The quick-play matcher forms tables from the waiting queue this often (seconds).
        "QUEUE_SECONDS": float(os.environ.get("FIBSERVER_QUEUE_SECONDS", "0.5")),
        # Ratings and leaderboards (docs/ratings.md). A rating is provisional, and off the
        # rating board, until this many rated matches; the other boards list players with this
        # many matches in the game, and the bluff boards also need this many attempts (bluffs,
        # calls, claims). Stored per career: after changing one, run `manage.py stats_rebuild`.
        "PROVISIONAL_MATCHES": env_int("FIBSERVER_PROVISIONAL_MATCHES", 10),
        "BOARD_MIN_MATCHES": env_int("FIBSERVER_BOARD_MIN_MATCHES", 10),
        "BOARD_MIN_ATTEMPTS": env_int("FIBSERVER_BOARD_MIN_ATTEMPTS", 10),
        # How many recent events a match view carries.
        "RECENT_EVENTS": 20,
        # The longest long-poll wait on the events endpoint (seconds).
        "MAX_WAIT_SECONDS": 30,
        # Whether the events endpoint honours `wait` under WSGI too. Only the ASGI follower
        # holds requests cheaply; a gunicorn sync worker that waited would serve nobody else
        # meanwhile, so WSGI answers at once with what there is. On only for the threaded
        # development server (fibserver.settings.dev, i.e. scripts/serve).
        "WSGI_LONG_POLL": env_bool("FIBSERVER_WSGI_LONG_POLL", False),
        # The hot statements (a move's read and write, a view's read, a conditional GET's tag)
        # with server-side binding, so PostgreSQL prepares them once per connection
        # (games/hotsql.py). Off for a connection pooler in transaction mode.
        "PREPARED_STATEMENTS": env_bool("DB_PREPARED_STATEMENTS", True),
    }


FIBSERVER = _fibserver_settings()

# --- GraphQL (api/graphql, docs/graphql.md) ----------------------------------------------------

GRAPHQL = {
    # `__schema` / `__type` queries (GraphiQL and code generators use them; the SDL is committed
    # as api/graphql/schema.graphql either way). Off by default in production.
    "INTROSPECTION": env_bool("GRAPHQL_INTROSPECTION", True),
    # Checked before any resolver runs (api/graphql/limits.py).
    "MAX_TOKENS": env_int("GRAPHQL_MAX_TOKENS", 2000),
    "MAX_DEPTH": env_int("GRAPHQL_MAX_DEPTH", 8),
    "MAX_ALIASES": env_int("GRAPHQL_MAX_ALIASES", 15),
    "MAX_COST": env_int("GRAPHQL_MAX_COST", 10_000),
    # Checked before parsing and before validation (api/graphql/guard.py): nesting of the
    # text, fields and fragment spreads once fragments are expanded, selections of one name
    # in one place (what bounds validation's time).
    "MAX_NESTING": env_int("GRAPHQL_MAX_NESTING", 32),
    "MAX_FIELDS": env_int("GRAPHQL_MAX_FIELDS", 400),
    "MAX_REPEATS": env_int("GRAPHQL_MAX_REPEATS", 4),
    # The largest `first` of a page (`matches`).
    "MAX_PAGE": 100,
    # Subscriptions one websocket may hold at once.
    "MAX_SUBSCRIPTIONS": 20,
}

# --- Notifications (notifications/, docs/notifications.md) -------------------------------------

NOTIFICATIONS = {
    # Part of an async decision's time left when its reminder fires.
    "REMINDER_LEFT": float(os.environ.get("NOTIFICATIONS_REMINDER_LEFT", "0.2")),
    # Delivery attempts of one notification to one channel, and the back-off between them
    # (seconds, doubled after each failure, at most BACKOFF_MAX_SECONDS).
    "MAX_ATTEMPTS": env_int("NOTIFICATIONS_MAX_ATTEMPTS", 8),
    "BACKOFF_SECONDS": float(os.environ.get("NOTIFICATIONS_BACKOFF_SECONDS", "2")),
    "BACKOFF_MAX_SECONDS": 3600.0,
    # Deliveries failed for good, in a row, before a webhook is disabled; webhooks per user.
    "WEBHOOK_MAX_FAILURES": env_int("NOTIFICATIONS_WEBHOOK_MAX_FAILURES", 10),
    "MAX_WEBHOOKS": 5,
    # Notifications are deleted this many days after they were written (the purge).
    "KEEP_DAYS": env_int("NOTIFICATIONS_KEEP_DAYS", 90),
    # Webhooks over plain http, and to loopback or private addresses: off (a trusted network
    # or a test may turn them on).
    "WEBHOOK_ALLOW_HTTP": env_bool("NOTIFICATIONS_WEBHOOK_ALLOW_HTTP", False),
    "WEBHOOK_ALLOW_PRIVATE": env_bool("NOTIFICATIONS_WEBHOOK_ALLOW_PRIVATE", False),
    # Web Push: the VAPID key (a P-256 private key, raw base64url or PEM; `manage.py
    # vapid_key` makes one), empty: derived from SECRET_KEY; the `sub` claim push services
    # may write to; push subscriptions per user. Push endpoints follow the webhook rule above.
    "VAPID_PRIVATE_KEY": os.environ.get("NOTIFICATIONS_VAPID_PRIVATE_KEY", ""),
    "VAPID_SUBJECT": os.environ.get("NOTIFICATIONS_VAPID_SUBJECT", "mailto:fibserver@example.com"),
    "MAX_PUSH_SUBSCRIPTIONS": 10,
    # Mobile push (notifications/channels/mobile.py): a platform without its credentials is off.
    # FCM HTTP v1: the service account's JSON (text or a file path) and the project id (default:
    # the JSON's). APNs: the .p8 key (text or a file path), its key id, the team id, the app's
    # bundle id (topic), and the development service or not. Phones per user.
    "FCM_SERVICE_ACCOUNT": os.environ.get("NOTIFICATIONS_FCM_SERVICE_ACCOUNT", ""),
    "FCM_PROJECT_ID": os.environ.get("NOTIFICATIONS_FCM_PROJECT_ID", ""),
    "APNS_KEY": os.environ.get("NOTIFICATIONS_APNS_KEY", ""),
    "APNS_KEY_ID": os.environ.get("NOTIFICATIONS_APNS_KEY_ID", ""),
    "APNS_TEAM_ID": os.environ.get("NOTIFICATIONS_APNS_TEAM_ID", ""),
    "APNS_TOPIC": os.environ.get("NOTIFICATIONS_APNS_TOPIC", ""),
    "APNS_SANDBOX": env_bool("NOTIFICATIONS_APNS_SANDBOX", False),
    "MAX_DEVICES": 10,
    # Days a year a player may pause their async clocks (vacation), and the longest one.
    "VACATION_DAYS_PER_YEAR": env_int("NOTIFICATIONS_VACATION_DAYS_PER_YEAR", 30),
    # The daily digest: sent from this local hour on, looked for every DIGEST_SECONDS.
    "DIGEST_HOUR": env_int("NOTIFICATIONS_DIGEST_HOUR", 8),
    "DIGEST_SECONDS": float(os.environ.get("NOTIFICATIONS_DIGEST_SECONDS", "300")),
    # Entrants of a tournament with an announced start are told this long before it.
    "ROUND_NOTICE_SECONDS": float(os.environ.get("NOTIFICATIONS_ROUND_NOTICE_SECONDS", "600")),
    # A player who queues tells their followers (followed_looking) once the ticket has waited
    # LOOKING_DELAY_SECONDS (a ticket cancelled or matched sooner tells nobody), at most once
    # per follower and player in LOOKING_WINDOW_SECONDS.
    "LOOKING_DELAY_SECONDS": float(os.environ.get("NOTIFICATIONS_LOOKING_DELAY_SECONDS", "10")),
    "LOOKING_WINDOW_SECONDS": float(os.environ.get("NOTIFICATIONS_LOOKING_WINDOW_SECONDS", "1800")),
}

# Email (the notification channel and the digest). With no EMAIL_HOST the messages are written
# to the console (the process's stdout); with one, they go through SMTP.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = EMAIL_HOST or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "fibserver@localhost"
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on.")

if FIBSERVER["TASKS"] not in {"celery", "embedded", "inline"}:
    raise ImproperlyConfigured("FIBSERVER_TASKS must be celery, embedded or inline.")
if FIBSERVER["TASKS"] == "celery" and not REDIS_URL:
    raise ImproperlyConfigured("FIBSERVER_TASKS=celery needs REDIS_URL (the Celery broker).")
