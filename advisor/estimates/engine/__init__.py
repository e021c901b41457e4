"""Estimating compression and dedup from samples of the data (plain Python, no Django)."""
