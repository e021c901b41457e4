"""Core API views: the API root and jobs."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
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
        response.data["storage"] = reverse("storage-api:api-root", request=request)
        response.data["monitoring"] = reverse("monitoring-api:api-root", request=request)
        response.data["sharing/iscsi"] = reverse("sharing-api:api-root", request=request)
        response.data["advisor"] = reverse("advisor-api:api-root", request=request)
        for name in ("schema", "docs"):
            response.data[name] = reverse(f"api-{name}", request=request)
        return response


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
