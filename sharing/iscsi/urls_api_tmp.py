"""The iSCSI API router (mounted at /api/sharing/iscsi/)."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from sharing.iscsi import api as views

router = DefaultRouter()
router.register("portals", views.PortalViewSet, basename="portal")
router.register("initiator-groups", views.InitiatorGroupViewSet, basename="initiator-group")
router.register("auth-groups", views.AuthGroupViewSet, basename="auth-group")
router.register("targets", views.TargetViewSet, basename="target")
router.register("extents", views.ExtentViewSet, basename="extent")
router.register("associations", views.AssociationViewSet, basename="association")
urlpatterns = [
    path("settings/", views.SettingsView.as_view(), name="settings"),
    path("wizard/", views.WizardView.as_view(), name="wizard"),
    path("service/", views.ServiceView.as_view(), name="service"),
    *router.urls,
]
