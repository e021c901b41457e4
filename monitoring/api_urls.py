"""The monitoring APIs: metrics (at /api/monitoring/) and alerts (at /api/alerts/)."""

from __future__ import annotations

from monitoring.alerting import urls as alerting
from monitoring.metrics import urls as metrics

metrics_urlpatterns = metrics.api_urlpatterns
alerts_urlpatterns = alerting.api_urlpatterns
