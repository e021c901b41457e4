"""Storage's URLs: every sub-domain's pages (at /storage/) and API (at /api/storage/)."""

from __future__ import annotations

from nasui.api.routes import api_patterns_of
from storage.datasets import urls as datasets
from storage.dedup import urls as dedup
from storage.disks import urls as disks
from storage.encryption import urls as encryption
from storage.pools import urls as pools
from storage.scrub import urls as scrub
from storage.smart import urls as smart
from storage.snapshot_tasks import urls as snapshot_tasks
from storage.snapshots import urls as snapshots

# The order in which the sub-domains' routes are registered on the API router and listed
# at its root (/api/storage/).
SUBDOMAINS = (disks, pools, datasets, encryption, snapshots, snapshot_tasks, smart, dedup, scrub)

app_name = "storage"
urlpatterns = [pattern for urls in SUBDOMAINS for pattern in urls.urlpatterns]
api_urlpatterns = api_patterns_of(*SUBDOMAINS)
