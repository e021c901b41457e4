"""Sharing's URLs: the pages (at /sharing/) and the APIs: iSCSI (/api/sharing/iscsi/), file
sharing (/api/sharing/) and the services (/api/services/; their page is sharing.control.urls)."""

from __future__ import annotations

from nasui.api.routes import api_patterns_of
from sharing.accounts import urls as accounts
from sharing.control import urls as control
from sharing.files import urls as files
from sharing.iscsi import urls as iscsi
from sharing.nfs import urls as nfs
from sharing.smb import urls as smb

# File sharing: its routes on its API router (at /api/sharing/), in this order.
FILE_SHARING = (accounts, smb, nfs, files)

app_name = "sharing"
urlpatterns = [pattern for urls in (iscsi, *FILE_SHARING) for pattern in urls.urlpatterns]
iscsi_api_urlpatterns = api_patterns_of(iscsi)
files_api_urlpatterns = api_patterns_of(*FILE_SHARING)
services_api_urlpatterns = control.api_urlpatterns
