"""Run Django in a fresh process with a chosen settings module and a clean environment."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Variables that change what the settings do; a subprocess starts without them.
SETTINGS_VARIABLES = {
    "ALLOWED_HOSTS",
    "CORS_ALLOWED_ORIGINS",
    "DEBUG",
    "DJANGO_SETTINGS_MODULE",
    "NUM_PROXIES",
    "SECRET_KEY",
}


def real_secret_key() -> str:
    return secrets.token_urlsafe(50)


def clean_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in SETTINGS_VARIABLES
        and not key.startswith(("FIBSERVER_", "SECURE_", "THROTTLE_"))
    }
    env.update(extra)
    return env


def run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=120,
    )
