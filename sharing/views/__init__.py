"""Sharing pages: the iSCSI overview, the wizard and one form per object."""
