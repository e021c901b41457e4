"""The sharing app: iSCSI, SMB and NFS servers, and the local accounts file shares admit."""

from django.apps import AppConfig


class SharingConfig(AppConfig):
    """Sharing section of the panel."""

    name = "sharing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register each protocol's runtime, and give storage the shares that hold its objects
        and the accounts that may own them (models are loaded only now)."""
        from sharing import runtime
        from sharing.accounts import selectors as accounts
        from sharing.control import services as control
        from sharing.iscsi import runtime as iscsi_runtime
        from sharing.iscsi import selectors as iscsi
        from sharing.nfs import runtime as nfs_runtime
        from sharing.nfs import selectors as nfs
        from sharing.smb import runtime as smb_runtime
        from sharing.smb import selectors as smb
        from storage import registry

        # The Services page lists them in this order.
        runtime.register(iscsi_runtime.IscsiRuntime())
        runtime.register(smb_runtime.SmbRuntime())
        runtime.register(nfs_runtime.NfsRuntime())
        runtime.register_nt_hasher(smb_runtime.nt_hash)
        registry.register_holder_checker("sharing.iscsi", iscsi.extent_holders)
        registry.register_holder_checker("sharing.smb", smb.share_holders)
        registry.register_holder_checker("sharing.nfs", nfs.export_holders)
        registry.register_resize_listener("sharing.iscsi", iscsi_runtime.refresh_grown_luns)
        registry.register_account_lister("sharing.accounts", accounts.local_accounts)
        registry.register_key_listener("sharing", control.keys_changed)
