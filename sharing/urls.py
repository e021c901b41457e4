"""Pages of the sharing section (mounted at /sharing/): iSCSI, then the file-sharing ones."""

from __future__ import annotations

from sharing.accounts import urls as accounts
from sharing.files import urls as files
from sharing.iscsi import urls as iscsi
from sharing.nfs import urls as nfs
from sharing.smb import urls as smb

# File sharing: its routes on its API router (at /api/sharing/), in this order.
FILE_SHARING = (accounts, smb, nfs, files)

app_name = "sharing"
urlpatterns = [pattern for urls in (iscsi, *FILE_SHARING) for pattern in urls.urlpatterns]
