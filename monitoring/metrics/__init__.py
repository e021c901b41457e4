"""Metrics: samples of CPU, memory, ARC, dedup table and pool I/O, their rollups and graphs."""
