"""Hostile and careless input to ``score``, ``report`` and the thematic ``--data`` (issue 31).

Each case was a traceback, a page emptied by its data, or a silent loss; each now gives
one line and exit status 2, or what a user would expect.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scoring_data import write_predictions

from cartoqa.cli import main
from groundtruth.errors import GroundTruthError
from groundtruth.thematic.variables import read_user_table

DEEP = "[" * 200_000 + "]" * 200_000


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err and "Warning" not in err
    return lines[0]


def _score(dataset: Path, *files: Path, out: Path | None = None) -> int:
    args = ["score", str(dataset), *map(str, files), "--no-connectivity"]
    if out is not None:
        args += ["--out", str(out)]
    return main(args)


# -- point 5: nesting ---------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["first line", "second line", "lmms-eval log",
                                   "lmms-eval samples"])
def test_json_nested_200000_deep_is_one_line(
        where: str, dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.jsonl"
    good = json.dumps({"id": items[0]["id"], "response": "A"})
    sample = json.dumps({"doc_id": 0, "doc": {"id": items[0]["id"]}, "resps": [["A"]]})
    text = {"first line": DEEP + "\n",
            "second line": good + "\n" + DEEP + "\n",
            "lmms-eval log": '{"logs": ' + DEEP + "}",
            "lmms-eval samples": sample + "\n" + DEEP + "\n"}[where]
    path.write_text(text, "utf-8")
    assert _score(dataset_dir, path) == 2
    assert "nested more than 200 levels" in _one_line(capsys) or where == "lmms-eval log"


# -- point 6: lone surrogates --------------------------------------------------------------------

def test_a_lone_surrogate_in_a_prediction_is_scored_and_written(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": items[0]["id"], "response": "A\ud800"}) + "\n", "ascii")
    out = tmp_path / "report.json"
    assert _score(dataset_dir, path, out=out) == 0
    rows = {r["id"]: r for r in json.loads(out.read_text("utf-8"))["items"]}
    assert items[0]["id"] in rows  # the report is written (was UnicodeEncodeError)
    from cartoqa.scoring.io import read_predictions

    assert read_predictions(path)[0] == {items[0]["id"]: "A\ufffd"}


def test_a_lone_surrogate_in_a_report(dataset_dir: Path, items: list[dict[str, Any]],
                                      tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": items[0]["id"], "response": "A\ud800"}) + "\n", "ascii")
    assert main(["report", str(dataset_dir), str(path), "--out", str(tmp_path / "r"),
                 "--no-connectivity"]) == 0


# -- point 3: a model answer that would empty its page -------------------------------------------

@pytest.mark.parametrize("answer", ["Answer: <!--<script>", "</script><script>alert(1)",
                                    "<!-- -->&amp;<b>x</b>"])
def test_a_hostile_answer_leaves_no_markup_in_the_page_data(
        answer: str, dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path) -> None:
    preds = write_predictions(tmp_path / "p.jsonl", {it["id"]: answer for it in items})
    out = tmp_path / "r"
    assert main(["report", str(dataset_dir), str(preds), "--out", str(out),
                 "--no-connectivity"]) == 0
    pages = [p for p in out.glob("*.html") if p.name != "index.html"]
    assert pages
    for page in pages:
        html = page.read_text("utf-8")
        match = re.search(r'<script type="application/json" id="report-data">(.*?)</script>',
                          html, re.S)
        assert match is not None
        data = match.group(1)
        # no "<" at all: the HTML tokenizer cannot leave the script-data state early
        # (</script>) nor enter its double-escaped state (<!--<script>), which swallowed
        # the rest of the page and showed 0 items
        assert "<" not in data
        assert answer in json.dumps(json.loads(data), ensure_ascii=False)


# -- point 7: VLMEvalKit tables ------------------------------------------------------------------

def _tsv(tmp_path: Path, rows: list[tuple[str, str]], encoding: str = "utf-8") -> Path:
    path = tmp_path / "m.tsv"
    text = "index\tid\tprediction\n" + "".join(f"{n}\t{i}\t{p}\n"
                                             for n, (i, p) in enumerate(rows))
    path.write_bytes(text.encode(encoding))
    return path


def test_a_tsv_with_a_latin1_byte_is_one_line(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = _tsv(tmp_path, [(items[0]["id"], "Caf\u00e9")], encoding="latin-1")
    assert _score(dataset_dir, path) == 2
    assert "is not UTF-8 text" in _one_line(capsys)


def test_a_prediction_over_128_kib_is_read(dataset_dir: Path, items: list[dict[str, Any]],
                                           tmp_path: Path) -> None:
    path = _tsv(tmp_path, [(items[0]["id"], "A" * 200_000)])
    assert _score(dataset_dir, path, out=tmp_path / "r.json") == 0


def test_a_field_over_the_limit_is_one_line(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import cartoqa.scoring.harness as harness

    monkeypatch.setattr(harness, "MAX_FIELD_CHARS", 1000)
    path = _tsv(tmp_path, [(items[0]["id"], "A" * 2000)])
    assert _score(dataset_dir, path) == 2
    assert "field larger than field limit" in _one_line(capsys)


def test_an_unbalanced_quote_that_swallows_rows_is_refused(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    rows = [(items[0]["id"], '"A is my answer'), (items[1]["id"], "B"), (items[2]["id"], "C")]
    path = _tsv(tmp_path, rows)
    assert _score(dataset_dir, path) == 2  # was exit 0 with two answers lost
    line = _one_line(capsys)
    assert "row 2" in line and "never closed" in line


def test_a_properly_quoted_multiline_prediction_is_read(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path) -> None:
    path = _tsv(tmp_path, [(items[0]["id"], '"A\nsecond ""line"""'), (items[1]["id"], "B")])
    from cartoqa.scoring.harness import read_vlmevalkit

    out, _ = read_vlmevalkit(path)
    assert out == {items[0]["id"]: 'A\nsecond "line"', items[1]["id"]: "B"}


# -- point 11: empty predictions ---------------------------------------------------------------

@pytest.mark.parametrize("content", ["", "\n\n", '{"id": "nope", "response": "A"}\n'])
def test_no_usable_prediction_is_exit_2(content: str, dataset_dir: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(content, "utf-8")
    assert _score(dataset_dir, path) == 2
    line = _one_line(capsys)
    assert "holds no predictions" in line or "none of the 1 predictions" in line


# -- point 7 and 18: thematic --data ------------------------------------------------------------

STATES = "state,value\nAlabama,1\nTexas,2\n"


@pytest.mark.parametrize(("data", "message"), [
    (STATES.replace("Alabama", "Alab\u00e9ma").encode("latin-1"), "not UTF-8 text"),
    (STATES.replace("1", "1" * 200_000).encode(), "field larger than field limit"),
    (STATES.replace(",1\n", ",1e308\n").encode(), "is beyond"),
    (STATES.replace(",1\n", ",-1e16\n").encode(), "is beyond"),
    (STATES.replace(",1\n", ",inf\n").encode(), "not finite"),
    (b"\xff\xfe" + "state,value\nAl\udc00".encode("utf-16-le", "surrogatepass"),
     "broken UTF-16"),
])
def test_bad_thematic_tables_are_one_line(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(data)
    with pytest.raises(GroundTruthError, match=message):
        read_user_table(path)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-8-sig", "utf-8"])
def test_utf16_and_bom_tables_are_read(tmp_path: Path, encoding: str) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes(STATES.encode(encoding))
    (variable,) = read_user_table(path)
    assert variable.values == {"AL": 1.0, "TX": 2.0}


@pytest.mark.parametrize("case", ["1e308", "latin-1"])
def test_mapiq_data_errors_print_one_line_and_leave_nothing(
        case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.csv"
    text = STATES.replace(",1\n", ",1e308\n") if case == "1e308" else STATES + "Caf\u00e9,3\n"
    path.write_bytes(text.encode("utf-8" if case == "1e308" else "latin-1"))
    out = tmp_path / "ds"
    assert main(["build", "--suite", "mapiq", "--data", str(path), "--out", str(out)]) == 2
    _one_line(capsys)  # no numpy RuntimeWarning before it (there were 21)
    assert not out.exists()


def test_report_and_score_refuse_the_datasets_own_files(
        dataset_dir: Path, items: list[dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str],
        predictions_file: Callable[[dict[str, str]], Path]) -> None:
    preds = predictions_file({items[0]["id"]: "A"})
    before = {p.name: p.read_bytes() for p in dataset_dir.iterdir() if p.is_file()}
    for name in ("items.jsonl", "manifest.json"):
        assert _score(dataset_dir, preds, out=dataset_dir / name) == 2
        _one_line(capsys)
    for target in (dataset_dir, dataset_dir / "images"):
        assert main(["report", str(dataset_dir), str(preds), "--out", str(target),
                     "--overwrite", "--no-connectivity"]) == 2
        _one_line(capsys)
        assert main(["export", str(dataset_dir), "--format", "hf", str(target),
                     "--overwrite"]) == 2
        _one_line(capsys)
    assert before == {p.name: p.read_bytes() for p in dataset_dir.iterdir() if p.is_file()}
    assert len(list((dataset_dir / "images").iterdir())) == len(items)
    shutil.rmtree(tmp_path / "unused", ignore_errors=True)
