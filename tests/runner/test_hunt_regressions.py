"""Failures of the second hunt of issue 31 (careless use, another local user, hostile input).

Each was a traceback, a hang, a leaked key or a file written where it should not be;
each is now one line with exit status 2, or the expected result. See
/work/notes/sec31.md for the whole hunt (65 cases).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers.synthetic_dataset import write_synthetic_dataset
from test_run_hostile import KEY, Server

from cartoqa.cli import main
from cartoqa.runner.request import parse_completion
from cartoqa.runner.run import api_key_from_env

NOBODY = 65534


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return write_synthetic_dataset(tmp_path / "ds", copies=1)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("CARTOQA_API_KEY", KEY)


def _run(dataset: Path, url: str, out: Path, *extra: str) -> int:
    return main(["run", str(dataset), "--endpoint", url, "--model", "m", "--out", str(out),
                 "--no-progress", "--retry-wait", "0.01", "--max-retries", "1", *extra])


def _line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = [x for x in captured.err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert KEY not in captured.err + captured.out
    return lines[0]


@pytest.mark.parametrize(("endpoint", "message"), [
    ("http://[::1", "not a valid URL"), ("http://", "not a valid URL"),
    ("http://h:port/v1", "not a valid URL"), ("http://h/v1 x", "not a valid URL")])
def test_bad_endpoint_urls_are_refused_before_any_request(
        dataset: Path, tmp_path: Path, endpoint: str, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    # http://[::1 was tried for every item: 51 s, exit 1
    assert _run(dataset, endpoint, tmp_path / "p.jsonl") == 2
    assert message in _line(capsys)


@pytest.mark.parametrize("option", ["--timeout", "--retry-wait"])
@pytest.mark.parametrize("value", ["inf", "1e308", "86401"])
def test_endless_times_are_refused(dataset: Path, tmp_path: Path, option: str, value: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    # --timeout inf was an OverflowError traceback from the timer
    with pytest.raises(SystemExit) as caught:
        _run(dataset, "http://127.0.0.1:1/v1", tmp_path / "p.jsonl", option, value)
    assert caught.value.code == 2
    assert "at most 86400" in _line(capsys)


def test_out_under_a_file_or_not_regular_is_refused(dataset: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(dataset, "http://127.0.0.1:1/v1", dataset / "items.jsonl" / "p.jsonl") == 2
    assert "is a file, not a folder" in _line(capsys)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # /dev/full was read without end: 21 GB, then the OOM killer
    assert _run(dataset, "http://127.0.0.1:1/v1", fifo) == 2
    assert "not a regular file" in _line(capsys)


@pytest.mark.parametrize("key", [KEY + "\nX-Evil: 1", KEY + "\u20ac", KEY + " x"])
def test_keys_that_cannot_be_sent_are_refused_without_showing_them(
        monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    from cartoqa.errors import CartoqaError

    monkeypatch.setenv("CARTOQA_API_KEY", key)
    with pytest.raises(CartoqaError) as caught:
        api_key_from_env()
    assert KEY not in str(caught.value) and "$CARTOQA_API_KEY holds" in str(caught.value)


def test_a_password_in_the_endpoint_is_never_printed(dataset: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(dataset, f"http://user:{KEY}@127.0.0.1:1/v1", tmp_path / "p.jsonl",
                "--limit", "1") == 2
    assert "cannot connect to http://127.0.0.1:1/v1" in _line(capsys)


def test_a_500_body_and_a_redirect_that_echo_the_key_are_redacted(
        dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    class Echo(Server):
        def respond(self, h):  # type: ignore[no-untyped-def]
            body = f"error for {h.headers.get('Authorization')}".encode()
            if self.mode == "302":
                h.send_response(302)
                h.send_header("Location", f"http://x/?k={h.headers.get('Authorization')}")
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            self._send(h, 500, body)

    with Echo("500") as server:
        assert _run(dataset, server.url, tmp_path / "p.jsonl", "--limit", "1") == 1
    err = capsys.readouterr().err
    assert KEY not in err and "error for Bearer [redacted]" in err
    with Echo("302") as server:
        assert _run(dataset, server.url, tmp_path / "p.jsonl", "--limit", "1") == 2
    assert "k=Bearer [redacted]" in _line(capsys)


def test_nan_in_usage_is_not_written() -> None:
    body = {"choices": [{"message": {"content": "A"}}], "usage": {"t": float("nan")}}
    assert parse_completion(body).usage is None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as nobody")
def test_names_planted_by_another_user_in_a_shared_folder_are_refused(
        dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", "utf-8")  # no newline: a resume would have cut it to 0
    link = shared / "p.jsonl"
    link.symlink_to(victim)
    os.lchown(link, NOBODY, NOBODY)
    with Server("answer") as server:
        assert _run(dataset, server.url, link, "--limit", "1") == 2
        assert "is a link of another user" in _line(capsys)
        lock = shared / ".q.jsonl.lock"
        lock.symlink_to(victim)
        os.lchown(lock, NOBODY, NOBODY)
        assert _run(dataset, server.url, shared / "q.jsonl", "--limit", "1") == 2
        assert "cannot lock" in _line(capsys)
        theirs = shared / "r.jsonl"
        theirs.write_text("", "utf-8")
        os.chown(theirs, NOBODY, NOBODY)
        assert _run(dataset, server.url, theirs, "--limit", "1") == 2
        assert "is a file of another user" in _line(capsys)
        assert server.requests == 0
    assert victim.read_text("utf-8") == "precious"
    own = tmp_path / "mine.jsonl"
    link2 = tmp_path / "link.jsonl"
    link2.symlink_to(own)  # a link of one's own is followed
    with Server("answer") as server:
        assert _run(dataset, server.url, link2, "--limit", "1") == 0
    assert json.loads(own.read_text("utf-8"))["response"] == "C"


def test_score_never_replaces_a_fifo_or_device(dataset: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    preds = tmp_path / "p.jsonl"
    first = json.loads((dataset / "items.jsonl").read_text("utf-8").splitlines()[0])["id"]
    preds.write_text(json.dumps({"id": first, "response": "A"}) + "\n", "utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)  # as root, --out /dev/full replaced the device with a file
    assert main(["score", str(dataset), str(preds), "--out", str(fifo),
                 "--no-connectivity"]) == 2
    assert "not a regular file" in _line(capsys)
    assert fifo.is_fifo()
    assert main(["score", str(dataset), str(preds), "--out", "/proc/x/r.json",
                 "--no-connectivity"]) == 2
    _line(capsys)
    assert main(["score", str(dataset), str(fifo)]) == 2
    assert "not a regular file" in _line(capsys)


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"\n", b'{"id": "a\xff"}\n'])
@pytest.mark.parametrize("command", ["validate", "run", "score"])
def test_a_dataset_nested_deep_or_not_utf8_is_one_line(
        dataset: Path, tmp_path: Path, content: bytes, command: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    (dataset / "items.jsonl").write_bytes(content)
    argv = {"validate": ["validate", str(dataset)],
            "run": ["run", str(dataset), "--endpoint", "http://127.0.0.1:1/v1", "--model",
                    "m", "--out", str(tmp_path / "p.jsonl")],
            "score": ["score", str(dataset), str(tmp_path / "p.jsonl")]}[command]
    (tmp_path / "p.jsonl").write_text('{"id": "a", "response": "x"}\n', "utf-8")
    assert main(argv) == 2
    line = _line(capsys)
    assert "items.jsonl" in line or "nested" in line or "UTF-8" in line


@pytest.mark.parametrize("command", ["validate", "report", "export"])
def test_a_manifest_nested_deep_is_one_line(dataset: Path, tmp_path: Path, command: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    (dataset / "manifest.json").write_text("[" * 100_000, "utf-8")
    argv = {"validate": ["validate", str(dataset)],
            "report": ["report", str(dataset), "--out", str(tmp_path / "r"),
                       "--no-connectivity"],
            "export": ["export", str(dataset), "--format", "hf", str(tmp_path / "e")]}[command]
    assert main(argv) == 2
    _line(capsys)


def test_the_extractor_endpoint_is_checked(dataset: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text('{"id": "x", "response": "A"}\n', "utf-8")
    assert main(["score", str(dataset), str(preds), "--extractor-endpoint", "http://[::1",
                 "--extractor-model", "x"]) == 2
    assert "not a valid URL" in _line(capsys)


def test_build_many_workers_are_capped(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text("[[city]]\nname='a'\nextract='kotka'\n", "utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["build-many", str(spec), "--workers", "100000"])
    assert caught.value.code == 2
    assert "must be at most" in capsys.readouterr().err
    shutil.rmtree(tmp_path / "a", ignore_errors=True)
