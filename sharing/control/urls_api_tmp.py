"""The services API (mounted at /api/services/): iSCSI, SMB and NFS."""

from django.urls import path

from sharing.control import api as views

urlpatterns = [
    path("", views.ServiceListView.as_view(), name="list"),
    path("<str:name>/", views.ServiceDetailView.as_view(), name="detail"),
    path("<str:name>/<str:action>/", views.ServiceActionView.as_view(), name="action"),
]
