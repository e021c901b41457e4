"""The LIO engine (the Linux kernel's iSCSI target, through rtslib-fb): `LioEngine`.

- `state`: LIO's configuration as plain frozen data (running or wanted).
- `rules`: what LIO can express (`validate`, `refuse`) and the desired -> wanted mapping.
- `plan`: the `Planner` and `plan(wanted, running)`, the steps in a safe order.
- `steps`: the step types, and how each runs on rtslib.
- `parsing`: reading rtslib's objects into `LioState` and sessions.
- `engine`: `LioEngine`, the `IscsiEngine` that ties these together.
- `kernel`: rtslib (imported lazily, so this package imports without it), configfs, modules.
- `backing`: which storage-object kind a backing store needs, and its size.
"""

from sharing.iscsi.engine.lio.engine import LioEngine

__all__ = ["LioEngine"]
