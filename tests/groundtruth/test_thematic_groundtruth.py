"""Thematic ground truth: Jenks classes, queen adjacency, zones and clusters, by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from shapely.geometry import box

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.adjacency import queen_adjacency, restrict
from groundtruth.thematic.classification import (
    classes_from_breaks,
    fisher_jenks,
    format_number,
    published_classes,
    range_labels,
)
from groundtruth.thematic.clusters import (
    Cluster,
    clustered_regions,
    components,
    extreme_clusters,
)
from groundtruth.thematic.sources import data_file, thematic_data_dir
from groundtruth.thematic.us_states import CONTIGUOUS, US_ZONE_NAMES, us_zones
from groundtruth.thematic.variables import read_user_table
from groundtruth.thematic.zones import zone_mean_class, zone_members


def test_jenks_two_classes_by_hand() -> None:
    # {1,2,4}{9,10}: SSD 4.67 + 0.5 = 5.17; {1,2}{4,9,10}: 0.5 + 20.67; {1,2,4,9}{10}: 38.
    c = fisher_jenks({"a": 1, "b": 2, "c": 4, "d": 9, "e": 10}, k=2)
    assert c.classes == {"a": 1, "b": 1, "c": 1, "d": 2, "e": 2}
    assert c.bounds == ((1, 4), (9, 10))
    assert c.labels == ("1–4", "9–10")


def test_jenks_five_classes_by_hand() -> None:
    # Five classes from seven values: merge the two cheapest pairs, (1,2) and (20,21),
    # SSD 0.5 each; merging (5,7) costs 2 and any triple costs more than 1.
    vals = {"a": 1, "b": 2, "c": 5, "d": 7, "e": 20, "f": 21, "g": 50}
    c = fisher_jenks(vals)
    assert [c.classes[r] for r in "abcdefg"] == [1, 1, 2, 3, 4, 4, 5]
    assert c.labels == ("1–2", "5–5", "7–7", "20–21", "50–50")
    assert c.label_of("f") == "20–21"


def test_jenks_needs_enough_distinct_values() -> None:
    with pytest.raises(ValueError, match="distinct"):
        fisher_jenks({"a": 1, "b": 1, "c": 2, "d": 3, "e": 3, "f": 4})


def test_jenks_and_labels_say_what_is_wrong_with_their_input() -> None:
    with pytest.raises(ValueError, match=r"^values must be finite numbers$"):
        fisher_jenks({"a": 1, "b": float("nan"), "c": 2, "d": 3, "e": 4, "f": 5})
    # classes that share a bound get no labels at any number of digits
    with pytest.raises(ValueError, match=r"^class bounds cannot be told apart$"):
        range_labels(((0.0, 1.0), (1.0, 2.0)))


def test_labels_grow_digits_until_distinct() -> None:
    labels, nums = range_labels(((99.94, 163.04), (163.4, 201.0)))
    assert labels == ("99.94–163", "163.4–201")
    assert nums[0][1] < nums[1][0]
    assert format_number(0.000123456, 3) == "0.000123"


def test_queen_counts_a_shared_vertex() -> None:
    # 2x2 boxes: diagonal a-d touch at one vertex only (queen, not rook).
    adj = queen_adjacency({"a": box(0, 0, 1, 1), "b": box(1, 0, 2, 1),
                           "c": box(0, 1, 1, 2), "d": box(1, 1, 2, 2), "e": box(3, 3, 4, 4)})
    assert adj["a"] == {"b", "c", "d"}
    assert adj["e"] == frozenset()
    assert restrict(adj, {"a", "d"}) == {"a": {"d"}, "d": {"a"}}
    near = queen_adjacency({"a": box(0, 0, 1, 1), "e": box(1.05, 0, 2, 1)}, tolerance=0.1)
    assert near["a"] == {"e"}


# Toy map, 3x3 grid with queen adjacency:
#   a b c
#   d e f
#   g h i
GRID = {r: box(i % 3, -(i // 3), i % 3 + 1, -(i // 3) + 1) for i, r in enumerate("abcdefghi")}


def test_clusters_on_a_toy_grid_by_hand() -> None:
    adj = queen_adjacency(GRID)
    assert adj["e"] == set("abcdfghi") and adj["a"] == set("bde")
    classes = {"a": 5, "b": 5, "c": 1, "d": 2, "e": 5, "f": 1, "g": 3, "h": 1, "i": 1}
    # Class 5: a, b, e connected -> one cluster. Class 1: c-f-i vertical, h-i: {c,f,h,i}
    # (h touches i by an edge, f by a vertex) -> one cluster of four.
    got = extreme_clusters(classes, adj)
    assert got == [Cluster(1, ("c", "f", "h", "i")), Cluster(5, ("a", "b", "e"))]
    assert clustered_regions(got, 5) == ["a", "b", "e"]
    # Without e the class-5 states a, b are only two: no cluster.
    classes["e"] = 4
    assert extreme_clusters(classes, adj) == [Cluster(1, ("c", "f", "h", "i"))]
    # Local scope {c, f, g, h}: c-f share an edge, f-h only a vertex: a cluster of three.
    assert extreme_clusters(classes, adj, scope="cfgh") == [Cluster(1, ("c", "f", "h"))]
    # Local scope {c, g, h, i}: h-i connected, c apart (f left out): no cluster of three.
    assert extreme_clusters(classes, adj, scope="cghi") == []
    # Classes 2-4 never cluster even when connected.
    assert extreme_clusters({r: 3 for r in GRID}, adj) == []


def test_zone_helpers() -> None:
    zoning = {"a": "N", "b": "N", "c": "S"}
    assert zone_members(zoning, "N") == ["a", "b"]
    assert zone_mean_class({"a": 1, "b": 4, "c": 5}, zoning, "N") == 2.5
    with pytest.raises(ValueError):
        zone_members(zoning, "W")


def test_us_zones_are_the_census_regions() -> None:
    zones = us_zones()
    counts = {z: sum(1 for v in zones.values() if v == z) for z in US_ZONE_NAMES}
    assert counts == {"West": 11, "Midwest": 12, "Northeast": 9, "South": 17}
    assert len(CONTIGUOUS) == 49 and zones["DC"] == "South" and zones["PA"] == "Northeast"


def test_user_table(tmp_path: Path) -> None:
    p = tmp_path / "t.csv"
    p.write_text("state,rate,count\nTexas,1.5,3\nNY,2,\n06,3.25,7\nAlaska,9,9\n")
    rate, count = read_user_table(p)
    assert rate.values == {"TX": 1.5, "NY": 2.0, "CA": 3.25}  # Alaska is not drawn
    assert count.values == {"TX": 3.0, "CA": 7.0}
    bad = tmp_path / "bad.csv"
    bad.write_text("state,rate\nAtlantis,1\n")
    with pytest.raises(GroundTruthError, match="unknown state 'Atlantis'"):
        read_user_table(bad)
    with pytest.raises(GroundTruthError, match="does not exist"):
        read_user_table(tmp_path / "none.csv")


def test_components_finds_every_group_after_one_already_visited() -> None:
    # a-c touch; b and d stand alone. Sorted, c comes up after its group (a, c) is done:
    # d, after it, is still a component of its own
    adj = {"a": {"c"}, "c": {"a"}, "b": set(), "d": set()}
    assert components(["d", "c", "b", "a"], adj) == [("a", "c"), ("b",), ("d",)]


def test_labels_show_no_floating_point_noise_at_many_digits() -> None:
    assert format_number(0.1, 16) == "0.1"
    assert format_number(0.3, 16) == "0.3"
    assert format_number(2.675, 15) == "2.675"


def test_whole_numbers_keep_their_zeros_and_lose_their_point() -> None:
    # legend bounds such as 1000 and 20 are written as they are; 2.0 is written 2
    assert format_number(1000, 3) == "1000" and format_number(20, 3) == "20"
    assert format_number(2.0, 3) == "2" and format_number(1000.0, 2) == "1000"


def test_the_data_folder_can_be_moved_by_the_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path))
    assert thematic_data_dir() == tmp_path
    monkeypatch.delenv("CARTOQA_THEMATIC_DATA")
    assert thematic_data_dir() == Path(sys.prefix) / "share" / "cartoqa" / "thematic"


def test_bad_user_tables_say_how_to_fix_them(tmp_path: Path) -> None:
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("state,rate\nAtlantis,1\n")
    with pytest.raises(GroundTruthError, match=r"unknown\.csv:2: .*USPS code or FIPS code"):
        read_user_table(unknown)
    text = tmp_path / "text.csv"
    text.write_text("state,rate\nTexas,n/a\n")
    with pytest.raises(GroundTruthError,
                       match=r"text\.csv:2: rate='n/a' is not a number "
                             r"\(leave a cell empty for no data\)"):
        read_user_table(text)
    headless = tmp_path / "headless.csv"
    headless.write_text("Texas,1.5\nOhio,2\n")
    with pytest.raises(GroundTruthError, match="needs a 'state' column") as err:
        read_user_table(headless)
    assert err.value.fix == "add a header row such as state,value"


def test_a_spreadsheet_header_with_a_line_break_is_one_column(tmp_path: Path) -> None:
    """Spreadsheets write CRLF lines and keep a line break typed in a cell inside its
    quotes: the cell is one column whose title is the text as typed."""
    p = tmp_path / "excel.csv"
    p.write_bytes(b'state,"Obesity\r\n(%)",count\r\nTexas,31.5,3\r\n"New\r\nYork",25,\r\n')
    obesity, count = read_user_table(p)
    assert obesity.title == "Obesity\r\n(%)" and obesity.key == "user_Obesity\r\n(%)"
    assert obesity.values == {"TX": 31.5, "NY": 25.0} and count.values == {"TX": 3.0}


def test_a_missing_data_file_names_the_variable_to_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARTOQA_THEMATIC_DATA", str(tmp_path))
    with pytest.raises(GroundTruthError, match="set CARTOQA_THEMATIC_DATA to the folder"):
        data_file("vega-datasets", "obesity.json")


def test_user_tables_and_generated_variables_carry_their_labels(tmp_path: Path) -> None:
    from groundtruth.thematic.variables import generated_variable

    p = tmp_path / "t.csv"
    p.write_text("state,rate\nTexas,1.5\n")
    [rate] = read_user_table(p)
    assert rate.theme == "user" and rate.licence == "as given by the user"
    with pytest.raises(GroundTruthError) as err:
        read_user_table(tmp_path / "none.csv")
    assert err.value.fix == "pass an existing CSV file"
    adjacency = queen_adjacency({"a": box(0, 0, 1, 1), "b": box(1, 0, 2, 1)})
    made_up = generated_variable("gen_x", "X [generated]", "environment", 4.0, 0.8, 1,
                                 adjacency=adjacency, seed=0)
    # made-up values say so in their licence, which the dataset card repeats
    assert made_up.generated and made_up.licence == "CC0-1.0 (generated by cartoqa)"


def test_generated_values_are_their_noise_averaged_with_the_neighbours() -> None:
    """gen values: exp(mu + 2 sigma z), z a region's seeded normal noise averaged with its
    neighbours' at weight 0.6 each, recomputed here from the documented recipe."""
    import math
    import random

    from groundtruth.thematic.variables import generated_variable

    adjacency = {"a": frozenset({"b"}), "b": frozenset({"a"}), "c": frozenset()}
    v = generated_variable("gen_x", "X [generated]", "environment", 4.0, 0.8, 3,
                           adjacency=adjacency, seed=5)
    rng = random.Random("gen_x:5")
    za, zb, zc = (rng.gauss(0.0, 1.0) for _ in range(3))
    for region, z in (("a", (za + 0.6 * zb) / 1.6), ("b", (zb + 0.6 * za) / 1.6), ("c", zc)):
        assert v.values[region] == round(math.exp(4.0 + 0.8 * 2.0 * z), 3), region


def test_washington_dc_by_its_usual_spellings() -> None:
    from groundtruth.thematic.us_states import code_for_name

    for name in ("Washington D.C.", "washington dc", "D.C.", "District of Columbia"):
        assert code_for_name(name) == "DC", name


# -- issue 33 (mutation seed 3305): what a user reads about a bad table, word for word;
# published legends --------------------------------------------------------------------

def test_a_table_that_is_not_csv_or_not_utf8_says_how_to_save_it(tmp_path: Path) -> None:
    long_cell = tmp_path / "long.csv"
    long_cell.write_text("state,rate\nTexas," + "1" * 1200 + "\n")
    with pytest.raises(GroundTruthError) as err:
        read_user_table(long_cell)
    assert (err.value.message, err.value.fix) == (
        f"{long_cell}: not a readable CSV table (field larger than field limit (1000))",
        "cells may hold at most 1000 characters")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("state,rate\nTexas,1\nCalifornia,2 \xe9\n".encode("latin-1"))
    with pytest.raises(GroundTruthError) as err:
        read_user_table(latin)
    assert (err.value.message, err.value.fix) == (
        f"{latin}:3: not UTF-8 text (byte 0xe9)",
        "save the table as UTF-8 CSV (e.g. from latin-1: iconv -f latin1 -t utf-8)")
    headless = tmp_path / "headless.csv"
    headless.write_text("Texas,1.5\nOhio,2\n")
    with pytest.raises(GroundTruthError) as err:
        read_user_table(headless)
    assert err.value.message == (f"{headless}: needs a 'state' column and at least one "
                                 "value column")


def test_a_utf8_table_with_a_byte_order_mark_keeps_its_state_column(tmp_path: Path) -> None:
    # spreadsheets save "UTF-8 CSV" with a BOM before the first header
    p = tmp_path / "bom.csv"
    p.write_bytes("state,rate\nTexas,1\n".encode("utf-8-sig"))
    (rate,) = read_user_table(p)
    assert rate.values == {"TX": 1.0}


def test_published_ranges_are_labelled_lo_to_hi_unless_the_legend_says_otherwise() -> None:
    ranges = [(0.25, 1.5), (2, 4), (6.5, 10)]
    c = published_classes({"a": 0.5, "b": 7.0, "c": 2}, ranges)
    assert c.labels == ("0.25–1.5", "2–4", "6.5–10")
    assert c.classes == {"a": 1, "b": 3, "c": 2} and c.method == "published"
    own = published_classes({"a": 0.5}, ranges, labels=["low", "mid", "high"])
    assert own.labels == ("low", "mid", "high")
    with pytest.raises(ValueError, match=r"^2 labels for 3 classes$"):
        published_classes({"a": 0.5}, ranges, labels=["low", "high"])


def test_a_value_on_the_top_break_is_in_the_top_class() -> None:
    # issue 33 (mutation seed 3306)
    c = classes_from_breaks({"a": 0.0, "b": 10.0, "c": 10.5, "d": 30.0}, [0, 10, 20, 30])
    assert c.classes == {"a": 1, "b": 1, "c": 2, "d": 3}
    with pytest.raises(ValueError, match="lies outside the breaks"):
        classes_from_breaks({"e": 30.5}, [0, 10, 20, 30])
