"""The sharing APIs: iSCSI (at /api/sharing/iscsi/), file sharing (/api/sharing/), services."""

from __future__ import annotations

from nasui.api.routes import api_urlpatterns
from sharing.control import urls as control
from sharing.iscsi import urls as iscsi
from sharing.urls import FILE_SHARING

iscsi_urlpatterns = api_urlpatterns(iscsi)
files_urlpatterns = api_urlpatterns(*FILE_SHARING)
services_urlpatterns = control.api_urlpatterns
