"""Bounded polling: ask again until the answer is the one awaited or time is up."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def poll(probe: Callable[[], T], done: Callable[[T], bool], timeout: float, step: float = 3) -> T:
    """Call `probe` until `done` holds for its answer (bounded); the last answer either way."""
    limit = time.monotonic() + timeout
    answer = probe()
    while not done(answer) and time.monotonic() < limit:
        time.sleep(step)
        answer = probe()
    return answer
