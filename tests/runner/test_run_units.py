"""Unit tests for the pure parts of ``cartoqa run``: URLs, payloads, backoff, resume."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from cartoqa.commands.run import default_out
from cartoqa.errors import CartoqaError
from cartoqa.runner.backoff import backoff_delay, is_retryable_status, parse_retry_after
from cartoqa.runner.predictions import (
    PredictionWriter,
    load_for_resume,
    parse_prediction_bytes,
)
from cartoqa.runner.request import (
    build_payload,
    chat_completions_url,
    image_data_url,
    parse_completion,
)
from cartoqa.runner.run import api_key_from_env, select_items


@pytest.mark.parametrize(
    ("endpoint", "expected"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://h/v1/chat/completions", "http://h/v1/chat/completions"),
        ("https://api.openai.com/v1/", "https://api.openai.com/v1/chat/completions"),
        ("http://h/openai/v1", "http://h/openai/v1/chat/completions"),
    ],
)
def test_chat_completions_url(endpoint: str, expected: str) -> None:
    assert chat_completions_url(endpoint) == expected


def test_chat_completions_url_rejects_non_http() -> None:
    with pytest.raises(ValueError, match="http"):
        chat_completions_url("127.0.0.1:8000")


def test_image_data_url_round_trips() -> None:
    data = bytes(range(256))
    url = image_data_url(data, "image/jpeg")
    prefix = "data:image/jpeg;base64,"
    assert url.startswith(prefix)
    assert base64.b64decode(url[len(prefix):]) == data


def test_build_payload_has_system_image_question_and_temperature_zero() -> None:
    item = {"id": "x", "system_prompt": "Be brief.", "question": "How many?"}
    payload = build_payload(item, model="m", image_url="data:image/png;base64,AA==")
    assert payload == {
        "model": "m",
        "temperature": 0,
        "messages": [
            {"role": "system", "content": "Be brief."},
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}},
                    {"type": "text", "text": "How many?"},
                ],
            },
        ],
    }
    no_system = build_payload({"question": "q", "system_prompt": ""}, model="m",
                              image_url="u", max_tokens=64)
    assert [m["role"] for m in no_system["messages"]] == ["user"]
    assert no_system["max_tokens"] == 64


def test_build_payload_puts_several_maps_in_one_message() -> None:
    payload = build_payload({"question": "Which?", "system_prompt": ""}, model="m",
                            image_url=["u1", "u2"])
    assert payload["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "Map 1:"},
        {"type": "image_url", "image_url": {"url": "u1"}},
        {"type": "text", "text": "Map 2:"},
        {"type": "image_url", "image_url": {"url": "u2"}},
        {"type": "text", "text": "Which?"},
    ]}]


def test_parse_completion_forms() -> None:
    body = {"choices": [{"message": {"content": "C"}, "finish_reason": "stop"}],
            "usage": {"total_tokens": 5}}
    result = parse_completion(body)
    assert (result.text, result.finish_reason, result.usage) == ("C", "stop", {"total_tokens": 5})
    parts = {"choices": [{"message": {"content": [{"type": "text", "text": "a"},
                                                    {"type": "text", "text": "b"}]}}]}
    assert parse_completion(parts).text == "ab"
    assert parse_completion({"choices": [{"message": {"content": None}}]}).text == ""
    bad_bodies: list[object] = [[], {}, {"choices": []}, {"choices": [{"text": "x"}]}]
    for bad in bad_bodies:
        with pytest.raises(ValueError):
            parse_completion(bad)


def test_retryable_statuses() -> None:
    assert [s for s in (200, 400, 401, 404, 408, 422, 425, 429, 500, 502, 503, 504, 599)
            if is_retryable_status(s)] == [408, 425, 429, 500, 502, 503, 504, 599]


def test_parse_retry_after() -> None:
    assert parse_retry_after("7", now=0.0) == 7.0
    assert parse_retry_after(" 0.5 ", now=0.0) == 0.5
    assert parse_retry_after("-3", now=0.0) == 0.0
    assert parse_retry_after("99999", now=0.0) == 600.0
    # 1 Jan 1970 00:01:40 is t = 100 s.
    assert parse_retry_after("Thu, 01 Jan 1970 00:01:40 GMT", now=40.0) == 60.0
    assert parse_retry_after("Thu, 01 Jan 1970 00:01:40 GMT", now=400.0) == 0.0
    assert parse_retry_after(None, now=0.0) is None
    assert parse_retry_after("", now=0.0) is None
    assert parse_retry_after("later", now=0.0) is None


def test_backoff_delay_exponential_with_cap_jitter_and_retry_after() -> None:
    # base 0.5 s: ceilings 0.5, 1, 2, 4, 8 ... capped at 5.
    assert [backoff_delay(a, base=0.5, cap=5.0, jitter=1.0) for a in range(6)] == [
        0.5, 1.0, 2.0, 4.0, 5.0, 5.0]
    assert backoff_delay(3, base=0.5, cap=5.0, jitter=0.25) == 1.0
    assert backoff_delay(0, base=0.5, cap=5.0, jitter=0.0) == 0.0
    assert backoff_delay(0, base=0.5, cap=5.0, jitter=0.5, retry_after=2.0) == 2.0
    assert backoff_delay(4, base=0.5, cap=5.0, jitter=1.0, retry_after=2.0) == 5.0
    assert backoff_delay(10_000, base=1.0, cap=60.0, jitter=1.0) == 60.0


def test_parse_prediction_bytes_truncated_tail() -> None:
    good = b'{"id": "a", "response": "x"}\n\n{"id": "b", "response": "y"}\n'
    records, end = parse_prediction_bytes(good + b'{"id": "c", "resp')
    assert [r["id"] for r in records] == ["a", "b"]
    assert end == len(good)
    records, end = parse_prediction_bytes(good)
    assert (len(records), end) == (2, len(good))
    assert parse_prediction_bytes(b"") == ([], 0)
    # A complete object without its newline is a complete record (as `cartoqa score`
    # reads it); a fragment is not.
    assert parse_prediction_bytes(b'{"id": "a", "response": "x"}') == (
        [{"id": "a", "response": "x"}], 28)
    assert parse_prediction_bytes(b'{"id": "a", "response": "x"') == ([], 0)


def test_parse_prediction_bytes_rejects_a_bad_complete_line() -> None:
    with pytest.raises(CartoqaError, match="line 2"):
        parse_prediction_bytes(b'{"id": "a"}\nnot json\n{"id": "b"}\n')
    with pytest.raises(CartoqaError, match="line 1"):
        parse_prediction_bytes(b'["a"]\n')


def test_writer_and_resume_repair(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "p.jsonl"
    with PredictionWriter(path) as writer:
        writer.write({"id": "a", "response": "Ä"})
        writer.write({"id": "b", "response": "line1\nline2"})
    with path.open("ab") as fh:
        fh.write(b'{"id": "c", "re')
    records = load_for_resume(path)
    assert [r["id"] for r in records] == ["a", "b"]
    assert records[1]["response"] == "line1\nline2"
    assert path.read_bytes().endswith(b"}\n")
    with PredictionWriter(path) as writer:
        writer.write({"id": "c", "response": "z"})
    assert [r["id"] for r in load_for_resume(path)] == ["a", "b", "c"]
    assert load_for_resume(tmp_path / "missing.jsonl") == []


def test_resume_keeps_a_complete_last_line_without_newline(tmp_path: Path) -> None:
    from cartoqa.scoring.io import read_predictions

    path = tmp_path / "p.jsonl"
    path.write_bytes(b'{"id": "a", "response": "x"}\n{"id": "b", "response": "y"}')
    assert list(read_predictions(path)[0]) == ["a", "b"]  # what `cartoqa score` reads
    assert [r["id"] for r in load_for_resume(path)] == ["a", "b"]  # what a rerun keeps
    with PredictionWriter(path) as writer:
        writer.write({"id": "c", "response": "z"})
    assert [r["id"] for r in load_for_resume(path)] == ["a", "b", "c"]
    assert list(read_predictions(path)[0]) == ["a", "b", "c"]


def test_select_items_limit_and_answered() -> None:
    items = [{"id": f"i{n}"} for n in range(5)]
    selected, todo = select_items(items, {"i0", "i3"}, limit=None)
    assert len(selected) == 5
    assert [i["id"] for i in todo] == ["i1", "i2", "i4"]
    selected, todo = select_items(items, {"i0", "i3"}, limit=3)
    assert [i["id"] for i in selected] == ["i0", "i1", "i2"]
    assert [i["id"] for i in todo] == ["i1", "i2"]
    assert select_items(items, set(), limit=0) == ([], [])


def test_api_key_from_env() -> None:
    assert api_key_from_env({"CARTOQA_API_KEY": "a", "OPENAI_API_KEY": "b"}) == "a"
    assert api_key_from_env({"CARTOQA_API_KEY": " ", "OPENAI_API_KEY": "b"}) == "b"
    assert api_key_from_env({"PATH": "/bin"}) is None


def test_default_out() -> None:
    assert default_out(Path("d"), "gpt-4o") == Path("d/predictions/gpt-4o.jsonl")
    assert default_out(Path("d"), "org/model:7b") == Path("d/predictions/org_model_7b.jsonl")
    assert default_out(Path("d"), "..") == Path("d/predictions/model.jsonl")
