"""The optional answer extractor, against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from helpers.loopback import POLL_S

from cartoqa.cli import main
from cartoqa.declarations.answer_text import answer_as_text
from cartoqa.scoring import score_dataset
from cartoqa.scoring.extraction import AnswerExtractor, extraction_messages


class FakeExtractor:
    """Answers chat completions from a table: the response text -> the extracted answer."""

    def __init__(self, replies: dict[str, str]) -> None:
        self.replies = replies
        self.seen: list[dict[str, Any]] = []
        state = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                state.seen.append(body)
                user = body["messages"][-1]["content"]
                response = user.split("<<<\n", 1)[1].rsplit("\n>>>", 1)[0]
                reply = state.replies.get(response, "NONE")
                data = json.dumps({"choices": [{"message": {"role": "assistant",
                                                            "content": reply},
                                                "finish_reason": "stop"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": POLL_S}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeExtractor:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


GERMAN = "Das markierte Symbol ist ein Parkplatz, würde ich sagen."
UNREADABLE_COUNT = "Ich zähle drei Symbole."


@pytest.fixture
def server() -> Iterator[FakeExtractor]:
    with FakeExtractor({GERMAN: "D", UNREADABLE_COUNT: "3"}) as fake:
        yield fake


def _responses(items: list[dict[str, Any]]) -> dict[str, str]:
    responses = {it["id"]: answer_as_text(it) for it in items}
    responses["mfs-0003"] = GERMAN                # true letter D: only the extractor reads it
    responses["mfs-0002"] = "Answer: A or B"      # a hedge: read by the rules, never sent
    responses["mfs-0001"] = ""                    # empty: nothing to send
    responses["stmf-p-0000"] = "Hmm."             # the extractor answers NONE
    return responses


def test_extractor_only_for_unread_responses_and_both_results_kept(
    dataset_dir: Path, items: list[dict[str, Any]],
    predictions_file: Callable[[dict[str, str]], Path], server: FakeExtractor,
) -> None:
    preds = predictions_file(_responses(items))
    plain = score_dataset(dataset_dir, preds, check_connectivity=False)
    assert "with_extractor" not in plain and server.seen == []  # nothing sent unless asked
    extractor = AnswerExtractor(server.url, "judge-1")
    report = score_dataset(dataset_dir, preds, check_connectivity=False, extractor=extractor)
    sent = [m["messages"][-1]["content"] for m in server.seen]
    assert len(sent) == 2 and any(GERMAN in s for s in sent)
    assert all(m["model"] == "judge-1" and m["temperature"] == 0 for m in server.seen)
    extra = report["with_extractor"]
    assert (extra["n_sent"], extra["n_answered"]) == (2, 1)
    # the rule-only metrics are unchanged; with the extractor, mfs-0003 is right
    assert report["sections"] == plain["sections"]
    assert report["sections"]["mfs"]["metrics"]["accuracy"]["all"] == 0.25
    assert extra["sections"]["mfs"]["metrics"]["accuracy"]["all"] == 0.5
    assert extra["n_invalid"] == report["n_invalid"] - 1
    rows = {row["id"]: row for row in report["items"]}
    assert rows["mfs-0003"]["valid"] is False
    assert rows["mfs-0003"]["extractor"] == {"text": "D", "valid": True,
                                             "parsed": {"letter": "D"}}
    assert rows["stmf-p-0000"]["extractor"]["reason"] == "the extractor found no answer"
    assert "extractor" not in rows["mfs-0002"] and "extractor" not in rows["mfs-0001"]


def test_cli_extractor_options(dataset_dir: Path, items: list[dict[str, Any]],
                               predictions_file: Callable[[dict[str, str]], Path],
                               server: FakeExtractor, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    preds = predictions_file(_responses(items))
    out = tmp_path / "r.json"
    assert main(["score", str(dataset_dir), str(preds), "--no-connectivity", "--out", str(out),
                 "--extractor-endpoint", server.url, "--extractor-model", "judge-1"]) == 0
    printed = capsys.readouterr().out
    assert "with the answer extractor (judge-1): 2 responses sent, 1 answered" in printed
    assert json.loads(out.read_text(encoding="utf-8"))["with_extractor"]["n_sent"] == 2
    assert main(["score", str(dataset_dir), str(preds), "--extractor-model", "x"]) != 0
    assert "go together" in capsys.readouterr().err


def test_extraction_prompt_names_the_format() -> None:
    messages = extraction_messages({"task": "rle", "request": "length", "question": "How long?"},
                                   "It is far.")
    assert "How long?" in messages[1]["content"] and "350 m" in messages[1]["content"]
    assert "NONE" in messages[0]["content"]
