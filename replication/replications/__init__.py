"""Replication tasks: a dataset's snapshots sent to another box, incrementally, kept there."""
