"""NFS: the server's settings and exports of datasets, served by the kernel's nfsd."""
