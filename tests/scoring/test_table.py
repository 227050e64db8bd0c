"""The text tables ``cartoqa score`` prints: a summary row per section, strata on request."""

from __future__ import annotations

from cartoqa.scoring.table import format_report

REPORT = {
    "n_items": 3, "n_invalid": 1, "n_missing": 1,
    "sections": {
        "mml": {
            "n": 3, "n_invalid": 1,
            "metrics": {"accuracy": {"all": 1 / 3, "valid_only": 0.5}},
            "strata": {"zoom": {"17": {"n": 2, "n_invalid": 1,
                                       "metrics": {"accuracy": {"all": 0.5,
                                                                "valid_only": 1.0}}},
                                "18": {"n": 1, "n_invalid": 0,
                                       "metrics": {"accuracy": {"all": 0.0,
                                                                "valid_only": 0.0}}}}},
            "invalid_reasons": {"no road name found": 1},
        },
    },
}


def test_summary_has_one_row_per_section() -> None:
    text = format_report(REPORT, strata=False)
    lines = text.splitlines()
    assert lines[0] == "3 items, 1 invalid answers, 1 without a prediction"
    assert "== mml ==" in lines
    row = next(line for line in lines if line.startswith("(all)"))
    assert row.split() == ["(all)", "3", "1", "0.333", "|", "0.500"]
    assert not any(line.startswith("zoom=") for line in lines)
    assert "  invalid: no road name found (1)" in lines


def test_tables_add_a_row_per_stratum() -> None:
    lines = format_report(REPORT).splitlines()
    assert [line.split()[:3] for line in lines if line.startswith("zoom=")] == \
        [["zoom=17", "2", "1"], ["zoom=18", "1", "0"]]
    assert next(line for line in lines if line.startswith("zoom=17")).split()[3:] == \
        ["0.500", "|", "1.000"]
