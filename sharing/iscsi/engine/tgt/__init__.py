"""The tgt engine (a private userspace `tgtd`, driven through `tgtadm`): `TgtEngine`.

- `state`: what tgtd shows as plain frozen data (`RunningState`, `TgtTarget`, `TgtLun`...).
- `rules`: what tgt can express (`validate`, `refuse`) and how settings map to its ACLs.
- `plan`: the `Planner` and `plan(desired, running, records, sizes)`, steps in a safe order.
- `steps`: the step type (one tgtadm call), and how one runs.
- `parsing`: reading `tgtadm ... show` output into state and sessions.
- `engine`: `TgtEngine`, the `IscsiEngine` that ties these together.
- `admin`: runs tgtadm against the private control socket; `daemon`: starts and stops tgtd.
- `records`: what tgtd cannot show back (secret fingerprints, exact LUN sizes).
"""

from sharing.iscsi.engine.tgt.engine import TgtEngine

__all__ = ["TgtEngine"]
