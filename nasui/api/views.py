"""Core API views: the API root and jobs."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.urls import URLResolver, get_resolver
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.routers import APIRootView

from nasui import selectors, services
from nasui.api.serializers import JobSerializer, SelfTestSerializer
from nasui.models import Job


class NasuiApiRoot(APIRootView):
    """The API's entry point: links to every section, the schema and its documentation."""

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().get(request, *args, **kwargs)
        root = reverse("api-root", request=request)
        for section in api_sections():
            response.data[section.rstrip("/")] = root + section
        response.data["tokens"] = reverse("api-token", request=request)
        for name in ("schema", "docs"):
            response.data[name] = reverse(f"api-{name}", request=request)
        return response


def api_sections() -> list[str]:
    """Every section mounted under /api/ ("storage/", "sharing/iscsi/"...), read from the URL
    configuration itself so that a new section is listed without being named here."""
    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/")
    assert isinstance(api, URLResolver)
    return [str(p.pattern) for p in api.url_patterns if isinstance(p, URLResolver) and p.namespace]


class JobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Job]):
    """Background jobs with their status and progress."""

    serializer_class = JobSerializer
    filterset_fields = ["status", "kind"]

    def get_queryset(self) -> QuerySet[Job]:
        return selectors.job_list()

    @extend_schema(request=SelfTestSerializer, responses={202: JobSerializer})
    @action(detail=False, methods=["post"], url_path="self-test")
    def self_test(self, request: Request) -> Response:
        """Start the self-test job: it counts a few steps on a worker."""
        params = SelfTestSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        job = services.job_start(
            kind="self_test",
            title="Self-test",
            task="nasui.self_test",
            user=request.user,
            cancellable=True,
            steps=params.validated_data["steps"],
        )
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={202: JobSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        """Ask a cancellable job to stop: it stops at its next step and cleans up after itself."""
        job = services.job_cancel(job=self.get_object())
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)
