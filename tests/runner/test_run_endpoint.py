"""``cartoqa run`` end to end against a local OpenAI-compatible server with faults."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers.chat_server import ChatServer

from cartoqa.cli import main
from cartoqa.dataset.reader import read_items
from cartoqa.declarations.answer_text import answer_as_text as answer_text

API_KEY = "sk-test-0123456789"

FAULTS: dict[str, list[str]] = {
    "mfs-0000": ["429-retry-after"],
    "stmf-0000": ["500", "500"],
    "stmf-0001": ["slow"],
    "mtmf-0000": ["garbage"],
    "rle-0000": ["drop"],
    "mml-0000": ["503", "429"],
    "srn-0001": ["drop", "slow"],
}


@pytest.fixture
def api_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARTOQA_API_KEY", API_KEY)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _run_args(dataset: Path, server: ChatServer, out: Path, *extra: str) -> list[str]:
    return ["run", str(dataset), "--endpoint", server.url, "--model", "test-model",
            "--out", str(out), "--timeout", "1.5", "--retry-wait", "0.01",
            "--no-progress", *extra]


#: Metrics where 0 is perfect; every other metric is perfect at 1.
ERROR_METRICS = {"rmse", "mae", "rmse_m", "mae_m", "mape"}


def _assert_perfect(dataset: Path, predictions: Path, report_path: Path) -> None:
    """``cartoqa score`` finds every answer valid and every metric perfect."""
    status = main(["score", str(dataset), str(predictions), "--out", str(report_path),
                   "--no-connectivity", "--no-items"])
    assert status == 0
    report = json.loads(report_path.read_text(encoding="utf-8"))
    assert report["n_invalid"] == 0 and report["n_missing"] == 0
    checked = 0
    for key, section in report["sections"].items():
        for name, value in section["metrics"].items():
            if name == "connectivity" or (name == "r2" and value["all"] is None):
                continue  # no road graph for synthetic items; r2 undefined on constant truth
            expected = 0.0 if name in ERROR_METRICS else 1.0
            assert value["all"] == pytest.approx(expected), (key, name, value)
            checked += 1
    assert checked >= 15


def test_run_with_faults_answers_everything_once(
    dataset: Path, tmp_path: Path, api_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    items = read_items(dataset)
    out = tmp_path / "preds.jsonl"
    with ChatServer(dataset, answer_text=answer_text, api_key=API_KEY, faults=FAULTS,
                    delay_s=0.05, slow_s=2.5) as server:
        status = main(_run_args(dataset, server, out, "--concurrency", "4"))
        state = server.state
        log = list(state.log)
    assert status == 0, capsys.readouterr().err
    assert state.problems == []
    # Every fault was met and then answered: attempts = faults + 1, others once.
    for item in items:
        item_id = item["id"]
        assert state.attempts[item_id] == len(FAULTS.get(item_id, [])) + 1, item_id
    # Retry-After: 1 was honoured although --retry-wait is 0.01 s.
    mfs = [e.started for e in log if e.item_id == "mfs-0000"]
    assert mfs[1] - mfs[0] >= 0.95
    assert 2 <= state.max_in_flight <= 4
    records = _read(out)
    assert sorted(r["id"] for r in records) == sorted(i["id"] for i in items)
    by_id = {r["id"]: r for r in records}
    for item in items:
        record = by_id[item["id"]]
        assert record["response"] == answer_text(item)
        assert record["model"] == "test-model"
        assert record["attempts"] == len(FAULTS.get(item["id"], [])) + 1
        assert record["usage"]["total_tokens"] == 110
    assert "16/16 items answered (16 now, 0 before" in capsys.readouterr().err

    # A rerun sends nothing.
    with ChatServer(dataset, answer_text=answer_text, api_key=API_KEY) as server:
        assert main(_run_args(dataset, server, out)) == 0
        assert server.requested_ids() == []
    assert len(_read(out)) == len(items)

    _assert_perfect(dataset, out, tmp_path / "report.json")


def test_failed_items_are_left_for_the_rerun(
    dataset: Path, tmp_path: Path, api_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preds.jsonl"
    broken = {"rle-0001": ["500"] * 10, "srn-0000": ["500"] * 10}
    with ChatServer(dataset, answer_text=answer_text, faults=broken) as server:
        status = main(_run_args(dataset, server, out, "--max-retries", "2", "--limit", "12"))
        assert server.state.attempts["rle-0001"] == 3
    err = capsys.readouterr().err
    assert status == 1
    assert "rle-0001: HTTP 500" in err and "2 items failed" in err
    first = {r["id"] for r in _read(out)}
    selected = [i["id"] for i in read_items(dataset)[:12]]
    assert first == set(selected) - {"rle-0001", "srn-0000"}

    with ChatServer(dataset, answer_text=answer_text) as server:
        assert main(_run_args(dataset, server, out, "--limit", "12")) == 0
        assert sorted(server.requested_ids()) == ["rle-0001", "srn-0000"]
    assert sorted(r["id"] for r in _read(out)) == sorted(selected)


def test_bad_key_stops_the_run_with_one_line(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CARTOQA_API_KEY", "wrong")
    out = tmp_path / "preds.jsonl"
    with ChatServer(dataset, answer_text=answer_text, api_key=API_KEY) as server:
        status = main(_run_args(dataset, server, out, "--concurrency", "2"))
        sent = len(server.requested_ids())
    err = capsys.readouterr().err
    assert status == 2
    assert err.strip().splitlines() == [
        "cartoqa run: error: the endpoint answered HTTP 401: "
        '{"error": {"message": "invalid api key"}} '
        "(set CARTOQA_API_KEY (or OPENAI_API_KEY) to a valid key)"
    ]
    assert sent <= 2
    assert not out.exists() or out.read_bytes() == b""


def test_answers_from_another_model_are_not_mixed(
    dataset: Path, tmp_path: Path, api_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preds.jsonl"
    out.write_text('{"id": "mfs-0000", "response": "A", "model": "other"}\n')
    with ChatServer(dataset, answer_text=answer_text) as server:
        assert main(_run_args(dataset, server, out)) == 2
        assert server.requested_ids() == []
    assert "holds answers from another model (other)" in capsys.readouterr().err


def test_predictions_of_another_dataset_are_refused(
    dataset: Path, tmp_path: Path, api_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preds.jsonl"
    out.write_text('{"id": "elsewhere-1", "response": "A", "model": "test-model"}\n')
    with ChatServer(dataset, answer_text=answer_text) as server:
        assert main(_run_args(dataset, server, out)) == 2
        assert server.requested_ids() == []
    assert "holds answers to items this dataset lacks (elsewhere-1)" in capsys.readouterr().err


def test_a_server_that_rejects_every_request_stops_the_run(
    dataset: Path, tmp_path: Path, api_env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "preds.jsonl"
    items = read_items(dataset)
    faults = {item["id"]: ["400"] for item in items}
    with ChatServer(dataset, answer_text=answer_text, faults=faults) as server:
        assert main(_run_args(dataset, server, out, "--concurrency", "2")) == 2
        sent = server.requested_ids()
    assert 3 <= len(sent) <= 5  # the first wave (3), plus what was in flight
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["cartoqa run: error: the endpoint rejected the first 3 requests (HTTP 400: "
                   '{"error": {"message": "temperature is not supported"}}) (check --model and '
                   "the server's log; some models refuse temperature 0 or images)"]
    # One rejected item among answered ones is only that item's failure.
    with ChatServer(dataset, answer_text=answer_text, faults={"mml-0001": ["400"]}) as server:
        assert main(_run_args(dataset, server, out)) == 1
        assert server.state.attempts["mml-0001"] == 1
    assert "mml-0001: HTTP 400" in capsys.readouterr().err


def test_missing_dataset_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["run", str(tmp_path / "nope"), "--endpoint", "http://127.0.0.1:9/v1",
                   "--model", "m", "--no-progress"])
    assert status == 2
    assert "does not exist" in capsys.readouterr().err


def test_killed_run_resumes_without_duplicates_or_losses(
    dataset: Path, tmp_path: Path
) -> None:
    out = tmp_path / "preds.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["CARTOQA_API_KEY"] = API_KEY
    items = read_items(dataset)
    with ChatServer(dataset, answer_text=answer_text, api_key=API_KEY,
                    delay_s=0.15) as server:
        args = [sys.executable, "-m", "cartoqa",
                *_run_args(dataset, server, out, "--concurrency", "2")]
        proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.read_bytes().count(b"\n") >= 5:
                break
            if proc.poll() is not None:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, err.decode()
        before = {r["id"] for r in _read_complete(out)}
        assert 5 <= len(before) < len(items)
        # Simulate a write torn by the kill.
        with out.open("ab") as fh:
            fh.write(b'{"id": "srn-0001", "response": "[\\"blue\\", \\"tu')
        first_run = len(server.requested_ids())

        resumed = subprocess.run(args, env=env, capture_output=True, timeout=120)
        assert resumed.returncode == 0, resumed.stderr.decode()
        second = server.requested_ids()[first_run:]
        assert server.state.problems == []
    assert set(second) == {i["id"] for i in items} - before
    assert len(second) == len(set(second))
    records = _read(out)
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids)) == len(items)
    by_id = {r["id"]: r["response"] for r in records}
    assert all(by_id[i["id"]] == answer_text(i) for i in items)


def _read_complete(path: Path) -> list[dict[str, Any]]:
    data = path.read_bytes()
    return [json.loads(line) for line in data[: data.rfind(b"\n") + 1].splitlines()]
