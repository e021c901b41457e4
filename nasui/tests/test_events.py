"""The event stream: JSON for a plain GET, Server-Sent Events for a stream, read by a real client
while a job runs on a real worker; reconnects miss nothing; a process holds a bounded number."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from nasui import events
from nasui.services import api_token_create


def _connect(url: str) -> http.client.HTTPConnection:
    """A real HTTP client of the live server."""
    parts = urlsplit(url)
    return http.client.HTTPConnection(str(parts.hostname), parts.port, timeout=30)


def _sse(
    url: str, token: str, path: str = "/api/events/", **headers: str
) -> http.client.HTTPResponse:
    """An open event stream."""
    connection = _connect(url)
    connection.request(
        "GET",
        path,
        headers={"Accept": "text/event-stream", "Authorization": f"Token {token}", **headers},
    )
    return connection.getresponse()


def _frames(answer: http.client.HTTPResponse) -> Iterator[dict[str, str]]:
    """Each event of an open stream as its fields (comments skipped)."""
    fields: dict[str, str] = {}
    while True:
        line = answer.fp.readline().decode()
        if not line:
            return
        line = line.rstrip("\n")
        if not line:
            if "data" in fields:  # not the opening's retry field
                yield fields
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            fields[name] = value


@pytest.mark.django_db
def test_a_plain_get_answers_json_of_the_events_after_an_id_and_of_the_types_asked(
    admin_client,
) -> None:
    events.publish("job", id=1, status="running")
    events.publish("alert", id=7, state="raised")
    events.publish("job", id=1, status="succeeded")
    page = admin_client.get("/api/events/").json()
    assert [(e["type"], e["data"]) for e in page["events"]][-3:] == [
        ("job", {"id": 1, "status": "running"}),
        ("alert", {"id": 7, "state": "raised"}),
        ("job", {"id": 1, "status": "succeeded"}),
    ]
    first = page["events"][-3]["id"]
    later = admin_client.get(f"/api/events/?after={first}&types=job").json()
    assert [e["data"]["status"] for e in later["events"]] == ["succeeded"]
    assert later["last_id"] == page["last_id"]
    assert admin_client.get(f"/api/events/?after={page['last_id']}").json()["events"] == []


@pytest.mark.django_db
def test_bad_parameters_name_the_field(admin_client) -> None:
    answer = admin_client.get("/api/events/?types=job,weather")
    assert answer.status_code == 400
    assert "types" in answer.json()["fields"]
    answer = admin_client.get("/api/events/?after=yesterday")
    assert answer.status_code == 400
    assert "after" in answer.json()["fields"]


@pytest.mark.django_db
def test_anonymous_callers_get_nothing(client) -> None:
    assert client.get("/api/events/").status_code in (401, 403)


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_script_follows_a_job_on_a_real_worker_to_its_end_and_a_reconnect_misses_nothing(
    celery_worker_process, live_server, admin_user
) -> None:
    _, token = api_token_create(user=admin_user, name="script")
    answer = _sse(live_server.url, token, "/api/events/?types=job")
    assert answer.status == 200
    assert answer.getheader("Content-Type") == "text/event-stream"
    seen: list[dict[str, str]] = []

    def read() -> None:
        for frame in _frames(answer):
            seen.append(frame)
            if json.loads(frame["data"])["finished"]:
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(0.5)  # the stream is open before the job starts
    started = _connect(live_server.url)
    started.request(
        "POST",
        "/api/jobs/self-test/",
        body=json.dumps({"steps": 4}),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    job_id = json.loads(started.getresponse().read())["id"]
    reader.join(60)
    answer.close()
    states = [json.loads(f["data"]) for f in seen]
    assert {s["id"] for s in states} == {job_id}
    assert [f["event"] for f in seen] == ["job"] * len(seen)
    assert states[0]["status"] == "pending"
    assert "running" in [s["status"] for s in states]
    progress = [s["progress"] for s in states]
    assert progress == sorted(progress)
    assert any(0 < p < 100 for p in progress), progress
    assert (states[-1]["status"], states[-1]["progress"]) == ("succeeded", 100)
    # EventSource reconnects with the last id it saw: it gets what came after, nothing twice
    again = _sse(
        live_server.url, token, "/api/events/?types=job", **{"Last-Event-ID": seen[1]["id"]}
    )
    replay = next(_frames(again))
    again.close()
    assert replay["id"] == seen[2]["id"]


@pytest.mark.django_db(transaction=True)
def test_a_process_holds_a_bounded_number_of_streams_and_frees_a_slot_on_close(
    live_server, admin_user, settings
) -> None:
    settings.NASUI_EVENT_STREAMS = 1
    _, token = api_token_create(user=admin_user, name="script")
    first = _sse(live_server.url, token)
    assert first.status == 200
    second = _sse(live_server.url, token)
    assert second.status == 503
    assert second.getheader("Retry-After") == "30"
    first.close()
    events.publish("service", name="smb", running=True)  # the server notices the closed socket
    for _ in range(50):
        third = _sse(live_server.url, token)
        if third.status == 200:
            break
        third.close()
        events.publish("service", name="smb", running=True)
        time.sleep(0.2)
    assert third.status == 200
    third.close()
