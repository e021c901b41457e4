"""Reads of the advisor: past runs, one run's charts, and runs of one kind side by side."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from nasui.models import Job

PREFIX = "advisor."
# The short names pages and the API use, and the job kind each stands for.
KINDS = {
    "estimate": "advisor.estimate",
    "benchmark": "advisor.benchmark",
    "fio": "advisor.fio",
}
KIND_LABELS = {"estimate": "Estimate", "benchmark": "Settings benchmark", "fio": "fio"}
COMPARE_MAX = 6

Row = dict[str, Any]
Chart = dict[str, Any]
# (key, label, unit) of one figure a comparison shows for every row.
Metric = tuple[str, str, str]


def short_kind(job: Job) -> str:
    """'advisor.fio' -> 'fio'."""
    return job.kind.removeprefix(PREFIX)


def run_list(kind: str | None = None) -> QuerySet[Job]:
    """Advisor runs, newest first; only one kind ('estimate', 'benchmark', 'fio') when given."""
    runs = Job.objects.filter(kind__startswith=PREFIX).select_related("created_by")
    return runs.filter(kind=KINDS[kind]) if kind in KINDS else runs


def run_get(pk: int, kind: str | None = None) -> Job:
    """One advisor run (Job.DoesNotExist when there is none of that kind)."""
    return run_list(kind).get(pk=pk)


# -- the charts of one run ------------------------------------------------------------------
def _chart(
    key: str, title: str, unit: str, rows: list[Row], series: list[tuple[str, str]]
) -> Chart:
    """A bar chart: one bar group per row, one series per (field, label)."""
    return {
        "key": key,
        "title": title,
        "unit": unit,
        "labels": [row["label"] for row in rows],
        "series": [
            {"label": label, "values": [row.get(field) for row in rows]} for field, label in series
        ],
    }


def _estimate_charts(result: dict[str, Any]) -> list[Chart]:
    rows = [{**row, "label": row["algorithm"]} for row in result.get("compression") or []]
    return [
        _chart("ratio", "Compression ratio", "x", rows, [("ratio", "Ratio")]),
        _chart(
            "throughput",
            "Speed on one core",
            "MB/s",
            rows,
            [("compress_mb_s", "Compress"), ("decompress_mb_s", "Decompress")],
        ),
    ]


def _benchmark_charts(result: dict[str, Any]) -> list[Chart]:
    rows = result.get("rows") or []
    return [
        _chart(
            "space", "Space", "bytes", rows, [("logical_bytes", "Logical"), ("used_bytes", "Used")]
        ),
        _chart("write", "Write", "MB/s", rows, [("write_mb_s", "Write")]),
        _chart("read", "Read", "MB/s", rows, [("read_mb_s", "Read")]),
        _chart("cpu", "CPU", "%", rows, [("cpu_percent", "Mean"), ("cpu_peak_percent", "Peak")]),
    ]


def _fio_charts(result: dict[str, Any]) -> list[Chart]:
    rows = [
        {**row, "label": row.get("label") or row["name"]} for row in result.get("profiles") or []
    ]
    return [
        _chart("mbs", "Throughput", "MB/s", rows, [("read_mb_s", "Read"), ("write_mb_s", "Write")]),
        _chart("iops", "IOPS", "IOPS", rows, [("read_iops", "Read"), ("write_iops", "Write")]),
    ]


CHARTS: dict[str, Callable[[dict[str, Any]], list[Chart]]] = {
    "estimate": _estimate_charts,
    "benchmark": _benchmark_charts,
    "fio": _fio_charts,
}


def run_charts(job: Job) -> list[Chart]:
    """The bar charts of a finished run (none until it has a result)."""
    build = CHARTS.get(short_kind(job))
    return build(job.result) if build and isinstance(job.result, dict) else []


def dedup_shares(dedup: dict[str, Any]) -> dict[str, float | None]:
    """The dedup table's RAM as a share of the machine's RAM and of the ARC's limit."""

    def share(total: Any) -> float | None:
        return dedup["ddt_bytes"] / total if total and dedup.get("ddt_bytes") is not None else None

    return {"ram": share(dedup.get("ram_total")), "arc": share(dedup.get("arc_max"))}


def run_view(job: Job) -> dict[str, Any]:
    """What a run's page shows: its kind, its result (None until it succeeds), its charts, and
    for an estimate the dedup table's share of RAM and of the ARC."""
    result = job.result if isinstance(job.result, dict) else None
    dedup = (result or {}).get("dedup")
    return {
        "kind": short_kind(job),
        "result": result,
        "charts": run_charts(job),
        "dedup_shares": dedup_shares(dedup) if isinstance(dedup, dict) else {},
    }


# -- runs side by side ----------------------------------------------------------------------
ESTIMATE_METRICS: list[Metric] = [
    ("ratio", "Ratio", "x"),
    ("compress_mb_s", "Compress", "MB/s"),
    ("decompress_mb_s", "Decompress", "MB/s"),
]
BENCHMARK_METRICS: list[Metric] = [
    ("ratio", "Ratio", "x"),
    ("used_bytes", "Used", "bytes"),
    ("write_mb_s", "Write", "MB/s"),
    ("read_mb_s", "Read", "MB/s"),
    ("cpu_percent", "CPU", "%"),
]
FIO_METRICS: list[Metric] = [
    ("read_mb_s", "Read", "MB/s"),
    ("write_mb_s", "Write", "MB/s"),
    ("read_iops", "Read IOPS", "IOPS"),
    ("write_iops", "Write IOPS", "IOPS"),
    ("lat_p99_us", "p99 latency", "µs"),
]


def _estimate_rows(result: dict[str, Any]) -> list[Row]:
    rows = [{**r, "key": r["algorithm"], "label": r["algorithm"]} for r in result["compression"]]
    dedup = result.get("dedup") or {}
    # Dedup has a ratio and no speed: one more row, its other figures left empty.
    return [*rows, {"key": "dedup", "label": "dedup", "ratio": dedup.get("ratio")}]


def _benchmark_rows(result: dict[str, Any]) -> list[Row]:
    return [
        {**r, "key": r["setting"], "label": r.get("label") or r["setting"]} for r in result["rows"]
    ]


def _fio_rows(result: dict[str, Any]) -> list[Row]:
    return [
        {**r, "key": r["name"], "label": r.get("label") or r["name"]} for r in result["profiles"]
    ]


SHAPES: dict[str, tuple[list[Metric], Callable[[dict[str, Any]], list[Row]]]] = {
    "estimate": (ESTIMATE_METRICS, _estimate_rows),
    "benchmark": (BENCHMARK_METRICS, _benchmark_rows),
    "fio": (FIO_METRICS, _fio_rows),
}


def parse_ids(values: Iterable[str]) -> list[int]:
    """'1,2' and ['1', '2'] -> [1, 2], in order, without repeats; ValidationError on junk."""
    ids: list[int] = []
    for value in values:
        for part in str(value).split(","):
            part = part.strip()
            if not part:
                continue
            if not part.isdigit() or len(part) > 18:
                raise ValidationError({"runs": [f"“{part[:40]}” is not a run number."]})
            if int(part) not in ids:
                ids.append(int(part))
    return ids


def _comparable(pks: list[int]) -> list[Job]:
    """The runs, checked (two to six runs of one kind, each with a result), oldest first."""
    if not 2 <= len(pks) <= COMPARE_MAX:
        raise ValidationError({"runs": [f"Pick between 2 and {COMPARE_MAX} runs to compare."]})
    found = {job.pk: job for job in run_list().filter(pk__in=pks)}
    missing = [str(pk) for pk in pks if pk not in found]
    if missing:
        raise ValidationError({"runs": [f"No advisor run #{', #'.join(missing)}."]})
    # Oldest first, whatever order they were picked in: "before" reads left of "after".
    runs = sorted(found.values(), key=lambda job: (job.created_at, job.pk))
    if len({job.kind for job in runs}) > 1:
        raise ValidationError({"runs": ["Only runs of the same kind can be compared."]})
    unfinished = [f"#{job.pk}" for job in runs if not isinstance(job.result, dict)]
    if unfinished:
        raise ValidationError({"runs": [f"No results yet: {', '.join(unfinished)}."]})
    return runs


def _run_summary(job: Job) -> dict[str, Any]:
    return {"id": job.pk, "title": job.title, "created_at": job.created_at}


def compare(pks: list[int]) -> dict[str, Any]:
    """Runs of one kind side by side: every row's figures, one value per run."""
    runs = _comparable(pks)
    kind = short_kind(runs[0])
    metrics, shape = SHAPES[kind]
    per_run = [{row["key"]: row for row in shape(job.result or {})} for job in runs]
    keys: list[str] = []
    labels: dict[str, str] = {}
    for by_key in per_run:
        for key, row in by_key.items():
            if key not in labels:
                keys.append(key)
                labels[key] = row["label"]
    rows: list[Row] = []
    for key in keys:
        values = {m: [_number(r.get(key, {}).get(m)) for r in per_run] for m, _, _ in metrics}
        # The same figures again in the metrics' order, for the page's table.
        cells = [{"unit": unit, "values": values[m]} for m, _, unit in metrics]
        rows.append({"key": key, "label": labels[key], "values": values, "cells": cells})
    return {
        "kind": kind,
        "runs": [_run_summary(job) for job in runs],
        "metrics": [{"key": k, "label": label, "unit": unit} for k, label, unit in metrics],
        "rows": rows,
    }


def _number(value: Any) -> float | None:
    """A figure as a float, None when the run has none."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def compare_charts(comparison: dict[str, Any]) -> list[Chart]:
    """One grouped bar chart per figure: a group per row, a bar per run (rows without the
    figure, such as dedup's speed, are left out)."""
    names = [f"#{run['id']}" for run in comparison["runs"]]
    charts = []
    for metric in comparison["metrics"]:
        key = metric["key"]
        rows = [r for r in comparison["rows"] if any(v is not None for v in r["values"][key])]
        series = [
            {"label": name, "values": [row["values"][key][i] for row in rows]}
            for i, name in enumerate(names)
        ]
        labels = [row["label"] for row in rows]
        charts.append({"key": key, "title": metric["label"], "unit": metric["unit"],
                       "labels": labels, "series": series})  # fmt: skip
    return charts
