"""The advisor's REST API."""
