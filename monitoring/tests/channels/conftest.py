"""Fixtures for the channel tests: a real HTTP server that records what it receives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from pytest_httpserver import HTTPServer


@pytest.fixture
def receiver() -> Iterator[HTTPServer]:
    """An HTTP server on loopback; a test says what it answers and reads its log."""
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    yield server
    server.clear()
    if server.is_running():
        server.stop()


def bodies(server: HTTPServer) -> list[dict[str, Any]]:
    """The JSON bodies the server received, in order."""
    return [json.loads(request.get_data()) for request, _ in server.log]
