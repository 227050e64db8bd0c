"""``cartoqa run`` never follows a redirect: the key is never sent to another origin."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from helpers.loopback import POLL_S

from cartoqa.runner.client import ChatClient, EndpointError, RetryPolicy

SECRET = "sk-test-never-leaves"


class _Server:
    """A loopback HTTP server on ``host`` that records requests and answers ``reply``."""

    def __init__(self, host: str, reply: Any) -> None:
        self.seen: list[tuple[str, str | None]] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                seen.append((self.path, self.headers.get("Authorization")))
                reply(self)

            def do_GET(self) -> None:
                self.do_POST()

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever,
                         kwargs={"poll_interval": POLL_S}, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def elsewhere() -> Iterator[_Server]:
    """The other origin (127.0.0.2): it would answer like a model if it were reached."""

    def answer(handler: BaseHTTPRequestHandler) -> None:
        body = (b'{"choices": [{"message": {"content": "stolen"}, "finish_reason": "stop"}]}')
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    server = _Server("127.0.0.2", answer)
    yield server
    server.close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_is_an_error_naming_the_new_location(
    status: int, elsewhere: _Server
) -> None:
    target = f"{elsewhere.url}/v1/chat/completions"

    def redirect(handler: BaseHTTPRequestHandler) -> None:
        handler.send_response(status)
        handler.send_header("Location", target)
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    origin = _Server("127.0.0.1", redirect)
    try:
        client = ChatClient(f"{origin.url}/v1/chat/completions", api_key=SECRET,
                            policy=RetryPolicy(max_retries=0, timeout_s=5.0))
        with pytest.raises(EndpointError) as info:
            client.complete({"model": "m", "messages": []})
    finally:
        origin.close()
    message = str(info.value)
    assert f"HTTP {status}" in message and target in message
    assert len(origin.seen) == 1 and origin.seen[0][1] == f"Bearer {SECRET}"
    assert elsewhere.seen == []  # the other origin never saw a request, nor the key
