"""The one file lock of the panel: exclusive across processes, shared among readers."""

from __future__ import annotations

import multiprocessing
import stat
from pathlib import Path

from nasui.lib.locks import file_lock


def _try_lock(path: str, shared: bool, result: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    """In another process: whether the lock could be had without waiting."""
    import fcntl

    with open(path, "a") as handle:
        try:
            fcntl.flock(handle, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            result.put(False)
            return
        result.put(True)


def _other_process_gets(path: Path, *, shared: bool) -> bool:
    result: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    process = multiprocessing.Process(target=_try_lock, args=(str(path), shared, result))
    process.start()
    process.join(10)
    return bool(result.get(timeout=5))


def test_it_keeps_another_process_out_while_held(tmp_path):
    lock = tmp_path / "x.lock"
    with file_lock(lock):
        assert not _other_process_gets(lock, shared=True)
    assert _other_process_gets(lock, shared=False)


def test_it_lets_readers_share_but_keeps_a_writer_out(tmp_path):
    lock = tmp_path / "x.lock"
    with file_lock(lock, shared=True):
        assert _other_process_gets(lock, shared=True)
        assert not _other_process_gets(lock, shared=False)


def test_it_makes_a_missing_directory_owner_only(tmp_path):
    lock = tmp_path / "new" / "x.lock"
    with file_lock(lock):
        pass
    assert stat.S_IMODE(lock.parent.stat().st_mode) == 0o700
