"""iSCSI engines: plain Python (no Django) that reconcile a running target with a desired state.

Shared by both engines:
- `desired`: frozen, engine-neutral specs the panel builds from its database rows.
- `base`: the `IscsiEngine` Protocol and the `ChangeReport` / `Session` results.
- `errors`: the typed errors (bad spec, unsupported by an engine, command failures).
- `iqn`: iSCSI names (iqn., eui., naa.) checked and joined.
- `host`: a backing store's size.

The engines, one package each with the same module names for the same jobs (`state`,
`rules`, `plan`, `steps`, `parsing`, `engine`) plus parts of their own:
- `lio`: the kernel's LIO target through rtslib-fb (`LioEngine`; also `kernel`, `backing`).
- `tgt`: a private userspace tgtd (`TgtEngine`; also `admin`, `daemon`, `records`).
"""
