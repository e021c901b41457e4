"""The file-sharing API router (mounted at /api/sharing/): accounts, SMB, NFS, the wizard."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from sharing.accounts import api as views

router = DefaultRouter()
router.register("users", views.LocalUserViewSet, basename="user")
router.register("groups", views.LocalGroupViewSet, basename="group")
router.register("smb/shares", views.SmbShareViewSet, basename="smb-share")
router.register("nfs/shares", views.NfsShareViewSet, basename="nfs-share")
urlpatterns = [
    path("smb/settings/", views.SmbSettingsView.as_view(), name="smb-settings"),
    path("smb/wizard/", views.SmbShareWizardView.as_view(), name="smb-wizard"),
    path("wizard/", views.ShareWizardView.as_view(), name="share-wizard"),
    path("permissions/", views.PermissionsView.as_view(), name="permissions"),
    path("nfs/settings/", views.NfsSettingsView.as_view(), name="nfs-settings"),
    *router.urls,
]
