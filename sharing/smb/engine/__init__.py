"""The SMB file server (Samba): desired state, smb.conf rendering, the smbd it runs (no Django)."""
