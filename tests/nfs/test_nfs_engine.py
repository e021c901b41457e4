"""NfsEngine.apply against fake exportfs and restart tools: writes, re-exports, rolls back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from sharing.nfs.engine.desired import NfsExportSpec, NfsState
from sharing.nfs.engine.errors import ExportsRejected, NfsCommandFailed, NfsUnavailable
from sharing.nfs.engine.server import NfsEngine, split_complaints

# Records every call and the exports file it saw. Like the real one it refuses a path that
# does not exist on stderr with exit status 0, and a bad entry with exit status 1; it always
# warns about /etc/exports, which is not the panel's file.
FAKE_EXPORTFS = """#!/bin/sh
echo "exportfs $*" >> "{log}"
cat "{exports}" >> "{log}" 2>/dev/null || echo "(no file)" >> "{log}"
echo "exportfs: /etc/exports [3]: Neither 'subtree_check' or 'no_subtree_check' specified" >&2
if grep -q /tank/missing "{exports}" 2>/dev/null; then
  echo "exportfs: Failed to stat /tank/missing: No such file or directory" >&2
fi
if grep -q /tank/bad "{exports}" 2>/dev/null; then
  echo "exportfs: {exports}:2: unknown keyword" >&2
  exit 1
fi
exit 0
"""
FAKE_RESTART = """#!/bin/sh
echo "restart" >> "{log}"
exit {status}
"""


@dataclass
class Rig:
    engine: NfsEngine
    exports: Path
    conf: Path
    log: Path

    def calls(self) -> list[str]:
        """The tool calls logged so far."""
        if not self.log.exists():
            return []
        return [
            line
            for line in self.log.read_text().splitlines()
            if line.startswith(("exportfs", "restart"))
        ]


def script(path: Path, text: str) -> str:
    """Write an executable script and return its path."""
    path.write_text(text)
    path.chmod(0o755)
    return str(path)


def make_rig(tmp_path: Path, *, restart_status: int = 0) -> Rig:
    """An engine whose exportfs and restart are the fakes above, files under tmp_path."""
    exports = tmp_path / "exports.d" / "nasui.exports"
    conf = tmp_path / "nfs.conf.d" / "nasui.conf"
    log = tmp_path / "calls.log"
    exportfs = script(tmp_path / "exportfs", FAKE_EXPORTFS.format(log=log, exports=exports))
    restart = script(tmp_path / "restart", FAKE_RESTART.format(log=log, status=restart_status))
    proc = tmp_path / "proc"
    engine = NfsEngine(exports, exportfs, nfs_conf=conf, restart=[restart], proc_nfsd=proc)
    return Rig(engine, exports, conf, log)


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    return make_rig(tmp_path)


def media(*paths: str) -> NfsState:
    """A state exporting each path to one network."""
    return NfsState(tuple(NfsExportSpec(p, networks=("10.0.0.0/24",)) for p in paths))


def test_it_writes_the_exports_and_the_versions_then_reexports_and_restarts(rig: Rig) -> None:
    report = rig.engine.apply(media("/tank/media"))
    assert rig.exports.read_text() == rig.engine.render(media("/tank/media"))
    assert "vers3=n" in rig.conf.read_text()
    assert rig.calls() == ["exportfs -ra", "restart"]
    assert (report.exports_changed, report.config_changed, report.action) == (
        True,
        True,
        "restarted",
    )


def test_a_second_identical_apply_touches_nothing(rig: Rig) -> None:
    rig.engine.apply(media("/tank/media"))
    report = rig.engine.apply(media("/tank/media"))
    assert report.action == "unchanged"
    assert not report.changed
    assert rig.calls() == ["exportfs -ra", "restart"]


def test_a_change_of_exports_only_reexports_without_restart(rig: Rig) -> None:
    rig.engine.apply(media("/tank/media"))
    report = rig.engine.apply(media("/tank/media", "/tank/docs"))
    assert report.action == "exported"
    assert rig.calls() == ["exportfs -ra", "restart", "exportfs -ra"]


def test_turning_v3_on_rewrites_the_conf_and_restarts(rig: Rig) -> None:
    rig.engine.apply(media("/tank/media"))
    report = rig.engine.apply(NfsState(media("/tank/media").exports, v3=True))
    assert (report.exports_changed, report.action) == (False, "restarted")
    assert "vers3=y" in rig.conf.read_text()


def test_warnings_about_other_files_are_reported_not_refused(rig: Rig) -> None:
    report = rig.engine.apply(media("/tank/media"))
    assert report.warnings == (
        "exportfs: /etc/exports [3]: Neither 'subtree_check' or 'no_subtree_check' specified",
    )


def test_a_refusal_on_stderr_puts_the_old_file_back_and_reexports_it(rig: Rig) -> None:
    rig.engine.apply(media("/tank/media"))
    before = rig.exports.read_text()
    with pytest.raises(ExportsRejected, match="Failed to stat /tank/missing") as caught:
        rig.engine.apply(media("/tank/media", "/tank/missing"))
    assert "restored and are live" in str(caught.value)
    assert rig.exports.read_text() == before
    # the refused file was live for one exportfs run, then the old one was exported again
    assert rig.calls()[-2:] == ["exportfs -ra", "exportfs -ra"]
    assert rig.log.read_text().rstrip().endswith(before.rstrip())


def test_a_refusal_by_exit_status_restores_the_old_file_too(rig: Rig) -> None:
    rig.engine.apply(media("/tank/media"))
    before = rig.exports.read_text()
    with pytest.raises(ExportsRejected, match="unknown keyword") as caught:
        rig.engine.apply(media("/tank/bad"))
    assert caught.value.returncode == 1
    assert rig.exports.read_text() == before


def test_a_refused_first_apply_leaves_no_file_behind(rig: Rig) -> None:
    with pytest.raises(ExportsRejected):
        rig.engine.apply(media("/tank/missing"))
    assert not rig.exports.exists()
    assert rig.log.read_text().rstrip().endswith("(no file)")
    assert not rig.conf.exists()


def test_a_failed_restart_is_a_typed_error(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, restart_status=3)
    with pytest.raises(NfsCommandFailed, match="restarting the NFS server") as caught:
        rig.engine.apply(media("/tank/media"))
    assert caught.value.returncode == 3


def test_a_missing_exportfs_names_the_package(tmp_path: Path) -> None:
    engine = NfsEngine(
        tmp_path / "x.exports", str(tmp_path / "bin" / "exportfs"), nfs_conf=tmp_path / "c"
    )
    with pytest.raises(NfsUnavailable, match="apt-get install nfs-kernel-server"):
        engine.apply(media("/tank/media"))
    assert not (tmp_path / "x.exports").exists()  # never live, so not left behind


def test_status_reads_threads_and_versions_from_proc(rig: Rig, tmp_path: Path) -> None:
    assert rig.engine.status().running is False
    proc = tmp_path / "proc"
    proc.mkdir()
    (proc / "threads").write_text("8\n")
    (proc / "versions").write_text("-2 -3 +4 +4.1 +4.2\n")
    rig.engine.apply(media("/tank/media"))
    status = rig.engine.status()
    assert (status.running, status.threads, status.configured) == (True, 8, True)
    assert status.versions == ("4", "4.1", "4.2")


def test_complaints_name_our_paths_as_whole_words() -> None:
    stderr = "exportfs: Failed to stat /tank/ab: gone\nexportfs: Failed to stat /tank/a: gone\n"
    refused, others = split_complaints(stderr, ["/tank/a"])
    assert refused == ["exportfs: Failed to stat /tank/a: gone"]
    assert others == ["exportfs: Failed to stat /tank/ab: gone"]
