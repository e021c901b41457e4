"""Monitoring's URLs: the metrics pages (at /monitoring/), the alert and channel pages (at
/alerts/), and the metrics and alerts APIs (/api/monitoring/, /api/alerts/)."""

from __future__ import annotations

from monitoring.alerting import urls as alerting
from monitoring.channels import urls as channels
from monitoring.exporter import urls as exporter
from monitoring.metrics import urls as metrics

app_name = "monitoring"
urlpatterns = metrics.urlpatterns + exporter.urlpatterns
metrics_api_urlpatterns = metrics.api_urlpatterns + exporter.api_urlpatterns
# /metrics, at the site's root where Prometheus looks by default
root_urlpatterns = exporter.root_urlpatterns
alerts_urlpatterns = alerting.urlpatterns + channels.urlpatterns
# channels first: the alerts' router owns /api/alerts/<id>/
alerts_api_urlpatterns = channels.api_urlpatterns + alerting.api_urlpatterns
