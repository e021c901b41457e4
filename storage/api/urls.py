"""The storage API router (mounted at /api/storage/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from storage.api import disk_views, scrub_views, smart_views, snapshot_views, views

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
