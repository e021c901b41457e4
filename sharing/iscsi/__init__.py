"""iSCSI engines: plain Python (no Django) that reconcile a running target with a desired state.

- `desired`: frozen, engine-neutral specs the panel builds from its database rows.
- `base`: the `IscsiEngine` Protocol and the `ChangeReport` / `Session` results.
- `tgt`: the userspace tgtd engine (`TgtEngine`); `tgtrules`, `tgtplan`, `tgtparse`,
  `tgtadm`, `tgtd`, `tgtrecord` are its parts.
"""
