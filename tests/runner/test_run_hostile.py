"""``cartoqa run`` against hostile or broken servers and careless use (issue 31).

Every server here is a real HTTP server on 127.0.0.1 (a thread of the test), answering
in one of the ways the issue found harmful: a body that echoes the key, one byte a
second, an endless body, JSON nested 200,000 deep, a lone surrogate, nothing listening.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.loopback import POLL_S
from helpers.synthetic_dataset import write_synthetic_dataset

from cartoqa.cli import main
from cartoqa.limits import MAX_REFUSED_RETRIES, MAX_RESPONSE_BYTES, REFUSED_RETRY_WAIT_S
from cartoqa.runner.client import ChatClient, EndpointError, ItemFailedError, RetryPolicy

KEY = "sk-secret-0123456789abcdef"
REPO = Path(__file__).resolve().parents[2]


def _answer(text: str = "C") -> bytes:
    return json.dumps({"choices": [{"message": {"content": text},
                                    "finish_reason": "stop"}]}).encode()


class Server:
    """A chat server on 127.0.0.1 whose every answer is ``mode``."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.requests = 0
        self.arrived = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                self.rfile.read(length)
                server.requests += 1
                server.arrived.set()
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    server.respond(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       kwargs={"poll_interval": POLL_S}, daemon=True)

    def respond(self, h: BaseHTTPRequestHandler) -> None:
        mode = self.mode
        if mode == "echo-key-401":
            body = f"invalid key {h.headers.get('Authorization')}".encode()
            self._send(h, 401, body)
        elif mode == "trickle":  # a valid answer, one byte a second
            body = _answer()
            h.send_response(200)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            for byte in body:
                h.wfile.write(bytes([byte]))
                h.wfile.flush()
                time.sleep(1.0)
        elif mode == "endless":
            h.send_response(200)
            h.end_headers()  # no length: the body ends when the connection does
            chunk = b"[" * 65536
            while True:
                h.wfile.write(chunk)
        elif mode == "stall":
            time.sleep(60)
        elif mode == "nested":
            self._send(h, 200, b"[" * 200_000 + b"]" * 200_000)
        elif mode == "surrogate":
            self._send(h, 200, b'{"choices": [{"message": {"content": "A\\ud800"}}]}')
        elif mode == "big-length":
            h.send_response(200)
            h.send_header("Content-Length", str(MAX_RESPONSE_BYTES + 1))
            h.end_headers()
        else:
            self._send(h, 200, _answer())

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: bytes) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_synthetic_dataset(tmp_path / "ds", copies=1)


@pytest.fixture
def key(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("CARTOQA_API_KEY", KEY)
    yield KEY


def _run(dataset: Path, url: str, out: Path, *extra: str) -> int:
    return main(["run", str(dataset), "--endpoint", url, "--model", "m", "--out", str(out),
                 "--no-progress", "--retry-wait", "0.01", *extra])


def _one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# -- point 4: the key ------------------------------------------------------------------

def test_a_401_body_that_echoes_the_key_is_printed_without_it(
        dataset: Path, tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    with Server("echo-key-401") as server:
        assert _run(dataset, server.url, out) == 2
    captured = capsys.readouterr()
    assert key not in captured.err + captured.out
    assert "invalid key Bearer [redacted]" in _one_line_error(captured.err)
    assert not out.exists()


# -- points 14, 15: deadline and size ----------------------------------------------------

def test_a_server_sending_one_byte_a_second_meets_the_total_deadline() -> None:
    with Server("trickle") as server:
        client = ChatClient(server.url + "/chat/completions",
                            policy=RetryPolicy(max_retries=0, timeout_s=2.0))
        started = time.monotonic()
        # a byte a second: a timeout per read (2 s) would never fire, the total one does
        with pytest.raises(ItemFailedError, match="no complete answer within 2 s"):
            client.complete({"model": "m", "messages": []})
        assert time.monotonic() - started < 6.0  # the body alone would take 60 s


def test_an_endless_body_stops_at_the_size_limit() -> None:
    with Server("endless") as server:
        client = ChatClient(server.url + "/chat/completions",
                            policy=RetryPolicy(max_retries=3, timeout_s=60.0))
        with pytest.raises(ItemFailedError, match="longer than the limit") as caught:
            client.complete({"model": "m", "messages": []})
        assert caught.value.attempts == 1  # not retried: it would only do it again


def test_a_declared_length_over_the_limit_is_refused_before_reading() -> None:
    with Server("big-length") as server:
        client = ChatClient(server.url + "/chat/completions",
                            policy=RetryPolicy(max_retries=0, timeout_s=10.0))
        with pytest.raises(ItemFailedError, match="more than the limit"):
            client.complete({"model": "m", "messages": []})


# -- points 5, 6: nesting and surrogates in a response ------------------------------------

def test_a_response_nested_200000_deep_fails_the_item_in_one_line(
        dataset: Path, tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    with Server("nested") as server:
        status = _run(dataset, server.url, out, "--limit", "1", "--max-retries", "0")
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err and "RecursionError" not in err
    assert "nested more than 200 levels" in err


def test_a_lone_surrogate_in_an_answer_is_kept_as_a_replacement_character(
        dataset: Path, tmp_path: Path, key: str) -> None:
    out = tmp_path / "p.jsonl"
    with Server("surrogate") as server:
        assert _run(dataset, server.url, out, "--limit", "2") == 0
    records = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [r["response"] for r in records] == ["A\ufffd", "A\ufffd"]


# -- point 13: nothing listens ---------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_no_server_listening_stops_at_once_with_status_2_and_no_file(
        dataset: Path, tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    started = time.monotonic()
    status = _run(dataset, f"http://127.0.0.1:{_free_port()}/v1", out, "--limit", "3",
                  "--concurrency", "1")
    elapsed = time.monotonic() - started
    line = _one_line_error(capsys.readouterr().err)
    assert status == 2 and "nothing listens there" in line
    assert elapsed < 10.0  # was 18 retries and 42.5 s
    assert not out.exists()  # no empty predictions file


def test_the_client_gives_up_on_a_refused_connection_after_two_retries() -> None:
    waits: list[float] = []
    client = ChatClient(f"http://127.0.0.1:{_free_port()}/v1/chat/completions",
                        policy=RetryPolicy(max_retries=6, timeout_s=5.0),
                        wait=lambda s: waits.append(s) is not None)  # records, returns False
    with pytest.raises(EndpointError, match=r"\(3 attempts\)"):
        client.complete({"model": "m", "messages": []})
    assert waits == [REFUSED_RETRY_WAIT_S] * MAX_REFUSED_RETRIES == [0.5, 0.5]


# -- point 12: one --out, and the dataset's own files ------------------------------------------

def test_a_second_run_into_the_same_out_says_it_is_in_use(
        dataset: Path, tmp_path: Path, key: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cartoqa.runner.predictions import OutputLock

    out = tmp_path / "p.jsonl"
    with Server("answer") as server, OutputLock(out):
        assert _run(dataset, server.url, out) == 2
        assert server.requests == 0
    assert "in use by another cartoqa run" in _one_line_error(capsys.readouterr().err)
    with Server("answer") as server:
        assert _run(dataset, server.url, out) == 0
    assert len(out.read_text("utf-8").splitlines()) == 8  # one line per item
    assert not (tmp_path / ".p.jsonl.lock").exists()  # the lock is removed when released


def test_two_concurrent_runs_write_each_item_once(dataset: Path, tmp_path: Path,
                                                  key: str) -> None:
    out = tmp_path / "p.jsonl"
    with Server("answer") as server:
        results: list[int] = []
        threads = [threading.Thread(target=lambda: results.append(_run(dataset, server.url,
                                                                       out)))
                   for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    ids = [json.loads(line)["id"] for line in out.read_text("utf-8").splitlines()]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 8
    assert 0 in results


@pytest.mark.parametrize("target", ["items.jsonl", "manifest.json", "README.md",
                                    "images/x.jsonl", "."])
def test_run_refuses_to_write_over_the_datasets_own_files(
        dataset: Path, key: str, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = (dataset / "items.jsonl").read_bytes()
    with Server("answer") as server:
        assert _run(dataset, server.url, dataset / target) == 2
        assert server.requests == 0
    line = _one_line_error(capsys.readouterr().err)
    assert "the dataset's" in line or "is a folder" in line
    assert (dataset / "items.jsonl").read_bytes() == before


def test_a_link_to_the_items_file_is_refused_too(dataset: Path, tmp_path: Path,
                                                 key: str) -> None:
    link = tmp_path / "p.jsonl"
    link.symlink_to(dataset / "items.jsonl")
    with Server("answer") as server:
        assert _run(dataset, server.url, link) == 2


# -- points 15: SIGTERM ends a run at once, also during a stalled request -------------------------

def test_sigterm_ends_a_run_promptly_during_a_stalled_request(dataset: Path, tmp_path: Path,
                                                               key: str) -> None:
    out = tmp_path / "p.jsonl"
    env = dict(os.environ, PYTHONPATH=f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    with Server("stall") as server:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cartoqa", "run", str(dataset), "--endpoint", server.url,
             "--model", "m", "--out", str(out), "--no-progress", "--timeout", "120"],
            env=env, stderr=subprocess.PIPE, text=True)
        try:
            assert server.arrived.wait(60), "the run sent no request"
            time.sleep(0.3)
            proc.send_signal(signal.SIGTERM)
            started = time.monotonic()
            _, err = proc.communicate(timeout=30)
            elapsed = time.monotonic() - started
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "stopped by SIGTERM" in err and "Traceback" not in err
    assert elapsed < 5.0, elapsed  # was 38 s
    assert not (tmp_path / ".p.jsonl.lock").exists()
