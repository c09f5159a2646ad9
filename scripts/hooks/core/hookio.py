"""Hook I/O: read the payload once, build answers, print them, exit 0 or 2."""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False  # only the type checker imports these
if TYPE_CHECKING:
    from typing import Any, BinaryIO

MAX_STDIN = 32 * 1024 * 1024  # Write payloads can be large; beyond this we fail open.


def read_payload(stream: BinaryIO | None = None) -> tuple[dict[str, Any], str | None]:
    """Return (payload dict, problem str or None). Never raises."""
    stream = stream or sys.stdin.buffer
    try:
        raw = stream.read(MAX_STDIN + 1)
    except Exception as exc:  # closed or broken stdin
        return {}, "cannot read stdin: %s" % exc.__class__.__name__
    if len(raw) > MAX_STDIN:
        return {}, "stdin larger than %d bytes" % MAX_STDIN
    if not raw.strip():
        return {}, "empty stdin"
    try:
        data = json.loads(raw.decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return {}, "stdin is not JSON"
    if not isinstance(data, dict):
        return {}, "stdin is not a JSON object"
    return data, None


class Answer:
    """What a hook says. Built by the handlers, printed once by the engine.

    block: the reason for exit 2 (stderr). context: additionalContext for the model.
    user: systemMessage for the person. decision: PreToolUse 'deny' | 'ask'.
    """

    __slots__ = ("block", "context", "user", "decision", "reason", "extra", "consumed")

    def __init__(self) -> None:
        self.block: str | None = None
        self.context: list[str] = []
        self.user: list[str] = []
        self.decision: str | None = None
        self.reason: str | None = None
        self.extra: dict[str, Any] = {}
        self.consumed = False

    def deny(self, reason: str) -> Answer:
        if self.block is None:  # a later gate's deny beats an earlier gate's ask
            self.block = reason
        return self

    def consume(self, text: str) -> Answer:
        """A prompt command answered: the person sees text, the model never sees the prompt."""
        if self.block is None:
            self.block, self.consumed = text, True
        return self

    def ask(self, reason: str) -> Answer:
        if self.block is None and self.decision is None:
            self.decision, self.reason = "ask", reason
        return self

    def add_context(self, text: str | None) -> None:
        if text:
            self.context.append(text)

    def tell_user(self, text: str | None) -> None:
        if text:
            self.user.append(text)

    @property
    def blocked(self) -> bool:
        return self.block is not None


# Events whose JSON may carry hookSpecificOutput.additionalContext.
CONTEXT_EVENTS = {
    "UserPromptSubmit",
    "SessionStart",
    "SubagentStart",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "Stop",
    "SubagentStop",
}
# Events that accept a top-level systemMessage we want shown.
NO_OUTPUT_EVENTS = {"SessionEnd"}


def render(event: str, answer: Answer) -> tuple[int, str, str]:
    """Return (exit code, stdout text, stderr text)."""
    if answer.block is not None:
        out: dict[str, Any] = {}
        if answer.user and event not in NO_OUTPUT_EVENTS:
            out["systemMessage"] = "\n".join(answer.user)
        if event == "UserPromptSubmit" and answer.consumed:
            # `continue: false` is what the terminal UI shows cleanly (tried in tmux with
            # 2.1.330): the typed prompt, then "Operation stopped by hook: <text>", and an
            # empty input box; `decision: block` alone prints "UserPromptSubmit operation
            # blocked by hook: ... Original prompt: ..." and leaves the text typed. The block
            # stays for a client that does not honour `continue` here.
            out["continue"] = False
            # (systemMessage is not shown next to it: what the person must read goes here)
            out["stopReason"] = "\n".join([answer.block] + answer.user)
        if event in ("Stop", "SubagentStop", "UserPromptSubmit"):
            out["decision"] = "block"
            out["reason"] = answer.block
            return 0, json.dumps(out), ""
        if event == "PreToolUse":
            out["hookSpecificOutput"] = {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": answer.block,
            }
            if answer.context:
                out["hookSpecificOutput"]["additionalContext"] = "\n".join(answer.context)
            return 0, json.dumps(out), ""
        # TaskCompleted and others: exit 2 with the reason on stderr.
        return 2, json.dumps(out) if out else "", answer.block
    out = {}
    spec: dict[str, Any] = {}
    if answer.decision == "ask" and event == "PreToolUse":
        spec.update(permissionDecision="ask", permissionDecisionReason=answer.reason)
    if answer.context and event in CONTEXT_EVENTS:
        spec["additionalContext"] = "\n".join(answer.context)[:9500]
    spec.update(answer.extra)
    if spec:
        spec["hookEventName"] = event
        out["hookSpecificOutput"] = spec
    if answer.user and event not in NO_OUTPUT_EVENTS:
        out["systemMessage"] = "\n".join(answer.user)[:9500]
    return 0, json.dumps(out) if out else "", ""


def emit(event: str, answer: Answer) -> int:
    code, out, err = render(event, answer)
    try:
        if out:
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        if err:
            sys.stderr.write(err + "\n")
            sys.stderr.flush()
    except Exception:
        pass
    return code
