"""Helpers for the appliance's end-to-end test: the qemu VM, the panel's API, iSCSI, the image."""
