"""The ACL type of a file system (`acltype`), as the panel offers it: POSIX or off."""

from __future__ import annotations

# What the panel offers; OpenZFS also takes nfsv4, which Linux cannot enforce.
ACLTYPES = ("posix", "off")


def acl_properties(acltype: str) -> dict[str, str]:
    """The ZFS properties that give a file system this ACL type.

    POSIX ACLs come with xattr=sa, as TrueNAS sets them: with the default xattr=on (dir) each
    ACL is a hidden directory and file beside the inode, so every access check costs extra
    reads; sa keeps it in the inode. Turning ACLs off leaves xattr alone: sa stays the faster
    way to keep any extended attribute.
    """
    if acltype == "posix":
        return {"acltype": "posix", "xattr": "sa"}
    return {"acltype": acltype}
