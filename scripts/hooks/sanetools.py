#!/usr/bin/env python3
"""PreToolUse: the gates, in order; first block wins."""

import sys

sys.dont_write_bytecode = False  # the logic must load from cached bytecode: speed
from core.engine import main  # noqa: E402

sys.exit(main("sanetools"))
