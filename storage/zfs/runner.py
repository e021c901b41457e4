"""How engines run commands: argument lists, never a shell, always a timeout."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from storage.zfs.errors import ZfsTimeout, ZfsUnavailable


@dataclass(frozen=True)
class CommandResult:
    """What a finished command returned."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str


class Runner(Protocol):
    """Runs one command; implementations must not use a shell."""

    def __call__(
        self, argv: Sequence[str], *, timeout: float, stdin: str | None = None
    ) -> CommandResult:
        """Run argv (with `stdin` as its input, for a key) and return its result (a non-zero
        exit is not an exception here)."""
        ...


def subprocess_runner(
    argv: Sequence[str], *, timeout: float, stdin: str | None = None
) -> CommandResult:
    """Run argv with subprocess (no shell), C locale, killed after `timeout` seconds.

    A key or passphrase goes in as `stdin`, never in argv, where any process could read it.
    """
    args = [str(a) for a in argv]
    # The C locale keeps the output the parsers expect (decimal points, English messages).
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    try:
        proc = subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=env,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
        )
    except FileNotFoundError as exc:
        raise ZfsUnavailable(f"{args[0]} not found: is OpenZFS installed?", argv=args) from exc
    except subprocess.TimeoutExpired as exc:
        stderr = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else ""
        raise ZfsTimeout(f"timed out after {timeout:g}s", argv=args, stderr=stderr) from exc
    return CommandResult(tuple(args), proc.returncode, proc.stdout, proc.stderr)


@dataclass
class ScriptedRunner:
    """A fake runner for tests: records every argv and answers from a table or a callback.

    `responses` maps an argv prefix (tuple) to stdout text or a CommandResult; the longest
    matching prefix wins. Unmatched commands succeed with empty output.
    """

    responses: dict[tuple[str, ...], str | CommandResult] = field(default_factory=dict)
    calls: list[tuple[str, ...]] = field(default_factory=list)
    timeouts: list[float] = field(default_factory=list)
    inputs: list[str | None] = field(default_factory=list)  # each call's stdin, in call order

    def __call__(
        self, argv: Sequence[str], *, timeout: float, stdin: str | None = None
    ) -> CommandResult:
        """Record the call and return the scripted answer."""
        args = tuple(argv)
        self.calls.append(args)
        self.timeouts.append(timeout)
        self.inputs.append(stdin)
        matches = [p for p in self.responses if args[: len(p)] == p]
        if not matches:
            return CommandResult(args, 0, "", "")
        answer = self.responses[max(matches, key=len)]
        if isinstance(answer, CommandResult):
            return CommandResult(args, answer.returncode, answer.stdout, answer.stderr)
        return CommandResult(args, 0, answer, "")

    @property
    def last(self) -> tuple[str, ...]:
        """The most recent argv."""
        return self.calls[-1]


def fail(stderr: str, returncode: int = 1) -> CommandResult:
    """A failed result for ScriptedRunner tables."""
    return CommandResult((), returncode, "", stderr)
