"""`zfs receive` of the sandbox (a mixin of SandboxZfsEngine): full, incremental, -F, -s, -A.

Each section of the stream is rebuilt in a staging folder without the state lock (the sender
may be this same sandbox, blocked on the pipe until it is read), then landed under the lock
(landing.py). With -s, a stream cut inside a section keeps the bytes of that section that
arrived beside the target and sets its receive_resume_token; `zfs send -t TOKEN` sends the
rest, and receiving that stream replays the kept bytes before the new ones. Without -s a cut
keeps nothing of its section. Sections landed before the cut stay, as in OpenZFS.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, Literal

from storage.zfs.errors import ZfsError
from storage.zfs.names import check_dataset_name
from storage.zfs.sandbox import landing, props, staging
from storage.zfs.sandbox.landing import Find, Options
from storage.zfs.sandbox.state import State, StateStore
from storage.zfs.sandbox.streams import SectionHeader
from storage.zfs.sandbox.tokens import partial_path, token_of
from storage.zfs.sandbox.tree import PoolTree
from storage.zfs.sandbox.unpack import BadStream, Reader, StreamCut, section_header, unpack_section

FAILED_READ = "failed to read from stream"


class ReceiveOps:
    """Streams into the sandbox, and the discarding of an interrupted one."""

    root: Path
    _state: StateStore
    _clock: Callable[[], float]

    def _find(self, state: State, name: str) -> tuple[PoolTree, str]:
        raise NotImplementedError  # provided by DatasetOps

    def receive(self, target: str, stream: BinaryIO, options: Options) -> None:
        """Read a stream into `target` until its trailer; ZfsError in OpenZFS's words."""
        check_dataset_name(target)
        for name, value in options.properties:  # refused before a byte is read, as zfs does
            props.normalize(name, value, props.FILESYSTEM)
        with staging.area(self.root, "recv") as area, contextlib.ExitStack() as files:
            sandbox = (self._state, self._find, self._clock)
            _Receive(sandbox, target, options, (area, files, Reader(stream))).start()

    def abort_receive(self, target: str) -> None:
        """`zfs receive -A`: discard an interrupted receive's state."""
        with self._state.transaction() as state:
            landing.abort(state, self._find, target)


class _Receive:
    """One receive: read each section, land it, keep what arrived of a cut one (-s)."""

    def __init__(
        self,
        sandbox: tuple[StateStore, Find, Callable[[], float]],
        target: str,
        options: Options,
        work: tuple[Path, contextlib.ExitStack, Reader],
    ) -> None:
        self.store, self.find, self.clock = sandbox
        self.target, self.options = target, options
        self.area, self.files, self.reader = work
        self.said = "cannot receive"  # OpenZFS's opening words, once the stream's kind is known
        self.resuming = False
        self.spool_path = self.area / "spool"

    def start(self) -> None:
        """Receive the whole stream; a cut or a bad stream told in OpenZFS's words."""
        try:
            self._run()
        except StreamCut:
            raise ZfsError(f"{self.said}: {FAILED_READ}") from None
        except BadStream as error:
            raise ZfsError(f"{self.said}: {error}") from None

    def _run(self) -> None:
        self.reader.magic()
        record = self._next(0)
        if "resume" in record:
            record = self._resume(record["resume"])
        header = self._header(record)
        with self.store.reading() as state:
            landing.check(state, self.find, self.target, header, self.options, self.resuming)
        index = 0
        while True:
            self._section(header, index)
            index += 1
            record = self._next(index)
            if record.get("end") == "stream":
                return
            previous, header = header, self._header(record)
            if header.from_guid != previous.guid:
                raise BadStream("invalid backup stream (sections out of order)")

    def _next(self, index: int) -> dict[str, Any]:
        """The next record, read into a fresh spool: it may open section `index`."""
        self._spool(self.area / f"spool-{index}", "wb")
        record, _ = self.reader.record()
        return record

    def _spool(self, path: Path, mode: Literal["wb", "ab"]) -> None:
        """Spool what arrives from now on to `path` (the previous spool is closed)."""
        if self.reader.spool is not None:
            self.reader.spool.close()
        self.spool_path = path
        handle = open(path, mode)  # noqa: SIM115 (closed here, or when the receive ends)
        self.files.callback(handle.close)
        self.reader.begin_section(handle)

    def _header(self, record: dict[str, Any]) -> SectionHeader:
        header = section_header(record)
        self.said = landing.words(header)
        return header

    def _section(self, header: SectionHeader, index: int) -> None:
        """Rebuild one section in the staging area, then land it under the lock."""
        staged = self.area / f"section-{index}"
        try:
            referenced = unpack_section(self.reader, header, staged)
        except StreamCut:
            if self.options.resumable:
                self._keep(header)
            raise
        with self.store.transaction() as state:
            arrived = (header, staged, referenced)
            landing.land(state, self.find, self.target, arrived, self.options, self.clock())

    def _keep(self, header: SectionHeader) -> None:
        """-s: the section's bytes that arrived go beside the target, with a resume token."""
        assert self.reader.spool is not None
        self.reader.spool.close()
        cut = (header, self.spool_path, self.spool_path.stat().st_size)
        with self.store.transaction() as state:
            landing.save_partial(state, self.find, self.target, cut, self.options, self.clock())

    def _resume(self, info: dict[str, Any]) -> dict[str, Any]:
        """A resumed stream: replay the kept bytes, then read on; the section's header."""
        self.said = "cannot receive resume stream"
        self.resuming = True
        with self.store.reading() as state:
            found = landing.locate(state, self.find, self.target)
            token = token_of(found[0].datasets[found[1]]) if found else None
            if found is None or token is None:
                raise ZfsError(
                    f"{self.said}: destination '{self.target}' has no partially received state"
                )
            if (token.toguid, token.offset) != (info.get("guid"), info.get("offset")):
                raise ZfsError(
                    f"{self.said}: the stream does not continue the partial receive of"
                    f" '{self.target}'"
                )
            kept = partial_path(*found)
            replay = self.files.enter_context(open(kept, "rb"))  # noqa: SIM115
            resumed = self.area / "spool-resumed"
            shutil.copyfile(kept, resumed)
        self._spool(resumed, "ab")  # the kept bytes first: a second cut keeps them all
        self.reader.replay(replay)
        record, _ = self.reader.record()
        return record
