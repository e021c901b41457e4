"""The storage API router (mounted at /api/storage/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from storage.api import views

router = DefaultRouter()
router.register("disks", views.DiskViewSet, basename="disk")
router.register("pools", views.PoolViewSet, basename="pool")
router.register("datasets", views.DatasetViewSet, basename="dataset")
router.register("zvols", views.ZvolViewSet, basename="zvol")
urlpatterns = [
    path("dedup-estimate/", views.DedupEstimateView.as_view(), name="dedup-estimate"),
    *router.urls,
]
