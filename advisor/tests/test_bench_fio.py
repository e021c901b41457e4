"""fio: argument lists, the JSON parser on a captured run, the ARC warning, a real run."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from advisor.benchmarks.engine import fio

FIXTURE = Path(__file__).parent / "fixtures" / "fio-3.33-mixed-70-30-4k.json"
MIB = 1024 * 1024
GIB = 1024 * MIB
needs_fio = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")


def _file(tmp_path: Path) -> fio.Target:
    return fio.Target(tmp_path / "fio.dat", 8 * MIB, direct=False)


def test_the_profiles_are_the_issues_seven_in_order():
    assert fio.DEFAULT == (
        "seq-read-1m",
        "seq-write-1m",
        "rand-read-4k-qd1",
        "rand-read-4k-qd32",
        "rand-write-4k-qd1",
        "rand-write-4k-qd32",
        "mixed-70-30-4k",
    )


def test_a_file_in_a_dataset_is_tested_buffered_with_a_thread_per_queue_slot(tmp_path):
    argv = fio.fio_argv(fio.PROFILES["rand-read-4k-qd32"], _file(tmp_path), 10)
    assert argv[0] == "fio"
    assert f"--filename={tmp_path / 'fio.dat'}" in argv
    assert {
        "--direct=0",
        "--ioengine=psync",
        "--numjobs=32",
        "--bs=4096",
        "--rw=randread",
        "--runtime=10",
        "--time_based=1",
        "--output-format=json",
    } <= set(argv)
    assert "--end_fsync=1" not in argv


def test_buffered_writes_are_flushed_before_fio_stops_the_clock(tmp_path):
    argv = fio.fio_argv(fio.PROFILES["seq-write-1m"], _file(tmp_path), 5)
    assert "--end_fsync=1" in argv
    assert "--numjobs=1" in argv  # one sequential stream, even buffered


def test_a_zvol_device_is_tested_with_o_direct_and_a_real_queue_depth():
    target = fio.Target(Path("/dev/zvol/tank/x"), GIB, direct=True)
    argv = fio.fio_argv(fio.PROFILES["mixed-70-30-4k"], target, 30)
    assert {
        "--direct=1",
        "--ioengine=libaio",
        "--iodepth=32",
        "--rw=randrw",
        "--rwmixread=70",
    } <= set(argv)
    assert not any(a.startswith("--numjobs") for a in argv)


def test_every_argument_is_one_list_item_never_a_shell_line(tmp_path):
    spaced = fio.Target(tmp_path / "a dir; rm -rf x" / "fio.dat", MIB, direct=False)
    argv = fio.fio_argv(fio.PROFILES["seq-read-1m"], spaced, 1)
    assert f"--filename={spaced.path}" in argv


def test_the_captured_json_parses_to_per_direction_figures():
    figures = fio.parse_figures(fio.fio_json(FIXTURE.read_text()))
    assert figures.read_mb_s == 144.37
    assert figures.read_iops == 35246.5
    assert figures.write_mb_s > 0
    assert figures.read_iops > figures.write_iops  # 70/30
    assert 0 < figures.lat_mean_us < figures.lat_p99_us


def test_notes_printed_before_the_json_are_skipped():
    text = "note: both iodepth >= 1 and synchronous I/O engine are selected\n"
    text += FIXTURE.read_text()
    assert fio.parse_figures(fio.fio_json(text)).read_mb_s == 144.37


def test_output_without_json_or_jobs_is_an_error():
    with pytest.raises(ValueError, match="no JSON"):
        fio.fio_json("fio: failed to open file")
    with pytest.raises(ValueError, match="no jobs"):
        fio.parse_figures({"jobs": []})


def test_the_version_comes_from_fio_dash_dash_version():
    assert fio.parse_version("fio-3.33\n") == "fio-3.33"


def test_a_test_smaller_than_the_arc_is_warned_about():
    warning = fio.arc_warning(8 * MIB, 4 * GIB)
    assert "smaller than the ARC (4.0 GiB)" in warning
    assert "the cache, not the disks" in warning


def test_a_test_larger_than_the_arc_or_without_an_arc_has_no_warning():
    assert fio.arc_warning(8 * GIB, 4 * GIB) == ""
    assert fio.arc_warning(8 * MIB, None) == ""


def test_unknown_profiles_are_named():
    assert fio.unknown_profiles(["seq-read-1m", "seq-read-4m"]) == ["seq-read-4m"]


@needs_fio
def test_a_real_fio_run_on_a_small_file_gives_figures(tmp_path):
    target = _file(tmp_path)
    polls: list[int] = []
    fio.run_fio(fio.prefill_argv(target), 60, lambda: polls.append(1))
    argv = fio.fio_argv(fio.PROFILES["rand-read-4k-qd1"], target, 1)
    figures = fio.parse_figures(fio.fio_json(fio.run_fio(argv, 60, lambda: polls.append(1))))
    assert figures.read_iops > 0
    assert figures.read_mb_s > 0
    assert figures.write_iops == 0
    assert figures.lat_p99_us > 0
    assert polls  # the caller was asked in while fio ran (where a cancel is noticed)


class Stop(Exception):
    pass


@needs_fio
def test_a_poll_that_raises_stops_fio(tmp_path):
    target = _file(tmp_path)
    argv = fio.fio_argv(fio.PROFILES["rand-write-4k-qd1"], target, 30)

    def cancel() -> None:
        raise Stop

    with pytest.raises(Stop):
        fio.run_fio(argv, 60, cancel)
    assert not [p for p in Path("/proc").glob("[0-9]*") if _is_fio_on(p, target.path)]


def _is_fio_on(proc: Path, path: Path) -> bool:
    try:
        return str(path) in (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return False


@needs_fio
def test_a_failing_fio_says_why(tmp_path):
    (tmp_path / "a-file").write_text("not a directory")
    target = fio.Target(tmp_path / "a-file" / "f", MIB, direct=False)
    argv = fio.fio_argv(fio.PROFILES["seq-read-1m"], target, 1)
    with pytest.raises(fio.FioError, match="fio failed"):
        fio.run_fio(argv, 60, lambda: None)
