"""Replication: copy datasets and zvols to another box or pool over SSH, and get them back."""
