"""The storage API router (mounted at /api/storage/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from storage.datasets import api as views
from storage.disks import api as disk_views
from storage.scrub import api as scrub_views
from storage.smart import api as smart_views
from storage.snapshots import api as snapshot_views

router = DefaultRouter()
router.register("disks", views.DiskViewSet, basename="disk")
router.register("pools", views.PoolViewSet, basename="pool")
router.register("datasets", views.DatasetViewSet, basename="dataset")
router.register("zvols", views.ZvolViewSet, basename="zvol")
router.register("snapshots", snapshot_views.SnapshotViewSet, basename="snapshot")
router.register("snapshot-tasks", snapshot_views.SnapshotTaskViewSet, basename="snapshot-task")
router.register("smart-tests", smart_views.SmartTaskViewSet, basename="smart-test")
urlpatterns = [
    path("dedup-estimate/", views.DedupEstimateView.as_view(), name="dedup-estimate"),
    path(
        "pools/<str:name>/scrub-schedule/",
        scrub_views.ScrubScheduleView.as_view(),
        name="scrub-schedule",
    ),
    *disk_views.urlpatterns,
    *smart_views.urlpatterns,
    *router.urls,
]
