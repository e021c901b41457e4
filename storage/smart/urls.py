"""SMART URLs: the Disks page, a self-test now, scheduled self-tests; the SMART API."""

from __future__ import annotations

from django.urls import path

from storage.smart import api, views

urlpatterns = [
    path("disks/", views.disks, name="disks"),
    path("disks/<str:name>/smart-test/", views.smart_test, name="disk-smart-test"),
    path("smart-tests/add/", views.smart_task_create, name="smart-task-create"),
    path("smart-tests/<int:pk>/edit/", views.smart_task_edit, name="smart-task-edit"),
    path("smart-tests/<int:pk>/delete/", views.smart_task_delete, name="smart-task-delete"),
]
api_routes = [("smart-tests", api.SmartTaskViewSet, "smart-test")]
api_urlpatterns = [
    path("smart/", api.SmartListView.as_view(), name="smart-list"),
    path("disks/<str:name>/smart/", api.DiskSmartView.as_view(), name="disk-smart"),
    path("disks/<str:name>/smart/tests/", api.DiskSmartTestView.as_view(), name="disk-smart-test"),
]
