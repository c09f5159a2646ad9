"""sane-hooks core: config, signed state, hook I/O and the gates."""
