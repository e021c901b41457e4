"""Storage pages: pools and disks, datasets and zvols."""
