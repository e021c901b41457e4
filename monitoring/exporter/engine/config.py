"""The example Prometheus scrape configuration shown beside the token."""

from __future__ import annotations

import json


def scrape_config(
    target: str, *, scheme: str = "https", credentials_file: str, interval: str = "30s"
) -> str:
    """A prometheus.yml scraping this panel's /metrics at `target` (host:port) with the token
    read from `credentials_file` (strings quoted as JSON, which YAML reads the same)."""
    lines = [
        "scrape_configs:",
        "  - job_name: nasui",
        f"    scrape_interval: {interval}",
        f"    scheme: {scheme}",
        "    metrics_path: /metrics",
        "    authorization:",
        "      type: Bearer",
        f"      credentials_file: {json.dumps(credentials_file)}",
    ]
    if scheme == "https":
        lines += [
            "    # the panel's certificate (System -> Certificate) unless a public CA signed it",
            "    tls_config:",
            "      ca_file: /etc/prometheus/nasui-ca.pem",
        ]
    lines += ["    static_configs:", f"      - targets: [{json.dumps(target)}]"]
    return "\n".join(lines) + "\n"
