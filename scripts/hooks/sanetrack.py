#!/usr/bin/env python3
"""PostToolUse, PostToolUseFailure: edits, research credit, failures, the breaker."""

import sys

sys.dont_write_bytecode = False  # the logic must load from cached bytecode: speed
from core.engine import main  # noqa: E402

sys.exit(main("sanetrack"))
