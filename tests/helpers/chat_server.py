"""A local OpenAI-compatible chat-completions server for the run tests.

It answers from the items' own ground truth (rendered as model-style text), checks each
request (model, temperature 0, system prompt, image data URL, bearer key), and injects
faults per item and attempt: ``"429"``, ``"429-retry-after"`` (with ``Retry-After: 1``),
``"500"``, ``"503"``, ``"400"``, ``"slow"`` (sleeps past the client's timeout), ``"drop"`` (closes
the connection without answering), ``"garbage"`` (a body that is not JSON) and
``"401"``. After an item's fault list is used up, it answers.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cartoqa.dataset.reader import image_mime, item_images, read_items
from helpers.loopback import POLL_S


@dataclass
class RequestLog:
    """One request the server saw."""

    item_id: str
    attempt: int
    outcome: str
    started: float


@dataclass
class ServerState:
    """Shared state: expectations, faults and what happened."""

    by_key: dict[tuple[str, tuple[str, ...]], dict[str, Any]]
    answer_text: Callable[[dict[str, Any]], str]
    model: str
    api_key: str | None
    faults: dict[str, list[str]]
    delay_s: float
    slow_s: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    attempts: dict[str, int] = field(default_factory=dict)
    log: list[RequestLog] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    #: question text -> number of images its request carried
    images_seen: dict[str, int] = field(default_factory=dict)


def _make_handler(state: ServerState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _problem(self, text: str) -> None:
            with state.lock:
                state.problems.append(text)
            self._send(400, json.dumps({"error": {"message": text}}).encode())

        def do_POST(self) -> None:
            with state.lock:
                state.in_flight += 1
                state.max_in_flight = max(state.max_in_flight, state.in_flight)
            try:
                self._handle()
            finally:
                with state.lock:
                    state.in_flight -= 1

        def _handle(self) -> None:
            started = time.monotonic()
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            if self.path != "/v1/chat/completions":
                self._problem(f"unexpected path {self.path}")
                return
            expected = f"Bearer {state.api_key}"
            if state.api_key is not None and self.headers.get("Authorization") != expected:
                self._send(401, b'{"error": {"message": "invalid api key"}}')
                return
            messages = body.get("messages", [])
            user = messages[-1]["content"] if messages else []
            texts = [p["text"] for p in user if p.get("type") == "text"]
            urls = tuple(p["image_url"]["url"] for p in user if p.get("type") == "image_url")
            # one image then the question; several: "Map k:" before each, then the question
            labels = [f"Map {k}:" for k in range(1, len(urls) + 1)] if len(urls) > 1 else []
            if not urls or texts[:-1] != labels:
                self._problem("user message must hold the images (each after 'Map k:' when "
                              "several) and one question")
                return
            state.images_seen[texts[-1]] = len(urls)
            item = state.by_key.get((texts[-1], urls))
            if item is None:
                self._problem("question and image match no item")
                return
            item_id = str(item["id"])
            if body.get("model") != state.model:
                self._problem(f"{item_id}: model {body.get('model')!r}")
            if body.get("temperature") != 0:
                self._problem(f"{item_id}: temperature {body.get('temperature')!r}")
            system = [m for m in messages if m.get("role") == "system"]
            if [m["content"] for m in system] != [item["system_prompt"]]:
                self._problem(f"{item_id}: system prompt {system!r}")
            with state.lock:
                attempt = state.attempts.get(item_id, 0)
                state.attempts[item_id] = attempt + 1
                plan = state.faults.get(item_id, [])
                fault = plan[attempt] if attempt < len(plan) else "answer"
                state.log.append(RequestLog(item_id, attempt, fault, started))
            if fault == "drop":
                self.close_connection = True
                return
            if fault == "slow":
                time.sleep(state.slow_s)
            if fault in ("429", "429-retry-after"):
                headers = {"Retry-After": "1"} if fault == "429-retry-after" else {}
                self._send(429, b'{"error": {"message": "rate limited"}}', headers)
                return
            if fault in ("500", "503"):
                self._send(int(fault), b'{"error": {"message": "server error"}}')
                return
            if fault == "400":
                self._send(400, b'{"error": {"message": "temperature is not supported"}}')
                return
            if fault == "401":
                self._send(401, b'{"error": {"message": "invalid api key"}}')
                return
            if fault == "garbage":
                self._send(200, b"<html>proxy error</html>")
                return
            if state.delay_s:
                time.sleep(state.delay_s)
            answer = {
                "id": f"chatcmpl-{item_id}-{attempt}",
                "object": "chat.completion",
                "model": state.model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": state.answer_text(item)},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
            self._send(200, json.dumps(answer, ensure_ascii=False).encode("utf-8"))

    return Handler


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 makes bursts of connections wait for SYN retries
    #: where errors of handlers other than a client hanging up are recorded
    state: ServerState

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Keep stderr clean: a client that hangs up mid-answer is normal here.

        A run that stops early closes its in-flight connections, and the handler's write
        then fails with a reset or a broken pipe; socketserver would print that traceback
        to stderr, where the tests read the run's own error line. Any other error is
        recorded in ``state.problems`` (which the tests assert empty) instead.
        """
        import sys

        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
            return
        with self.state.lock:
            self.state.problems.append(f"handler error: {exc!r}")


class ChatServer:
    """Serve ``/v1/chat/completions`` on 127.0.0.1 (an ephemeral port) in a thread.

    Parameters
    ----------
    dataset : pathlib.Path
        The dataset whose items it answers.
    answer_text : callable
        Renders an item's ground truth as response text.
    model : str
        The model name requests must carry.
    api_key : str, optional
        When given, requests without ``Authorization: Bearer <key>`` get HTTP 401.
    faults : dict, optional
        Item id to the faults of its first attempts.
    delay_s : float
        Sleep before every answer.
    slow_s : float
        Sleep of a ``"slow"`` fault.
    """

    def __init__(
        self,
        dataset: Path,
        *,
        answer_text: Callable[[dict[str, Any]], str],
        model: str = "test-model",
        api_key: str | None = None,
        faults: dict[str, list[str]] | None = None,
        delay_s: float = 0.0,
        slow_s: float = 2.5,
    ) -> None:
        by_key: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
        for item in read_items(dataset):
            urls = []
            for rel in item_images(item):
                path = dataset / rel
                urls.append(f"data:{image_mime(path)};base64,"
                            + base64.b64encode(path.read_bytes()).decode("ascii"))
            by_key[(item["question"], tuple(urls))] = item
        self.state = ServerState(by_key=by_key, answer_text=answer_text, model=model,
                                 api_key=api_key, faults=dict(faults or {}),
                                 delay_s=delay_s, slow_s=slow_s)
        self._server = _Server(("127.0.0.1", 0), _make_handler(self.state))
        self._server.state = self.state
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": POLL_S}, daemon=True)

    @property
    def url(self) -> str:
        """The server's ``/v1`` URL."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def requested_ids(self, outcome: str | None = None) -> list[str]:
        """Ids of the requests seen (with the given outcome), in arrival order."""
        with self.state.lock:
            return [e.item_id for e in self.state.log if outcome in (None, e.outcome)]

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
