"""A schemathesis check for the runs made as a limited role (SCHEMATHESIS_HOOKS names this).

Every request other than a read must be refused with 403, where the role's rule is said (or
find nothing there: 404, 405),
except the two endpoints that take credentials in their body instead of the token: the
fuzzer's made-up credentials are refused there before any role is known (401/400/429).
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis

SAFE = {"GET", "HEAD", "OPTIONS"}
CREDENTIALS_IN_BODY = ("/api/tokens/", "/api/replication/pairing/")
# A sharing administrator's run: where its writes may pass (the read-only run allows none).
ALLOWED = tuple(p for p in os.environ.get("NASUI_FUZZ_WRITES_ALLOWED", "").split(",") if p)


@schemathesis.check
def writes_are_refused(ctx: Any, response: Any, case: Any) -> bool | None:
    """A write outside the role's places answers 403."""
    method = case.method.upper()
    path = case.formatted_path
    if method in SAFE or path.startswith(ALLOWED):
        return None
    if path.startswith(CREDENTIALS_IN_BODY):
        if response.status_code not in (400, 401, 403, 429):
            raise AssertionError(f"{method} {path} answered {response.status_code}")
        return None
    # 404 and 405: no such endpoint or object, so nothing to refuse (and nothing changed: the
    # tests compare the database and the engine before and after).
    if response.status_code not in (403, 404, 405):
        raise AssertionError(f"{method} {path} answered {response.status_code}, not 403")
    return None
