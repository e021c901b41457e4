"""Disk URLs: a pool's disk page and its actions, growing a pool; the disks API."""

from __future__ import annotations

from django.urls import path

from storage.disks import api, views

POOL = "pools/<str:name>/"
urlpatterns = [
    path(f"{POOL}grow/", views.pool_grow, name="pool-grow"),
    path(f"{POOL}disks/<str:disk>/", views.disk_page, name="pool-disk"),
    path(f"{POOL}disks/<str:disk>/<str:action>/", views.disk_action, name="pool-disk-action"),
    path(f"{POOL}disks/<str:disk>/new/<str:action>/", views.disk_with_new, name="pool-disk-new"),
]
api_routes = [("disks", api.DiskViewSet, "disk")]
api_urlpatterns = [
    path(f"{POOL}disks/offline/", api.DiskOfflineView.as_view(), name="pool-disk-offline"),
    path(f"{POOL}disks/online/", api.DiskOnlineView.as_view(), name="pool-disk-online"),
    path(f"{POOL}disks/replace/", api.DiskReplaceView.as_view(), name="pool-disk-replace"),
    path(f"{POOL}disks/attach/", api.DiskAttachView.as_view(), name="pool-disk-attach"),
    path(f"{POOL}disks/detach/", api.DiskDetachView.as_view(), name="pool-disk-detach"),
    path(f"{POOL}vdevs/", api.VdevAddView.as_view(), name="pool-vdev-add"),
    path(f"{POOL}aux/", api.AuxAddView.as_view(), name="pool-aux-add"),
    path(f"{POOL}aux/<str:disk>/", api.AuxRemoveView.as_view(), name="pool-aux-remove"),
]
