"""Plain Python for encryption: the key files kept on the data partition."""
