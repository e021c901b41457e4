"""Collectors on real captured text: the host's /proc and the ZFS VM's arcstats and zpool output."""

from __future__ import annotations

from pathlib import Path

import pytest

from monitoring.metrics.engine import NotAvailable, Sources, take_sample
from monitoring.metrics.engine.arc import read_arcstats
from monitoring.metrics.engine.cpu import cpu_percent, read_loadavg, read_proc_stat
from monitoring.metrics.engine.memory import read_memory, read_vmstat
from monitoring.metrics.engine.pool_io import parse_zpool_iostat
from monitoring.metrics.engine.pools import pool_metrics
from monitoring.metrics.engine.rates import deltas, rates
from storage.zfs.parse import parse_status_dedup, parse_zpool_list

FIXTURES = Path(__file__).parent / "fixtures"
VM = FIXTURES / "vm"
# the columns of a plain `zpool list -H -p`, as captured in the VM
ZPOOL_LIST_DEFAULT = ("name", "size", "allocated", "free", "checkpoint", "expandsize",
                      "fragmentation", "capacity", "dedupratio", "health", "altroot")  # fmt: skip


def text(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_it_reads_cpu_ticks_for_all_cores_and_each_core():
    counters = read_proc_stat(text("host_stat.txt")).counters
    assert counters["cpu.user"] == 262618
    assert counters["cpu1.iowait"] == 2368
    assert "cpu2.user" not in counters


def test_it_turns_two_stat_readings_into_percentages():
    before = read_proc_stat(text("host_stat.txt")).counters
    after = read_proc_stat(text("host_stat_2s.txt")).counters
    percent = cpu_percent(deltas(before, after))
    assert 0 <= percent["cpu.busy"] <= 100
    # busy also counts time stolen by the hypervisor, which is neither user nor system
    assert percent["cpu.busy"] >= percent["cpu.user"] + percent["cpu.system"] - 0.01
    assert {"cpu.core0.busy", "cpu.core1.busy"} <= percent.keys()


def test_cpu_percentages_of_the_vm_while_it_wrote_to_a_dedup_zvol():
    before = read_proc_stat((VM / "stat_before.txt").read_text()).counters
    after = read_proc_stat((VM / "stat_after.txt").read_text()).counters
    assert cpu_percent(deltas(before, after))["cpu.busy"] > 10


def test_it_reads_the_load_average():
    assert read_loadavg("0.52 1.10 1.61 3/117 14306\n").gauges == {
        "load.1": 0.52, "load.5": 1.10, "load.15": 1.61,
    }  # fmt: skip


def test_memory_without_zfs_has_no_arc_band():
    gauges = read_memory(text("host_meminfo.txt"), arc_size=None).gauges
    assert "mem.arc" not in gauges
    assert gauges["mem.total"] == 24684084 * 1024
    assert gauges["mem.used"] + gauges["mem.cached"] + gauges["mem.free"] == gauges["mem.total"]
    assert gauges["swap.total"] == 0


def test_the_arc_is_taken_out_of_used_memory():
    meminfo = (VM / "meminfo_after.txt").read_text()
    arc = read_arcstats((VM / "arcstats_after.txt").read_text()).gauges["arc.size"]
    without = read_memory(meminfo, arc_size=None).gauges
    with_arc = read_memory(meminfo, arc_size=int(arc)).gauges
    assert with_arc["mem.arc"] == arc > 0
    assert with_arc["mem.used"] == without["mem.used"] - arc


def test_swap_traffic_is_counted_in_bytes():
    assert read_vmstat("pswpin 3\npswpout 5\n").counters == {
        "swap.in": 3 * 4096, "swap.out": 5 * 4096,
    }  # fmt: skip


def test_it_reads_arc_sizes_and_counters_from_real_arcstats():
    reading = read_arcstats((VM / "arcstats_after.txt").read_text())
    assert reading.gauges["arc.c_max"] == 1557071872
    assert reading.gauges["arc.size"] > 30 * 2**20
    assert reading.counters["arc.demand_data_hits"] > 0
    assert "arc.l2_size" not in reading.gauges  # the VM has no cache device


def test_arc_hit_ratio_and_demand_rates_between_two_real_readings():
    before = read_arcstats((VM / "arcstats_before.txt").read_text()).counters
    after = read_arcstats((VM / "arcstats_after.txt").read_text()).counters
    values = rates(before, after, 10.0)
    assert 0 < values["arc.hit_ratio"] <= 100
    assert values["arc.demand_data_hits"] > 0


def test_l2arc_figures_appear_when_a_cache_device_is_used():
    arcstats = (VM / "arcstats_after.txt").read_text()
    arcstats = arcstats.replace("l2_size                         4    0", "l2_size 4 1048576")
    reading = read_arcstats(arcstats)
    assert reading.gauges["arc.l2_size"] == 1048576
    assert "arc.l2_hits" in reading.counters


def test_pool_space_ratios_and_ddt_from_real_zpool_output():
    pool = parse_zpool_list((VM / "zpool_list_after.txt").read_text(), ZPOOL_LIST_DEFAULT)[0]
    ddt = parse_status_dedup((VM / "zpool_status_D_after.txt").read_text(), per_entry=True)
    values = pool_metrics(pool, 1.0, ddt)
    assert values["pool.mpool.dedupratio"] == 1.75
    assert values["pool.mpool.ddt_entries"] == 8192
    assert values["pool.mpool.ddt_in_core"] == 8192 * 137
    assert values["pool.mpool.ddt_on_disk"] == 8192 * 427
    assert values["pool.mpool.allocated"] == 39825408


def test_it_reads_pool_io_from_zpool_iostat():
    values = parse_zpool_iostat((VM / "zpool_iostat_before.txt").read_text())
    assert values == {
        "pool.mpool.read_ops": 0.0, "pool.mpool.write_ops": 94.0,
        "pool.mpool.read_bw": 6415.0, "pool.mpool.write_bw": 906680.0,
    }  # fmt: skip


def test_the_last_report_of_an_interval_run_wins():
    lines = "tank\t1\t2\t3\t4\t5\t6\ntank\t1\t2\t7\t8\t9\t10\n"
    assert parse_zpool_iostat(lines)["pool.tank.read_ops"] == 7


def test_sources_missing_on_this_host_are_reported_not_invented(tmp_path):
    for name in ("stat", "meminfo", "vmstat", "loadavg"):
        (tmp_path / name).write_text(text(f"host_{name}.txt"))
    sample = take_sample(Sources(proc=str(tmp_path), arcstats=str(tmp_path / "nope")))
    assert set(sample.unavailable) == {"arc", "pools", "pool_io"}
    assert all(r.startswith("not available") for r in sample.unavailable.values())
    assert not any(k.startswith(("arc.", "pool.")) for k in sample.values)
    assert "mem.arc" not in sample.values
    assert sample.values["mem.total"] > 0


def test_a_failing_collector_does_not_stop_the_others(tmp_path):
    for name in ("stat", "meminfo", "vmstat", "loadavg"):
        (tmp_path / name).write_text(text(f"host_{name}.txt"))
    (tmp_path / "loadavg").write_text("garbage\n")

    class BrokenPools:
        def list_pools(self):
            raise RuntimeError("zpool crashed")

    sample = take_sample(Sources(proc=str(tmp_path), pools=BrokenPools()))  # type: ignore[arg-type]
    assert sample.unavailable["load"].startswith("failed: ValueError")
    assert sample.unavailable["pools"] == "failed: RuntimeError: zpool crashed"
    assert "mem.used" in sample.values
    assert "cpu.user" in sample.counters


def test_a_missing_proc_file_is_not_available():
    from monitoring.metrics.engine.sample import read_file

    with pytest.raises(NotAvailable):
        read_file("/proc/definitely-not-there")


def test_pools_come_from_the_engine_with_io_not_available_in_the_sandbox(tmp_path):
    from storage.zfs.sandbox import SandboxZfsEngine

    engine = SandboxZfsEngine(root=tmp_path / "sb", disk_count=2, disk_size=1 << 30)
    disk = engine.list_disks()[0].path
    from storage.zfs.base import PoolLayout

    engine.create_pool("sbx", PoolLayout.single("stripe", [disk]))
    sample = take_sample(Sources(pools=engine))
    assert sample.health == {"sbx": "ONLINE"}
    assert sample.values["pool.sbx.dedupratio"] == 1.0
    assert "pool.sbx.ddt_entries" in sample.values
    assert sample.unavailable["pool_io"].startswith("not available")


def test_an_interval_report_measured_while_writing_shows_write_bandwidth():
    values = parse_zpool_iostat((VM / "zpool_iostat_y_during.txt").read_text())
    assert values["pool.mpool.write_ops"] == 124
    assert values["pool.mpool.write_bw"] == 15408746
