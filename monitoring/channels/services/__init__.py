"""Channel writes: their settings (channels), and the alert events sent through them (delivery)."""
