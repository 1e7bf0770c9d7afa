from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest


@pytest.fixture(autouse=True)
def _clear_cache(clear_cache: Callable[[], None]) -> Iterator[None]:
    clear_cache()
    yield
    clear_cache()
