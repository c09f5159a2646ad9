#!/usr/bin/env python3
"""Stop, SubagentStop, SessionEnd, TaskCompleted: the Stop gates in order."""

import gc
import sys

gc.disable()  # a short run that ends in os._exit: collecting cycles would only cost ~1 ms
sys.dont_write_bytecode = False  # the logic must load from cached bytecode: speed
if sys.version_info < (3, 9):  # noqa: UP036  (the launcher may find an old one)
    from core.launch import too_old

    sys.exit(too_old("sanestop"))
from core.engine import leave, main  # noqa: E402

leave(main("sanestop"))
