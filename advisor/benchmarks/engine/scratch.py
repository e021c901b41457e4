"""Names of the benchmark's scratch datasets and zvols, and how to recognise them later."""

from __future__ import annotations

import re

from storage.zfs.names import SCRATCH_PREFIX as PREFIX

# A user property: what a scratch dataset belongs to, readable with `zfs get` by anyone.
PROPERTY = "nasui:scratch"
_NAME = re.compile(rf"^{re.escape(PREFIX)}(\d+)-")


def scratch_name(parent: str, job_id: int, suffix: str) -> str:
    """`<parent>/nasui-scratch-<job id>-<suffix>`: a scratch dataset of one job."""
    return f"{parent}/{PREFIX}{job_id}-{suffix}"


def scratch_job_id(name: str) -> int | None:
    """The job a scratch dataset or zvol belongs to, from its last component; None if none."""
    found = _NAME.match(name.rsplit("/", 1)[-1])
    return int(found.group(1)) if found else None
