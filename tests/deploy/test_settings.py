"""Safe defaults: a bare process is not in debug, production needs a real secret key and
passes Django's deployment checks."""

from __future__ import annotations

import importlib
import json
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from .helpers import real_secret_key, run

SHOW = (
    "import importlib, json, sys; s = importlib.import_module(sys.argv[1]); "
    "print(json.dumps({'debug': s.DEBUG, 'wsgi_long_poll': s.FIBSERVER['WSGI_LONG_POLL']}))"
)


def settings_of(module: str, **env: str) -> dict:
    done = run(["-c", SHOW, module], **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_bare_process_is_not_in_debug():
    assert settings_of("fibserver.settings") == {"debug": False, "wsgi_long_poll": False}


@pytest.mark.slow  # a few seconds (a subprocess, or 50 matches): the full tier
def test_a_blank_database_url_means_the_default_sqlite_file():
    show = "import django.conf as c, json; print(json.dumps(c.settings.DATABASES['default']))"
    done = run(
        ["-c", f"import django; django.setup(); {show}"],
        DJANGO_SETTINGS_MODULE="fibserver.settings",
        DATABASE_URL="  ",
    )
    assert done.returncode == 0, done.stderr
    database = json.loads(done.stdout)
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"].endswith("db.sqlite3")


def _email_of(**env: str) -> dict:
    show = (
        "import importlib, json; s = importlib.import_module('fibserver.settings'); "
        "print(json.dumps({'backend': s.EMAIL_BACKEND, 'host': s.EMAIL_HOST, "
        "'port': s.EMAIL_PORT}))"
    )
    done = run(["-c", show], **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_email_goes_to_the_console_until_an_smtp_server_is_named():
    assert _email_of()["backend"] == "django.core.mail.backends.console.EmailBackend"
    named = _email_of(EMAIL_HOST="mail.example.org", EMAIL_PORT="587")
    assert named == {
        "backend": "django.core.mail.backends.smtp.EmailBackend",
        "host": "mail.example.org",
        "port": 587,
    }


def test_email_tls_and_ssl_at_once_are_refused():
    done = run(["-c", "import fibserver.settings"], EMAIL_USE_TLS="true", EMAIL_USE_SSL="true")
    assert done.returncode != 0 and "EMAIL_USE_TLS" in done.stderr


def test_debug_only_when_asked_for():
    assert settings_of("fibserver.settings", DEBUG="true")["debug"] is True


def test_the_development_settings_debug_and_may_long_poll():
    assert settings_of("fibserver.settings.dev") == {"debug": True, "wsgi_long_poll": True}


@pytest.mark.parametrize(
    "key",
    [
        None,
        "",
        "django-insecure-dev-only-key-change-me-in-production-0123456789",  # the old default
        "django-insecure-" + "x1y2z3" * 10,
        "too-short",
        "a" * 64,
    ],
)
def test_production_settings_refuse_a_missing_or_insecure_secret_key(monkeypatch, key):
    from fibserver.settings import base

    if key is None:
        monkeypatch.delenv("SECRET_KEY", raising=False)
    else:
        monkeypatch.setenv("SECRET_KEY", key)
    monkeypatch.delitem(sys.modules, "fibserver.settings.production", raising=False)
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        importlib.import_module("fibserver.settings.production")
    assert base.SECRET_KEY  # development keeps its key: only production insists


def test_production_settings_accept_a_real_secret_key(monkeypatch):
    key = real_secret_key()
    monkeypatch.setenv("SECRET_KEY", key)
    monkeypatch.delitem(sys.modules, "fibserver.settings.production", raising=False)
    production = importlib.import_module("fibserver.settings.production")
    assert key == production.SECRET_KEY
    assert production.DEBUG is False


@pytest.mark.slow  # a process per case running `check --deploy`
@pytest.mark.parametrize(
    "env",
    [
        {},
        {"NUM_PROXIES": "1", "REDIS_URL": "redis://redis:6379/0"},  # as in docker-compose.yml
    ],
    ids=["direct", "behind-the-proxy"],
)
def test_check_deploy_is_clean_with_the_production_settings(env):
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        DJANGO_SETTINGS_MODULE="fibserver.settings.production",
        SECRET_KEY=real_secret_key(),
        ALLOWED_HOSTS="api.example.com",
        **env,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNINGS" not in output and "ERRORS" not in output, output
