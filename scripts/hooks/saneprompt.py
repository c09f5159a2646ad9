#!/usr/bin/env python3
"""UserPromptSubmit, SessionStart, SubagentStart: prompt commands, classification, context."""

import sys

sys.dont_write_bytecode = False  # the logic must load from cached bytecode: speed
from core.engine import main  # noqa: E402

sys.exit(main("saneprompt"))
