"""The NFS file server (the kernel's nfsd): desired exports, exports file, exportfs (no Django)."""
