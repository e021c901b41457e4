"""Advisor API: start estimates, settings benchmarks and fio runs; read them; compare them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from advisor import selectors
from advisor import serializers as s
from advisor.benchmarks import services as bench_services
from advisor.estimates import services
from nasui.api.bodies import validated
from nasui.api.serializers import JobSerializer
from nasui.models import Job

KIND = OpenApiParameter(
    "kind", str, enum=list(selectors.KINDS), description="Only runs of this kind."
)


class RunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Job]):
    """Every advisor run, newest first, with its result once it has succeeded."""

    serializer_class = s.RunSerializer

    def get_queryset(self) -> QuerySet[Job]:
        return selectors.run_list(self.request.query_params.get("kind"))

    @extend_schema(parameters=[KIND])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)


class _KindViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Job]):
    """Runs of one kind: list, read, and start one (202 with the job)."""

    kind: ClassVar[str]
    start_serializer: ClassVar[type[Serializer[Any]]]

    def get_queryset(self) -> QuerySet[Job]:
        return selectors.run_list(self.kind)

    def start(self) -> Callable[..., Job]:
        raise NotImplementedError

    def create(self, request: Request) -> Response:
        """Check the body, start the run; its progress and result are read from its job."""
        data = validated(self.start_serializer, request.data)
        job = self.start()(user=request.user, **data)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class EstimateViewSet(_KindViewSet):
    """Estimates of compression and dedup on a dataset, a zvol or a path (read only)."""

    kind = "estimate"
    serializer_class = s.EstimateRunSerializer
    start_serializer = s.EstimateStartSerializer

    def start(self) -> Callable[..., Job]:
        return services.estimate_start

    @extend_schema(request=s.EstimateStartSerializer, responses={202: JobSerializer})
    def create(self, request: Request) -> Response:
        return super().create(request)


class BenchmarkViewSet(_KindViewSet):
    """Settings benchmarks: a sample written to a trial dataset per setting on a pool."""

    kind = "benchmark"
    serializer_class = s.BenchmarkRunSerializer
    start_serializer = s.BenchmarkStartSerializer

    def start(self) -> Callable[..., Job]:
        return bench_services.benchmark_start

    @extend_schema(request=s.BenchmarkStartSerializer, responses={202: JobSerializer})
    def create(self, request: Request) -> Response:
        return super().create(request)


class FioViewSet(_KindViewSet):
    """fio profiles on a dataset (a test file in it) or a zvol."""

    kind = "fio"
    serializer_class = s.FioRunSerializer
    start_serializer = s.FioStartSerializer

    def start(self) -> Callable[..., Job]:
        return bench_services.fio_start

    @extend_schema(request=s.FioStartSerializer, responses={202: JobSerializer})
    def create(self, request: Request) -> Response:
        return super().create(request)


class CompareView(APIView):
    """Two to six succeeded runs of one kind side by side."""

    @extend_schema(parameters=[s.CompareQuerySerializer], responses=s.CompareSerializer)
    def get(self, request: Request) -> Response:
        validated(s.CompareQuerySerializer, request.query_params)
        # ?runs=3,7 as documented; ?runs=3&runs=7 (what an HTML form sends) works too.
        comparison = selectors.compare(selectors.parse_ids(request.query_params.getlist("runs")))
        return Response(s.CompareSerializer(comparison).data)


class SourcesView(APIView):
    """The datasets and zvols an estimate or a benchmark can read."""

    @extend_schema(responses=s.SourcesSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.SourcesSerializer(services.source_choices()).data)
