"""Markdown tables in answers: the column that holds the answer kind, never "the last"
(issue 24, third session)."""

from __future__ import annotations

from cartoqa.parsing import Invalid, Parsed
from cartoqa.parsing.lists import parse_names, parse_roads
from cartoqa.parsing.mapwise import parse_rank, parse_region_list
from cartoqa.parsing.multi import parse_multi
from cartoqa.parsing.tables import answer_column, find_table

USA = {"provenance": {"country": "usa"}}


def test_find_table_header_and_rows() -> None:
    table = find_table(["Here:", "| # | Pharmacy |", "|---|---|", "| 1 | Alepa |",
                        "| 2 | Lidl |", "", "Done."])
    assert table is not None
    assert table.header == ("#", "Pharmacy")
    assert table.rows == (("1", "Alepa"), ("2", "Lidl"))
    assert find_table(["no table here"]) is None


def test_answer_column_by_header_then_by_cells() -> None:
    table = find_table(["| Place | Distance | Street |", "|---|---|---|",
                        "| Alepa | 120 m | Mikonkatu |"])
    assert table is not None
    by_head = answer_column(table, heads=lambda h: h == "Place", reads=lambda c: True)
    assert by_head == ["Alepa"]
    ambiguous = answer_column(table, heads=lambda h: False,
                              reads=lambda c: not c[:1].isdigit())
    assert isinstance(ambiguous, Invalid) and "'Place', 'Street'" in ambiguous.reason


def test_names_table_without_a_name_header_takes_the_names_not_the_last_column() -> None:
    text = ("| Pharmacy | Distance |\n|---|---|\n| Alepa | 120 m |\n| Lidl | 300 m |")
    assert parse_names(text) == Parsed({"names": ["Alepa", "Lidl"]})
    numbered = "| # | Café |\n|---|---|\n| 1 | Engel |\n| 2 | Ekberg |"
    assert parse_names(numbered) == Parsed({"names": ["Engel", "Ekberg"]})


def test_names_table_with_two_name_like_columns_is_invalid() -> None:
    text = "| Place | Street |\n|---|---|\n| Alepa | Mikonkatu |\n| Lidl | Kaivokatu |"
    found = parse_names(text)
    assert isinstance(found, Invalid) and "several columns" in found.reason


def test_roads_table_with_one_road_per_column() -> None:
    text = "| Road 1 | Road 2 |\n|---|---|\n| Mannerheimintie | Kaivokatu |"
    assert parse_roads(text) == Parsed({"roads": ["Mannerheimintie", "Kaivokatu"]})


def test_multi_table_names_column_found_by_its_cells_or_ambiguous() -> None:
    types = ["restaurant", "bank"]
    plain = ("| Type | Count | Examples |\n|---|---|---|\n| Restaurant | 2 | Savotta, Kuu |\n"
             "| Bank | 1 | Nordea |")
    got = parse_multi(plain, types=types)
    assert isinstance(got, Parsed)
    assert got.value["types"]["restaurant"] == {"count": 2, "names": ["Savotta", "Kuu"]}
    moved = ("| Type | Examples | How many |\n|---|---|---|\n| Restaurant | Savotta, Kuu | 2 |\n"
             "| Bank | Nordea | 1 |")
    got = parse_multi(moved, types=types)
    assert isinstance(got, Parsed)
    assert got.value["types"]["bank"] == {"count": 1, "names": ["Nordea"]}
    two = ("| Type | Count | Street | Example |\n|---|---|---|---|\n"
           "| Bank | 1 | Mikonkatu | Nordea |")
    assert isinstance(parse_multi(two, types=types), Invalid)


def test_region_list_and_rank_tables() -> None:
    table = "My answer:\n\n| State | Value |\n|---|---|\n| Texas | 530 |\n| Ohio | 412 |"
    assert parse_region_list(USA, table) == Parsed({"items": ["OH", "TX"]})
    rank = "| Rank | State |\n|---|---|\n| 1 | Kansas |\n| 2 | Nebraska |\n| 3 | New York |"
    assert parse_rank(USA, rank) == Parsed({"ranks": {"KS": 1, "NE": 2, "NY": 3}})
