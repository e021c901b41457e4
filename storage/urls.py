"""Pages of the storage section."""

from django.urls import path

from storage.views import datasets, pools, scrub

app_name = "storage"
urlpatterns = [
    path("", pools.index, name="index"),
    path("disks/", pools.disks, name="disks"),
    path("pools/create/", pools.pool_create, name="pool-create"),
    path("pools/import/", pools.pool_import, name="pool-import"),
    path("pools/<str:name>/", pools.pool_detail, name="pool"),
    path("pools/<str:name>/scrub/", pools.pool_scrub, name="pool-scrub"),
    path("pools/<str:name>/scrub-schedule/", scrub.scrub_schedule, name="scrub-schedule"),
    path("pools/<str:name>/export/", pools.pool_export, name="pool-export"),
    path("pools/<str:name>/destroy/", pools.pool_destroy, name="pool-destroy"),
    path("datasets/create/", datasets.dataset_create, name="dataset-create"),
    path("datasets/<path:name>/edit/", datasets.dataset_edit, name="dataset-edit"),
    path("datasets/<path:name>/delete/", datasets.dataset_delete, name="dataset-delete"),
    path("zvols/create/", datasets.zvol_create, name="zvol-create"),
    path("zvols/<path:name>/edit/", datasets.zvol_edit, name="zvol-edit"),
    path("dedup-estimate/", datasets.dedup_estimate, name="dedup-estimate"),
]
