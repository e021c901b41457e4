"""A UPS's state as NUT reports it: the variables read from upsd (over its TCP protocol, as
upsmon does, or through `upsc`), and what they mean."""

from __future__ import annotations

import re
import socket
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from nasui.lib.commands import CommandError, run_checked

TIMEOUT = 3.0
# NUT's status flags, as the panel says them.
FLAGS = {
    "OL": "on line",
    "OB": "on battery",
    "LB": "battery low",
    "HB": "battery high",
    "RB": "replace the battery",
    "CHRG": "charging",
    "DISCHRG": "discharging",
    "BYPASS": "on bypass",
    "CAL": "calibrating",
    "OFF": "off",
    "OVER": "overloaded",
    "TRIM": "trimming voltage",
    "BOOST": "boosting voltage",
    "FSD": "forced shutdown",
    "WAIT": "waiting for the driver",
}
_VAR = re.compile(r'^VAR (\S+) (\S+) "((?:[^"\\]|\\.)*)"$')


class NutError(Exception):
    """upsd could not be reached, or refused (its ERR words, e.g. UNKNOWN-UPS, ACCESS-DENIED)."""


@dataclass(frozen=True)
class UpsStatus:
    """What the panel shows and acts on."""

    flags: tuple[str, ...]
    charge: float | None  # battery.charge, %
    runtime: int | None  # battery.runtime, s
    load: float | None  # ups.load, %
    input_voltage: float | None  # input.voltage, V
    model: str = ""

    @property
    def on_battery(self) -> bool:
        return "OB" in self.flags

    @property
    def low_battery(self) -> bool:
        return "LB" in self.flags

    @property
    def online(self) -> bool:
        return "OL" in self.flags

    @property
    def text(self) -> str:
        """The flags in words: "on battery, battery low"."""
        return ", ".join(FLAGS.get(flag, flag) for flag in self.flags) or "unknown"

    def as_dict(self) -> dict[str, object]:
        """For the status cache and the API."""
        return {
            "status": " ".join(self.flags),
            "status_text": self.text,
            "charge": self.charge,
            "runtime": self.runtime,
            "load": self.load,
            "input_voltage": self.input_voltage,
            "model": self.model,
        }


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


def status_of(variables: Mapping[str, str]) -> UpsStatus:
    """The status in NUT's variables (ups.status, battery.charge...)."""
    runtime = _number(variables.get("battery.runtime"))
    model = " ".join(v for v in (variables.get("ups.mfr"), variables.get("ups.model")) if v)
    return UpsStatus(
        flags=tuple(variables.get("ups.status", "").split()),
        charge=_number(variables.get("battery.charge")),
        runtime=int(runtime) if runtime is not None else None,
        load=_number(variables.get("ups.load")),
        input_voltage=_number(variables.get("input.voltage")),
        model=model,
    )


def parse_list(lines: Sequence[str], ups: str) -> dict[str, str]:
    """The variables in upsd's answer to LIST VAR (its VAR lines)."""
    found: dict[str, str] = {}
    for line in lines:
        match = _VAR.match(line)
        if match and match.group(1) == ups:
            found[match.group(2)] = re.sub(r"\\(.)", r"\1", match.group(3))
    return found


def parse_upsc(text: str) -> dict[str, str]:
    """The variables in `upsc`'s output ("name: value" lines)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition(": ")
        if sep:
            found[name.strip()] = value.strip()
    return found


class NutClient:
    """One conversation with upsd (NUT's line protocol on TCP)."""

    def __init__(self, host: str, port: int, *, timeout: float = TIMEOUT) -> None:
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise NutError(f"cannot reach upsd at {host}:{port}: {exc}") from exc
        self._file = self._sock.makefile("rw", encoding="utf-8", newline="\n")

    def __enter__(self) -> NutClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Say LOGOUT and close."""
        try:
            self._file.write("LOGOUT\n")
            self._file.flush()
        except OSError:
            pass
        self._file.close()
        self._sock.close()

    def ask(self, line: str) -> str:
        """Send one command; its first answer line (NutError on ERR)."""
        if "\n" in line:
            raise NutError("a command is one line")
        try:
            self._file.write(line + "\n")
            self._file.flush()
            answer = self._file.readline().rstrip("\n")
        except OSError as exc:
            raise NutError(f"upsd stopped answering: {exc}") from exc
        if not answer:
            raise NutError("upsd closed the connection")
        if answer.startswith("ERR "):
            raise NutError(f"upsd refused {line.split()[0]}: {answer[4:]}")
        return answer

    def login(self, user: str, password: str, ups: str | None = None) -> None:
        """USERNAME and PASSWORD, then LOGIN to `ups` as upsmon does (wrong ones: NutError)."""
        self.ask(f"USERNAME {user}")
        self.ask(f"PASSWORD {password}")
        if ups is not None:
            self.ask(f"LOGIN {ups}")

    def variables(self, ups: str) -> dict[str, str]:
        """LIST VAR: every variable of `ups`."""
        first = self.ask(f"LIST VAR {ups}")
        lines = [first]
        while not lines[-1].startswith("END LIST"):
            try:
                line = self._file.readline().rstrip("\n")
            except OSError as exc:
                raise NutError(f"upsd stopped answering: {exc}") from exc
            if not line:
                raise NutError("upsd closed the connection in a list")
            lines.append(line)
        return parse_list(lines, ups)

    def get(self, ups: str, name: str) -> str:
        """GET VAR: one variable."""
        found = parse_list([self.ask(f"GET VAR {ups} {name}")], ups)
        if name not in found:
            raise NutError(f"upsd did not answer {name}")
        return found[name]


def read_status(host: str, port: int, ups: str, *, timeout: float = TIMEOUT) -> UpsStatus:
    """The UPS's status read from upsd (NutError when it cannot be read)."""
    with NutClient(host, port, timeout=timeout) as client:
        return status_of(client.variables(ups))


def upsc(host: str, port: int, ups: str, *, program: str = "upsc") -> dict[str, str]:
    """The variables as NUT's own client reads them (NutError when it fails)."""
    where = f"{ups}@[{host}]:{port}" if ":" in host else f"{ups}@{host}:{port}"
    try:
        return parse_upsc(run_checked([program, where], timeout=TIMEOUT + 2))
    except CommandError as exc:
        raise NutError(str(exc)) from exc
