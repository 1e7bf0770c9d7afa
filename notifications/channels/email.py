"""Email through Django's email backend (``EMAIL_BACKEND``: the console by default, SMTP in
production): one short message per notification, to the account's address."""

from __future__ import annotations

import smtplib
from typing import Any

from django.conf import settings
from django.core.mail import send_mail

from . import Failed

SUBJECTS = {
    "your_turn": "Your turn",
    "match_started": "Your match has started",
    "match_ended": "Your match has ended",
    "deadline_reminder": "Time is running out for your move",
    "takeover": "A bot took a decision for you",
    "webhook_disabled": "A webhook of yours was disabled",
    "challenged": "You have been challenged",
    "rematch_offered": "A rematch is offered",
    "round_starting": "Your tournament is about to start",
    "followed_looking": "A player you follow is looking for a game",
}


def text_of(payload: dict[str, Any]) -> str:
    lines = [SUBJECTS.get(payload["kind"], payload["kind"]) + "."]
    if payload.get("match"):
        game, version = payload.get("game"), payload["version"]
        lines.append(f"Match {payload['match']} ({game}), version {version}.")
    if payload.get("tournament"):
        lines.append(f"Tournament {payload['tournament']}, starting at {payload['starts_at']}.")
    if payload.get("player"):
        name, game = payload["player"]["name"], payload.get("game")
        lines.append(f"{name} is looking for a game of {game}.")
    if payload.get("deadline"):
        lines.append(f"Deadline: {payload['deadline']}.")
    if payload.get("url"):
        lines.append(f"Webhook: {payload['url']}.")
    return "\n".join(lines) + "\n"


def send(address: str, payload: dict[str, Any]) -> None:
    """One message to ``address`` (read with the delivery: a send makes no query)."""
    if not address:
        raise Failed("the account has no email address", permanent=True)
    subject = "fibserver: " + SUBJECTS.get(payload["kind"], payload["kind"])
    sender = getattr(settings, "DEFAULT_FROM_EMAIL", "fibserver@localhost")
    try:
        send_mail(subject, text_of(payload), sender, [address])
    except (smtplib.SMTPException, OSError) as error:
        raise Failed(f"{type(error).__name__}: {error}") from None
