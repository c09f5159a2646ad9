#!/usr/bin/env python3
"""Stop, SubagentStop, SessionEnd, TaskCompleted: the Stop gates in order."""

import sys

sys.dont_write_bytecode = False  # the logic must load from cached bytecode: speed
from core.engine import main  # noqa: E402

sys.exit(main("sanestop"))
