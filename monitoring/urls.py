"""Pages of the monitoring section (mounted at /monitoring/)."""

from __future__ import annotations

from monitoring.metrics import urls as metrics

app_name = "monitoring"
urlpatterns = metrics.urlpatterns
