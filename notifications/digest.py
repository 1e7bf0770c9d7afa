"""The daily digest: one email a day to each player who asked for it (``Preference.digest``),
listing the matches waiting for them (their turn: :func:`games.reads.lists.read_turns`, the
same public facts as ``GET /api/me/turns/``).

A pass (:func:`digests_send`, every ``DIGEST_SECONDS`` by Celery beat or the embedded runner)
sends it to each player whose local time (their preference's time zone) is past
``DIGEST_HOUR`` and who has had none on that local date. The date is claimed first, in one
conditional ``UPDATE``, so two passes at once never send two; nothing waiting, nothing sent
(the day is spent all the same); a send that fails gives the day back, to be tried at the next
pass.
"""

from __future__ import annotations

import logging
import smtplib
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.mail import send_mail
from django.utils import timezone

from .models import Preference
from .prefs import valid_time_zone

log = logging.getLogger(__name__)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, "NOTIFICATIONS", {}).get(name, default)


def local_day(pref: Preference, now: datetime) -> date | None:
    """The player's local date if their digest hour has come on it, else ``None``."""
    zone = ZoneInfo(pref.time_zone) if valid_time_zone(pref.time_zone) else ZoneInfo("UTC")
    local = now.astimezone(zone)
    return local.date() if local.hour >= int(_setting("DIGEST_HOUR", 8)) else None


def text_of(turns: list[dict[str, Any]], zone: str) -> str:
    lines = [f"{len(turns)} match{'es' if len(turns) != 1 else ''} waiting for you:", ""]
    where = ZoneInfo(zone) if valid_time_zone(zone) else ZoneInfo("UTC")
    for turn in turns:
        due = ""
        if turn["deadline"]:
            when = datetime.fromisoformat(turn["deadline"]).astimezone(where)
            due = f", due {when:%Y-%m-%d %H:%M} ({where.key})"
        lines.append(f"- {turn['game']}: match {turn['match']}, seat {turn['seat']}{due}")
    return "\n".join(lines) + "\n"


def digests_send(*, now: datetime | None = None) -> int:
    """One pass: the digests due now. Returns how many were sent."""
    from games.reads.lists import read_turns

    now = now or timezone.now()
    sent = 0
    rows = (
        Preference.objects.filter(digest=True)
        .exclude(user__email="")
        .select_related("user")
        .order_by("pk")
    )
    for pref in rows.iterator(chunk_size=500):
        day = local_day(pref, now)
        if day is None or pref.digest_sent_on == day:
            continue
        claimed = (
            Preference.objects.filter(pk=pref.pk, digest=True)
            .exclude(digest_sent_on=day)
            .update(digest_sent_on=day)
        )
        if not claimed:
            continue  # another pass has it
        turns = read_turns(user=pref.user)
        if not turns:
            continue
        subject = f"fibserver: {len(turns)} match{'es' if len(turns) != 1 else ''} waiting"
        sender = getattr(settings, "DEFAULT_FROM_EMAIL", "fibserver@localhost")
        try:
            send_mail(subject, text_of(turns, pref.time_zone), sender, [pref.user.email])
        except (smtplib.SMTPException, OSError):
            log.warning("the digest of user %s could not be sent", pref.user_id, exc_info=True)
            Preference.objects.filter(pk=pref.pk, digest_sent_on=day).update(
                digest_sent_on=pref.digest_sent_on
            )
            continue
        sent += 1
    return sent
