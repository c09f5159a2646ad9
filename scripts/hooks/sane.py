#!/usr/bin/env python3
"""sane.py: the sane-hooks command-line tool (status, doctor, install, review, learn, ...)."""

import sys

sys.dont_write_bytecode = False
from core.cli.main import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
