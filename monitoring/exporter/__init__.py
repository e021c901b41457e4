"""The Prometheus /metrics endpoint: the panel's stored figures in Prometheus' text format."""
