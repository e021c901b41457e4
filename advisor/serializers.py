"""Serializers of the advisor API: start bodies, typed results, and comparisons."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from advisor.benchmarks.engine import fio
from advisor.benchmarks.engine import settings as catalogue
from nasui.api.serializers import JobSerializer
from nasui.models import Job

MIB = 1024 * 1024
BYTES_MAX = 2**50  # 1 PiB: far above any sample, far below what SQLite's integers hold
SECONDS_MAX = 7 * 24 * 3600
SETTING_KEYS = list(catalogue.CATALOGUE)
PROFILE_NAMES = list(fio.PROFILES)


def _number() -> serializers.FloatField:
    """A measured figure; null when the run could not measure it."""
    return serializers.FloatField(allow_null=True)


# -- start bodies ---------------------------------------------------------------------------
class EstimateStartSerializer(serializers.Serializer[dict[str, Any]]):
    """What to read for an estimate, how much of it, and for how long at most."""

    source_kind = serializers.ChoiceField(choices=["dataset", "zvol", "path"])
    source = serializers.CharField(max_length=4096, help_text="Dataset, zvol or absolute path.")  # type: ignore[assignment]
    sample_bytes = serializers.IntegerField(min_value=1, max_value=BYTES_MAX, default=256 * MIB)
    time_seconds = serializers.IntegerField(min_value=1, max_value=SECONDS_MAX, default=60)
    run_zdb = serializers.BooleanField(
        default=False, help_text="Also run zdb -S on the pool (dataset or zvol only)."
    )


class BenchmarkStartSerializer(serializers.Serializer[dict[str, Any]]):
    """A sample to write to trial datasets on `pool`, one per setting."""

    source_kind = serializers.ChoiceField(choices=["dataset", "zvol", "path"])
    source = serializers.CharField(max_length=4096)  # type: ignore[assignment]
    pool = serializers.CharField(max_length=255, help_text="Where the trial datasets are made.")
    sample_bytes = serializers.IntegerField(min_value=1, max_value=BYTES_MAX, default=64 * MIB)
    settings = serializers.ListField(
        child=serializers.ChoiceField(choices=SETTING_KEYS),
        min_length=1,
        max_length=len(SETTING_KEYS),
        default=lambda: list(catalogue.DEFAULT),
    )


class FioStartSerializer(serializers.Serializer[dict[str, Any]]):
    """fio profiles to run on a dataset (a test file in it) or a zvol."""

    target_kind = serializers.ChoiceField(choices=["dataset", "zvol"])
    target = serializers.CharField(
        max_length=255, help_text="A dataset; for a zvol, the pool a scratch zvol is made on."
    )
    size_bytes = serializers.IntegerField(min_value=1, max_value=BYTES_MAX, default=1024 * MIB)
    profiles = serializers.ListField(
        child=serializers.ChoiceField(choices=PROFILE_NAMES),
        min_length=1,
        max_length=len(PROFILE_NAMES),
        default=lambda: list(fio.DEFAULT),
    )
    runtime_seconds = serializers.IntegerField(min_value=1, max_value=SECONDS_MAX, default=30)


# -- results (documentation of Job.result; the stored dict is returned as it is) ---------------
class EstimateInputSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField()
    name = serializers.CharField()
    path = serializers.CharField()
    bytes = serializers.IntegerField()
    files = serializers.IntegerField(allow_null=True)
    blocks = serializers.IntegerField()
    block_size = serializers.IntegerField()
    sector_size = serializers.IntegerField()


class EstimateSampleSerializer(serializers.Serializer[dict[str, Any]]):
    blocks = serializers.IntegerField()
    bytes = serializers.IntegerField()
    seconds = serializers.FloatField()
    complete = serializers.BooleanField(help_text="False when the time budget cut any part short.")
    note = serializers.CharField(allow_blank=True, allow_null=True)
    wanted_blocks = serializers.IntegerField(required=False)
    cut_short = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Blocks measured by each algorithm the time budget stopped early.",
    )


class CompressionRowSerializer(serializers.Serializer[dict[str, Any]]):
    algorithm = serializers.CharField()
    ratio = _number()
    ratio_low = _number()
    ratio_high = _number()
    stored_bytes = _number()
    saved_bytes = _number()
    compress_mb_s = _number()
    compress_mb_s_low = _number()
    compress_mb_s_high = _number()
    decompress_mb_s = _number()
    decompress_mb_s_low = _number()
    decompress_mb_s_high = _number()
    blocks = serializers.IntegerField(required=False, help_text="Sampled blocks it measured.")
    complete = serializers.BooleanField(required=False)
    exact_blocks = serializers.IntegerField(
        required=False, help_text="lz4 only: blocks sized with OpenZFS's own lz4."
    )


class EstimateAdviceSerializer(serializers.Serializer[dict[str, Any]]):
    algorithm = serializers.CharField()
    reason = serializers.CharField()
    stronger = serializers.CharField(required=False)
    dedup = serializers.CharField(required=False, allow_blank=True)
    dedup_verdict = serializers.CharField(required=False, allow_blank=True)
    cores = serializers.IntegerField(required=False)


class DedupSerializer(serializers.Serializer[dict[str, Any]]):
    ratio = _number()
    unique_blocks = serializers.IntegerField()
    blocks = serializers.IntegerField()
    fraction = _number()
    kept_hashes = serializers.IntegerField(allow_null=True)
    compression = serializers.CharField(allow_null=True)
    ddt_bytes = _number()
    core_bytes_per_entry = _number()
    per_entry_source = serializers.CharField(allow_null=True)
    ram_total = _number()
    arc_max = _number()
    verdict = serializers.ChoiceField(choices=["worth", "costly", "trap"])
    reason = serializers.CharField()
    complete = serializers.BooleanField()
    read_mb_s = _number()


class ZdbSerializer(serializers.Serializer[dict[str, Any]]):
    ratio = _number()
    unique_blocks = serializers.IntegerField()
    blocks = serializers.IntegerField()
    seconds = _number()


class EstimateResultSerializer(serializers.Serializer[dict[str, Any]]):
    """What an estimate found, and what it recommends."""

    advice = EstimateAdviceSerializer(required=False)
    input = EstimateInputSerializer()
    sample = EstimateSampleSerializer()
    compression = CompressionRowSerializer(many=True)
    dedup = DedupSerializer()
    zdb = ZdbSerializer(allow_null=True)


class BenchmarkSourceSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField()
    name = serializers.CharField()
    bytes = serializers.IntegerField()
    files = serializers.IntegerField(allow_null=True)


class BenchmarkRowSerializer(serializers.Serializer[dict[str, Any]]):
    setting = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    properties = serializers.DictField(child=serializers.CharField())
    logical_bytes = _number()
    used_bytes = _number()
    ratio = _number()
    write_mb_s = _number()
    read_mb_s = _number()
    cpu_percent = _number()
    cpu_peak_percent = _number()
    ram_used_bytes = _number()
    arc_bytes = _number()
    seconds_write = _number()
    seconds_read = _number()
    note = serializers.CharField(allow_blank=True, allow_null=True)


class RecommendationSerializer(serializers.Serializer[dict[str, Any]]):
    setting = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    label = serializers.CharField(required=False, allow_blank=True)  # type: ignore[assignment]
    stronger = serializers.CharField(required=False, allow_blank=True)
    dedup_verdict = serializers.ChoiceField(
        choices=["", "worth it", "costly", "a trap"], required=False
    )
    dedup = serializers.CharField(required=False, allow_blank=True)
    speed_note = serializers.CharField(
        required=False, allow_blank=True, help_text="Why write speeds were not used, if not."
    )


class BenchmarkSampleSerializer(serializers.Serializer[dict[str, Any]]):
    """What was copied: random files, large ones in chunks spread over them."""

    bytes = serializers.IntegerField()
    files = serializers.IntegerField()
    whole_files = serializers.IntegerField()
    source_files = serializers.IntegerField()
    source_bytes = serializers.IntegerField()
    chunk_bytes = serializers.IntegerField()
    seed = serializers.IntegerField()
    description = serializers.CharField()


class BenchmarkResultSerializer(serializers.Serializer[dict[str, Any]]):
    """Space, speed and CPU of each setting tried."""

    source = BenchmarkSourceSerializer()  # type: ignore[assignment]
    pool = serializers.CharField()
    sample_bytes = serializers.IntegerField()
    sample = BenchmarkSampleSerializer(required=False)
    read_method = serializers.CharField()
    arc_max = serializers.IntegerField(allow_null=True)
    compresses_on_write = serializers.BooleanField(
        required=False,
        help_text="False on the sandbox: its write speeds do not tell settings apart.",
    )
    rows = BenchmarkRowSerializer(many=True)
    recommendation = RecommendationSerializer()


class FioTargetSerializer(serializers.Serializer[dict[str, Any]]):
    kind = serializers.CharField()
    name = serializers.CharField()
    path = serializers.CharField()


class FioProfileSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    read_mb_s = _number()
    write_mb_s = _number()
    read_iops = _number()
    write_iops = _number()
    lat_mean_us = _number()
    lat_p99_us = _number()


class FioResultSerializer(serializers.Serializer[dict[str, Any]]):
    """Throughput, IOPS and latency of each profile."""

    target = FioTargetSerializer()
    size_bytes = serializers.IntegerField()
    arc_max = serializers.IntegerField(allow_null=True)
    arc_warning = serializers.CharField(allow_blank=True)
    fio_version = serializers.CharField(allow_blank=True)
    profiles = FioProfileSerializer(many=True)


@extend_schema_field(EstimateResultSerializer(allow_null=True))
class EstimateResultField(serializers.JSONField):
    """Job.result of an estimate, passed through as stored (null until it succeeds)."""


@extend_schema_field(BenchmarkResultSerializer(allow_null=True))
class BenchmarkResultField(serializers.JSONField):
    """Job.result of a settings benchmark (null until it succeeds)."""


@extend_schema_field(FioResultSerializer(allow_null=True))
class FioResultField(serializers.JSONField):
    """Job.result of a fio run (null until it succeeds)."""


class RunSerializer(JobSerializer):
    """An advisor run: its job; `created_by` is null once the user is gone (or for none)."""

    created_by: serializers.SlugRelatedField[Job] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )


class EstimateRunSerializer(RunSerializer):
    """An estimate run: the job, with its result once it has succeeded."""

    result = EstimateResultField(read_only=True)


class BenchmarkRunSerializer(RunSerializer):
    """A settings benchmark run, with its result once it has succeeded."""

    result = BenchmarkResultField(read_only=True)


class FioRunSerializer(RunSerializer):
    """A fio run, with its result once it has succeeded."""

    result = FioResultField(read_only=True)


# -- comparisons ----------------------------------------------------------------------------
class CompareQuerySerializer(serializers.Serializer[dict[str, Any]]):
    """The runs to compare."""

    runs = serializers.CharField(
        max_length=200, help_text="Two to six run ids of the same kind, comma-separated: 3,7."
    )


class CompareRunSerializer(serializers.Serializer[Job]):
    id = serializers.IntegerField()
    title = serializers.CharField()
    created_at = serializers.DateTimeField()


class CompareMetricSerializer(serializers.Serializer[dict[str, str]]):
    key = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    unit = serializers.CharField()


class CompareRowSerializer(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField(help_text="Algorithm, setting or profile.")
    label = serializers.CharField()  # type: ignore[assignment]
    values = serializers.DictField(
        child=serializers.ListField(child=serializers.FloatField(allow_null=True)),
        help_text="For each metric key, one value per run, in the order of `runs` (oldest first).",
    )


class CompareSerializer(serializers.Serializer[dict[str, Any]]):
    """Runs of one kind side by side."""

    kind = serializers.ChoiceField(choices=["estimate", "benchmark", "fio"])
    runs = CompareRunSerializer(many=True)
    metrics = CompareMetricSerializer(many=True)
    rows = CompareRowSerializer(many=True)


class SourcesSerializer(serializers.Serializer[dict[str, list[str]]]):
    """Datasets and zvols the advisor can read."""

    dataset = serializers.ListField(child=serializers.CharField())
    zvol = serializers.ListField(child=serializers.CharField())
