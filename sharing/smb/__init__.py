"""SMB: the server's settings and shares of datasets, served by Samba."""
