"""The panel over HTTPS: a cookie session for the login page, a token client for the REST API."""

from __future__ import annotations

import http.cookiejar
import json
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any

import pytest

from appliance.testlib.config import ResultDict
from appliance.testlib.vm import TLS, VM


class Client:
    """HTTP client for the panel: a session (cookies) for /login/, a token for the API."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=TLS), urllib.request.HTTPCookieProcessor(self.jar)
        )
        self.token = ""

    def request(
        self,
        method: str,
        path: str,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        """Status and body; HTTP errors are returned, not raised."""
        status, body = self.raw(method, path, data, headers)
        return status, body.decode() if status < 400 else body.decode(errors="replace")

    def raw(
        self,
        method: str,
        path: str,
        data: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        """Status and the body's bytes; HTTP errors are returned, not raised."""
        all_headers = {"Referer": self.base + path, **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        url = self.base + path  # always https://127.0.0.1:PORT
        req = urllib.request.Request(url, data=data, method=method, headers=all_headers)  # noqa: S310
        try:
            # A login or a password change hashes the password (PBKDF2, a million rounds): under
            # the emulator, beside the other box's boot, that has taken over 2 min.
            with self.opener.open(req, timeout=300) as resp:
                return int(resp.status), bytes(resp.read())
        except urllib.error.HTTPError as exc:
            return int(exc.code), bytes(exc.read())

    def csrf(self) -> str:
        """The CSRF cookie's value."""
        return next(c.value for c in self.jar if c.name == "csrftoken" and c.value is not None)

    def form(self, path: str, fields: dict[str, str]) -> tuple[int, str]:
        """POST a form as the browser would (CSRF token in the body)."""
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.csrf(), **fields}).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Origin": self.base}
        return self.request("POST", path, body, headers)

    def api(self, method: str, path: str, payload: ResultDict | None = None) -> tuple[int, Any]:
        """A REST call with the token; the body decoded from JSON."""
        data = json.dumps(payload).encode() if payload is not None else None
        status, body = self.request(method, path, data, {"Content-Type": "application/json"})
        return status, _json_or_text(body)

    def upload(
        self, path: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]]
    ) -> tuple[int, Any]:
        """A multipart/form-data POST (fields and files) with the token, or as a browser's form
        (its CSRF token) without one; the JSON answer, or the page."""
        boundary = f"nasui-{uuid.uuid4().hex}"
        session = {} if self.token else {"csrfmiddlewaretoken": self.csrf()}
        fields = {**session, **fields}
        parts = [
            _part(boundary, f'name="{name}"', value.encode()) for name, value in fields.items()
        ]
        parts += [_part(boundary, f'name="{name}"; filename="{filename}"', data)
                  for name, (filename, data) in files.items()]  # fmt: skip
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        headers = {"Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": self.base}
        status, text = self.request("POST", path, body, headers)
        return status, _json_or_text(text)

    def download(self, path: str, payload: ResultDict) -> tuple[int, bytes]:
        """A JSON POST with the token whose answer is a file: its status and bytes."""
        data = json.dumps(payload).encode()
        return self.raw("POST", path, data, {"Content-Type": "application/json"})

    def wait_job(self, job: ResultDict, timeout: float = 300) -> ResultDict:
        """Poll /api/jobs/<id>/ until the job ends (bounded)."""
        limit = time.monotonic() + timeout
        while time.monotonic() < limit:
            status, body = self.api("GET", f"/api/jobs/{job['id']}/")
            assert status == 200, body
            if body.get("status") in ("succeeded", "failed"):
                return dict(body)
            time.sleep(2)
        pytest.fail(f"job {job['id']} did not finish in {timeout:.0f}s")

    def follow_job(self, job: ResultDict, timeout: float = 300) -> list[ResultDict]:
        """The job's events from the event stream (through nginx to nasui-events) up to its end.

        after=0-0: the stream starts from the oldest kept event, so a job quicker than the
        connection is still seen whole."""
        req = urllib.request.Request(  # noqa: S310 (https://127.0.0.1:PORT)
            self.base + "/api/events/?types=job&after=0-0",
            headers={"Accept": "text/event-stream", "Authorization": f"Token {self.token}"},
        )
        seen: list[ResultDict] = []
        limit = time.monotonic() + timeout
        with self.opener.open(req, timeout=60) as stream:
            assert stream.headers["Content-Type"] == "text/event-stream"
            while time.monotonic() < limit:
                line = stream.readline()
                if not line:  # the server ended the stream: reconnect after the last id
                    pytest.fail(f"the event stream ended before job {job['id']} did: {seen}")
                if line.startswith(b"data: "):
                    event = json.loads(line[6:])
                    if event["id"] == job["id"]:
                        seen.append(event)
                        if event["finished"]:
                            return seen
        pytest.fail(f"job {job['id']} did not finish in {timeout:.0f}s: {seen}")


def _json_or_text(text: str) -> Any:
    """A JSON answer decoded (None when empty), or the text as it is (a page, an error)."""
    try:
        return json.loads(text) if text else None
    except json.JSONDecodeError:
        return text


def _part(boundary: str, disposition: str, data: bytes) -> bytes:
    head = f"--{boundary}\r\nContent-Disposition: form-data; {disposition}\r\n\r\n"
    return head.encode() + data + b"\r\n"


def login(vm: VM, state: ResultDict) -> Client:
    """A client logged in as admin with the password the console showed."""
    client = Client(vm.url)
    status, _ = client.request("GET", "/login/")
    assert status == 200
    status, body = client.form("/login/", {"username": "admin", "password": state["password"]})
    assert status == 200, body[-500:]
    assert 'name="password"' not in body, "login refused"
    return client


def api(vm: VM, state: ResultDict) -> Client:
    """A client using the token only (no session)."""
    client = Client(vm.url)
    client.token = state["token"]
    return client


def rows(body: Any) -> list[Any]:
    """The rows of a list answer, paginated ({"results": [...]}) or not."""
    return list(body["results"] if isinstance(body, dict) else body)
