"""What a preference means: which kinds go out on a channel, and quiet hours in the player's
time zone (pure functions of a :class:`~notifications.models.Preference` and a time)."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from .models import Channel, Kind, Preference

KINDS: list[str] = list(Kind.values)
CHANNELS: list[str] = list(Channel.values)


def valid_time_zone(name: str) -> bool:
    if name not in _zones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


_ZONES: set[str] = set()


def _zones() -> set[str]:
    if not _ZONES:
        _ZONES.update(available_timezones())
        _ZONES.add("UTC")
    return _ZONES


def wants(pref: Preference, channel: str, kind: str) -> bool:
    """Whether ``kind`` goes out on ``channel`` for this player."""
    return kind not in pref.muted.get(channel, [])


def quiet_until(pref: Preference, now: datetime) -> datetime | None:
    """When the player's quiet hours end, if ``now`` (aware) is inside them; else ``None``.
    Quiet hours are local times in the player's zone and may wrap midnight (22:00–07:00)."""
    start, end = pref.quiet_start, pref.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = ZoneInfo(pref.time_zone) if valid_time_zone(pref.time_zone) else ZoneInfo("UTC")
    local = now.astimezone(zone)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else clock >= start or clock < end
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    return _local(day, end, zone)


def _local(day: object, at: time, zone: ZoneInfo) -> datetime:
    from datetime import date

    assert isinstance(day, date)
    return datetime.combine(day, at, tzinfo=zone)
