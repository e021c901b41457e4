"""iSCSI: portals, initiator groups, CHAP, targets, extents and LUNs; served by LIO or tgt."""
