"""Plain Python for replication tasks: what to send (the chain both sides share), what to prune."""
