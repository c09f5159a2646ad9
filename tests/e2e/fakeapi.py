"""A scripted Anthropic Messages API on 127.0.0.1 for driving the real Claude Code CLI.

Stdlib only (http.server). The script is stateless: the next assistant turn is chosen by
counting the assistant messages the request already carries since the person's last prompt,
so a Stop-hook continuation (a user message "Stop hook feedback: ...") simply moves on to the
next scripted turn. Subagent calls (header ``x-claude-code-agent-id``) are routed by their
first user message. Requests without ``tools`` are auxiliary (titles, summaries) and get a
short text. Every request is recorded so tests can read what the model received.

    api = FakeAPI().start()
    api.script = [tool_use("Write", {"file_path": p, "content": "x"}), text("done")]
    ...  # run claude with ANTHROPIC_BASE_URL=api.url
    api.stop()
"""

from __future__ import annotations

import itertools
import json
import threading
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Union

# A block is a dict shaped like the API's content blocks: {"type": "text", "text": ...} or
# {"type": "tool_use", "id": ..., "name": ..., "input": {...}} (id filled in when missing).
Block = dict
# A turn is a list of blocks, or a callable that gets the request body and returns one
# (for turns that depend on what the model has received so far).
Turn = Union[list, Callable[[dict], list]]

AGENT_HEADER = "x-claude-code-agent-id"


def text(s: str) -> list:
    """A turn that answers with text and ends the turn."""
    return [{"type": "text", "text": s}]


def tool_use(name: str, input: dict, id: str | None = None, say: str | None = None) -> list:
    """A turn with one tool call (optionally preceded by some text)."""
    blocks = [{"type": "text", "text": say}] if say else []
    blocks.append({"type": "tool_use", "id": id, "name": name, "input": input})
    return blocks


def parallel(*calls: tuple) -> list:
    """A turn with several tool calls in one assistant message: (name, input[, id]) each."""
    blocks = []
    for call in calls:
        name, inp = call[0], call[1]
        blocks.append(
            {
                "type": "tool_use",
                "id": call[2] if len(call) > 2 else None,
                "name": name,
                "input": inp,
            }
        )
    return blocks


def block_text(content: Any) -> str:
    """The text of a message content (a string or a list of blocks), tool_results included."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        content = [content]
    parts = []
    for b in content:
        if not isinstance(b, dict):
            continue
        if b.get("type") == "text":
            parts.append(b.get("text", ""))
        elif b.get("type") == "tool_result":
            parts.append(block_text(b.get("content")))
    return "\n".join(parts)


def _is_person_prompt(msg: dict) -> bool:
    """A user message the person typed (not tool results, not Stop-hook feedback)."""
    if msg.get("role") != "user":
        return False
    content = msg.get("content")
    if isinstance(content, str):
        return not content.startswith("Stop hook feedback")
    blocks = [b for b in content or [] if isinstance(b, dict)]
    if any(b.get("type") == "tool_result" for b in blocks):
        return False
    texts = [b.get("text", "") for b in blocks if b.get("type") == "text"]
    real = [t for t in texts if not t.lstrip().startswith("<system-reminder>")]
    return bool(real) and not any(t.startswith("Stop hook feedback") for t in real)


def turns_since_prompt(messages: list) -> int:
    """Assistant messages after the person's last prompt: the index of the next turn."""
    last = -1
    for i, m in enumerate(messages):
        if _is_person_prompt(m):
            last = i
    return sum(1 for m in messages[last + 1 :] if m.get("role") == "assistant")


def first_user_text(messages: list) -> str:
    for m in messages:
        if m.get("role") == "user":
            return block_text(m.get("content"))
    return ""


@dataclass
class Recorded:
    """One request the CLI made, and what we answered."""

    method: str
    path: str
    headers: dict
    body: Any
    kind: str  # main | subagent | aux | count_tokens | models | other
    agent_id: str | None = None
    turn_index: int | None = None
    answer: list = field(default_factory=list)  # the blocks we answered with

    @property
    def messages(self) -> list:
        return (self.body or {}).get("messages", []) if isinstance(self.body, dict) else []

    def tool_results(self) -> dict:
        """tool_use_id -> {"is_error": bool, "content": str} for every result in the request."""
        out = {}
        for m in self.messages:
            if m.get("role") != "user" or not isinstance(m.get("content"), list):
                continue
            for b in m["content"]:
                if isinstance(b, dict) and b.get("type") == "tool_result":
                    out[b.get("tool_use_id")] = {
                        "is_error": bool(b.get("is_error", False)),
                        "content": block_text(b.get("content")),
                    }
        return out


class FakeAPI:
    """The scripted server. Set ``script`` (main thread turns) and ``subagents`` before a run."""

    def __init__(self, model: str = "claude-sonnet-4-5") -> None:
        self.model = model
        self.script: list[Turn] = []
        # first-user-message substring -> turns, for subagent conversations
        self.subagents: dict[str, list[Turn]] = {}
        self.aux_text = "Scripted session"
        self.end_text = "done"
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._run_tag = uuid.uuid4().hex[:8]
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> FakeAPI:
        api = self

        class Handler(_Handler):
            fake = api

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), daemon=True, name="fakeapi"
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # -- scripting ------------------------------------------------------------------------
    def new_id(self) -> str:
        return f"toolu_e2e{self._run_tag}_{next(self._ids):04d}"

    def _pick(self, turns: list[Turn], index: int, body: dict) -> list:
        if index >= len(turns):
            return text(self.end_text)
        turn = turns[index]
        blocks = turn(body) if callable(turn) else turn
        out = []
        for b in blocks:
            b = dict(b)
            if b.get("type") == "tool_use" and not b.get("id"):
                b["id"] = self.new_id()
            out.append(b)
        return out

    def answer(self, headers: dict, body: dict) -> tuple[str, str | None, int | None, list]:
        """(kind, agent_id, turn index, blocks) for a /v1/messages request."""
        messages = body.get("messages") or []
        agent_id = headers.get(AGENT_HEADER)
        if not body.get("tools"):
            return "aux", agent_id, None, text(self.aux_text)
        if agent_id:
            first = first_user_text(messages)
            index = sum(1 for m in messages if m.get("role") == "assistant")
            for key, turns in self.subagents.items():
                if key in first:
                    return "subagent", agent_id, index, self._pick(turns, index, body)
            return "subagent", agent_id, index, text(self.end_text)
        index = turns_since_prompt(messages)
        return "main", None, index, self._pick(self.script, index, body)

    # -- what tests read ------------------------------------------------------------------
    def calls(self, kind: str = "main") -> list[Recorded]:
        with self._lock:
            return [r for r in self.requests if r.kind == kind]

    def record(self, rec: Recorded) -> None:
        with self._lock:
            self.requests.append(rec)


class _Handler(BaseHTTPRequestHandler):
    fake: FakeAPI
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def _send(self, status: int, payload: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("request-id", "req_" + uuid.uuid4().hex[:12])
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(payload)

    def _json(self, status: int, obj: Any) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json")

    def _body(self) -> Any:
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            return {"_raw": raw.decode("utf-8", "replace")}

    def _headers(self) -> dict:
        return {k.lower(): v for k, v in self.headers.items()}

    def do_HEAD(self) -> None:
        self.fake.record(Recorded("HEAD", self.path, self._headers(), None, "other"))
        self._send(200, b"", "text/plain")

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        fake = self.fake
        if path.rstrip("/") == "/v1/models" or path.startswith("/v1/models/"):
            fake.record(Recorded("GET", self.path, self._headers(), None, "models"))
            model = {
                "id": fake.model,
                "type": "model",
                "display_name": fake.model,
                "created_at": "2025-01-01T00:00:00Z",
            }
            if path.startswith("/v1/models/"):
                self._json(200, model)
            else:
                self._json(
                    200,
                    {
                        "data": [model],
                        "has_more": False,
                        "first_id": fake.model,
                        "last_id": fake.model,
                    },
                )
            return
        fake.record(Recorded("GET", self.path, self._headers(), None, "other"))
        self._json(
            404, {"type": "error", "error": {"type": "not_found_error", "message": "not scripted"}}
        )

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        headers = self._headers()
        body = self._body()
        fake = self.fake
        if path == "/v1/messages/count_tokens":
            fake.record(Recorded("POST", self.path, headers, body, "count_tokens"))
            self._json(200, {"input_tokens": 100})
            return
        if path != "/v1/messages" or not isinstance(body, dict):
            fake.record(Recorded("POST", self.path, headers, body, "other"))
            self._json(
                404,
                {"type": "error", "error": {"type": "not_found_error", "message": "not scripted"}},
            )
            return
        try:
            kind, agent_id, index, blocks = fake.answer(headers, body)
        except Exception as exc:  # a broken script must show up in the test, not hang it
            fake.errors.append(f"{type(exc).__name__}: {exc}")
            kind, agent_id, index, blocks = (
                "main",
                headers.get(AGENT_HEADER),
                None,
                text(f"fakeapi script error: {exc}"),
            )
        fake.record(Recorded("POST", self.path, headers, body, kind, agent_id, index, blocks))
        model = body.get("model") or fake.model
        if body.get("stream"):
            self._send(200, sse(blocks, model), "text/event-stream")
        else:
            self._json(200, message(blocks, model))


def _stop_reason(blocks: list) -> str:
    return "tool_use" if any(b.get("type") == "tool_use" for b in blocks) else "end_turn"


def message(blocks: list, model: str) -> dict:
    return {
        "id": "msg_" + uuid.uuid4().hex[:24],
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": _stop_reason(blocks),
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": 20},
    }


def sse(blocks: list, model: str) -> bytes:
    """The streaming form of one assistant message."""
    out = []

    def ev(name: str, data: dict) -> None:
        out.append(f"event: {name}\ndata: {json.dumps(data)}\n\n")

    start = message([], model)
    start["stop_reason"] = None
    start["usage"] = {"input_tokens": 100, "output_tokens": 1}
    ev("message_start", {"type": "message_start", "message": start})
    for i, b in enumerate(blocks):
        if b["type"] == "text":
            ev(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": i,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            ev(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": i,
                    "delta": {"type": "text_delta", "text": b["text"]},
                },
            )
        else:
            ev(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": i,
                    "content_block": {
                        "type": "tool_use",
                        "id": b["id"],
                        "name": b["name"],
                        "input": {},
                    },
                },
            )
            ev(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])},
                },
            )
        ev("content_block_stop", {"type": "content_block_stop", "index": i})
    ev(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": _stop_reason(blocks), "stop_sequence": None},
            "usage": {"output_tokens": 20},
        },
    )
    ev("message_stop", {"type": "message_stop"})
    return "".join(out).encode()
