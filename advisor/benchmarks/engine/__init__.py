"""Measuring settings on scratch datasets and running fio (plain Python, no Django)."""
