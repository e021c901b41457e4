"""Date and time formats of the panel (FORMAT_MODULE_PATH): one way of writing them everywhere."""
