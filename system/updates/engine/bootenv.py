"""GRUB's environment block (grubenv) on the ESP: which root slot boots.

`nasui_good` names the slot GRUB boots by default; `nasui_try` a slot to boot once: GRUB
clears it as it boots that slot (save_env), so if the new release does not reach a healthy
panel and mark itself good, any restart comes back to the good slot by itself.

The block is 1024 bytes: a header line, `name=value` lines, `#` padding. It is rewritten in
place (same size, same blocks): GRUB's save_env writes into the file's existing blocks.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

SIZE = 1024
HEADER = "# GRUB Environment Block\n"
SLOTS = ("A", "B")
GOOD, TRY = "nasui_good", "nasui_try"


class BootEnvError(Exception):
    """The environment block cannot be read or would not fit."""


def parse(block: bytes) -> dict[str, str]:
    """The variables of an environment block."""
    text = block.decode("utf-8", errors="replace")
    if not text.startswith(HEADER):
        raise BootEnvError("not a GRUB environment block")
    pairs = (line.split("=", 1) for line in text[len(HEADER) :].split("\n") if "=" in line)
    return {name: value for name, value in pairs if not name.startswith("#")}


def render(variables: Mapping[str, str]) -> bytes:
    """An environment block holding `variables` (those with an empty value left out)."""
    body = "".join(f"{name}={value}\n" for name, value in variables.items() if value)
    text = (HEADER + body).encode()
    if len(text) > SIZE:
        raise BootEnvError("the variables do not fit in the environment block")
    return text + b"#" * (SIZE - len(text))


def read(path: Path) -> dict[str, str]:
    """The variables in the block at `path`."""
    try:
        return parse(path.read_bytes())
    except OSError as exc:
        raise BootEnvError(f"{path}: {exc.strerror}") from exc


def update(path: Path, **changes: str) -> dict[str, str]:
    """Set (or with "" clear) variables in the block at `path`, in place; the new variables."""
    variables = {**read(path), **changes}
    block = render(variables)
    with path.open("r+b") as env:
        env.write(block)
        env.flush()
        os.fsync(env.fileno())
    return {name: value for name, value in variables.items() if value}


def good_slot(variables: Mapping[str, str]) -> str:
    """The slot GRUB boots by default (A on a new stick)."""
    slot = variables.get(GOOD, "A")
    return slot if slot in SLOTS else "A"


def other(slot: str) -> str:
    """The other slot."""
    return SLOTS[1 - SLOTS.index(slot)]
