"""Pages of the storage section."""

from django.urls import path

from storage.datasets import views as datasets
from storage.disks import views as disk_ops
from storage.pools import views as pools
from storage.scrub import views as scrub
from storage.smart import views as smart
from storage.snapshot_tasks import views as snapshot_tasks
from storage.snapshots import views as snapshots

app_name = "storage"
urlpatterns = [
    path("", pools.index, name="index"),
    path("disks/", pools.disks, name="disks"),
    path("disks/<str:name>/smart-test/", smart.smart_test, name="disk-smart-test"),
    path("smart-tests/add/", smart.smart_task_create, name="smart-task-create"),
    path("smart-tests/<int:pk>/edit/", smart.smart_task_edit, name="smart-task-edit"),
    path("smart-tests/<int:pk>/delete/", smart.smart_task_delete, name="smart-task-delete"),
    path("pools/create/", pools.pool_create, name="pool-create"),
    path("pools/import/", pools.pool_import, name="pool-import"),
    path("pools/<str:name>/", pools.pool_detail, name="pool"),
    path("pools/<str:name>/scrub/", pools.pool_scrub, name="pool-scrub"),
    path("pools/<str:name>/scrub-schedule/", scrub.scrub_schedule, name="scrub-schedule"),
    path("pools/<str:name>/grow/", disk_ops.pool_grow, name="pool-grow"),
    path("pools/<str:name>/disks/<str:disk>/", disk_ops.disk_page, name="pool-disk"),
    path(
        "pools/<str:name>/disks/<str:disk>/<str:action>/",
        disk_ops.disk_action,
        name="pool-disk-action",
    ),
    path(
        "pools/<str:name>/disks/<str:disk>/new/<str:action>/",
        disk_ops.disk_with_new,
        name="pool-disk-new",
    ),
    path("pools/<str:name>/export/", pools.pool_export, name="pool-export"),
    path("pools/<str:name>/destroy/", pools.pool_destroy, name="pool-destroy"),
    path("datasets/create/", datasets.dataset_create, name="dataset-create"),
    path("datasets/<path:name>/edit/", datasets.dataset_edit, name="dataset-edit"),
    path("datasets/<path:name>/delete/", datasets.dataset_delete, name="dataset-delete"),
    path("zvols/create/", datasets.zvol_create, name="zvol-create"),
    path("zvols/<path:name>/edit/", datasets.zvol_edit, name="zvol-edit"),
    path("dedup-estimate/", datasets.dedup_estimate, name="dedup-estimate"),
    path("snapshots/", snapshots.snapshot_list, name="snapshots"),
    path("snapshots/create/", snapshots.snapshot_create, name="snapshot-create"),
    path("snapshots/destroy/", snapshots.snapshot_destroy, name="snapshot-destroy"),
    path("snapshots/destroy-range/", snapshots.snapshot_destroy_range, name="snapshot-range"),
    path("snapshots/<path:name>/rollback/", snapshots.snapshot_rollback, name="snapshot-rollback"),
    path("snapshots/<path:name>/clone/", snapshots.snapshot_clone, name="snapshot-clone"),
    path("snapshots/<path:name>/diff/", snapshots.snapshot_diff, name="snapshot-diff"),
    path("snapshot-tasks/", snapshot_tasks.task_list, name="snapshot-tasks"),
    path("snapshot-tasks/add/", snapshot_tasks.task_create, name="snapshot-task-create"),
    path("snapshot-tasks/<int:pk>/edit/", snapshot_tasks.task_edit, name="snapshot-task-edit"),
    path(
        "snapshot-tasks/<int:pk>/delete/", snapshot_tasks.task_delete, name="snapshot-task-delete"
    ),
]
