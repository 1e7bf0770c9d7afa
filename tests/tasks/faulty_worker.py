"""A Celery worker with a fault injected, for the worker-crash test only.

``python -m tests.tasks.faulty_worker <celery arguments>`` starts the same worker as
``python -m celery``, except that every takeover for a human seat first touches the file named
by ``FAULT_MARKER`` and then pauses ``FAULT_TAKEOVER_PAUSE`` seconds holding the match's row
lock, so the test can kill the worker right there. Production code knows nothing of this."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def main() -> None:
    pause = float(os.environ["FAULT_TAKEOVER_PAUSE"])
    marker = Path(os.environ["FAULT_MARKER"])
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fibserver.settings")
    import django

    django.setup()
    from games.services import clock

    original = clock.take_over

    def paused_take_over(match: Any, rules: Any, state: Any, seat: Any, **kwargs: Any) -> Any:
        if not seat.is_bot:
            marker.write_text("pausing")
            time.sleep(pause)
        return original(match, rules, state, seat, **kwargs)

    clock.take_over = paused_take_over  # the pool's processes are forked with it in place
    from celery.bin.celery import main as celery_main

    sys.argv = ["celery", *sys.argv[1:]]
    celery_main()


if __name__ == "__main__":
    main()
