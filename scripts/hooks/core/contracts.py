"""The contracts between the engine and the features, for the type checker and the reader.

A feature plugs into a hook by adding a function of one of these shapes to a list:
gates_pre.GATES (PreToolUse), track.TRACKERS (PostToolUse and PostToolUseFailure),
stop.STOP_GATES (Stop). Modules import these names under `if TYPE_CHECKING:` only: the hot
path never loads typing.
"""

from __future__ import annotations

from typing import Callable, Optional

from core.engine import Ctx
from core.policy import Facts

# PreToolUse: a block message starting with its [code], or None to let the call through.
Gate = Callable[[Ctx, Facts], Optional[str]]
# PostToolUse / PostToolUseFailure: ok is True for PostToolUse. Changes ctx.state only.
Tracker = Callable[[Ctx, Facts, bool], None]
# Stop: held says the agent cannot act on a block now (breaker tripped, halted, tamper lock).
StopGate = Callable[[Ctx, bool], Optional[str]]
# One hook event: reads ctx, changes ctx.state and ctx.answer.
Handler = Callable[[Ctx], None]
