"""Region names: every form a reader writes a region in, resolved to the map's codes by
name (so the resolution holds whichever codes the map declares)."""

from __future__ import annotations

import pytest

from groundtruth.thematic.countries import Region, region_table
from groundtruth.thematic.region_names import (
    RegionNames,
    fold_name,
    iso_subdivisions,
    region_names,
)


@pytest.mark.parametrize(("country", "text", "name"), [
    ("usa", "D.C.", "District of Columbia"),
    ("usa", "Washington, D.C.", "District of Columbia"),
    ("usa", "Washington DC", "District of Columbia"),
    ("usa", "US-DC", "District of Columbia"),
    ("usa", "Washington", "Washington"),
    ("usa", "Illinois (IL)", "Illinois"),
    ("usa", "us-tx", "Texas"),
    ("china", "Chongqing Municipality", "Chongqing"),
    ("china", "Tibet Autonomous Region", "Tibet"),
    ("china", "Xizang (Tibet)", "Tibet"),
    ("china", "Xizang Zizhiqu", "Tibet"),
    ("china", "Inner Mongolia Autonomous Region", "Inner Mongolia"),
    ("china", "Guangxi Zhuang Autonomous Region", "Guangxi"),
    ("china", "Hubei Province", "Hubei"),
    ("china", "CN-HB", "Hubei"),
    ("china", "CN-HE", "Hebei"),
    ("china", "CN-HA", "Henan"),
    ("china", "CN-SN", "Shaanxi"),
    ("india", "Lakshadweep Islands", "Lakshadweep"),
    ("india", "Orissa", "Odisha"),
    ("india", "IN-OD", "Odisha"),
    ("india", "IN-TS", "Telangana"),
    ("india", "NCT of Delhi", "Delhi"),
    ("india", "Jammu & Kashmir", "Jammu and Kashmir"),
    ("india", "Andaman and Nicobar Islands", "Andaman and Nicobar Islands"),
])
def test_every_form_resolves_to_the_named_region(country: str, text: str, name: str) -> None:
    names = region_names(country)
    code = names.resolve(text)
    assert code is not None and names.regions[code].name == name


@pytest.mark.parametrize(("country", "text"), [
    ("usa", "Atlantis"), ("usa", "CN-HB"), ("china", "Texas"), ("india", "Bombay State"),
    ("china", "Xizang (Sichuan)"), ("usa", ""),
])
def test_names_of_no_region_resolve_to_nothing(country: str, text: str) -> None:
    assert region_names(country).resolve(text) is None


def test_iso_codes_follow_names_when_the_map_uses_iso_codes() -> None:
    # a map declaring ISO 3166-2 codes (CN-HB is Hubei, CN-HE Hebei): the same texts
    # resolve to its codes, by name
    iso = {"HB": Region("HB", "Hubei"), "HE": Region("HE", "Hebei"),
           "HA": Region("HA", "Henan"), "XZ": Region("XZ", "Tibet", ("Xizang",))}
    names = RegionNames("china", iso)
    assert [names.resolve(t) for t in ("CN-HB", "HB", "Hubei Province", "CN-HE", "HE",
                                       "Henan", "Xizang (Tibet)")] == [
        "HB", "HB", "HB", "HE", "HE", "HA", "XZ"]
    # the packaged map of China declares ISO codes too: a bare HB and CN-HB are Hubei
    packaged = region_names("china")
    assert packaged.regions[packaged.resolve("HB")].name == "Hubei"
    assert packaged.regions[packaged.resolve("CN-HB")].name == "Hubei"
    assert packaged.regions[packaged.resolve("HE")].name == "Hebei"


def test_pycountry_covers_every_region_of_the_maps() -> None:
    for country in ("usa", "india", "china"):
        names = region_names(country)
        mapped = set(names._by_iso.values())
        missing = set(region_table(country)) - mapped
        # India's 2014 map draws units merged since (DN, DD): their ISO code is new
        assert missing <= {"DN", "DD"}, (country, missing)
        assert iso_subdivisions(country)


# -- issue 33 (mutation seed 3305): the folding every name lookup goes through ----------

def test_folding_reads_underscores_and_word_hyphens_as_spaces() -> None:
    # file and column names write "New_Mexico"; pinyin writes "Nei-Mongol"
    assert fold_name("New_Mexico") == fold_name("new mexico") == "new mexico"
    assert fold_name("Nei-Mongol") == "nei mongol"
    assert fold_name("Jammu_&_Kashmir") == "jammu and kashmir"
    # a code keeps its hyphen (the letters after it are fewer than three)
    assert fold_name("CN-HB") == "cn-hb"
    assert fold_name("  Jammu & Kashmīr. ") == "jammu and kashmir"


# -- issue 33 (mutation seed 3306) --------------------------------------------------------

def test_a_leading_article_is_not_part_of_the_name() -> None:
    india = region_names("india")
    assert india.resolve("The Punjab") == india.resolve("Punjab") == "PB"
    assert india.resolve("the Andaman and Nicobar Islands") == "AN"


def test_names_of_a_country_without_iso_codes_resolve_codes_and_no_bare_iso() -> None:
    # RegionNames is not tied to the three maps: a country with no ISO 3166-2 prefix
    # known here still resolves its own codes and names; two letters are no ISO code
    regions = {"NO": Region("NO", "Nord"), "SU": Region("SU", "Sud")}
    names = RegionNames("atlantis", regions)
    assert names.resolve("Nord") == "NO" and names.resolve("su") == "SU"
    assert names.resolve("xx") is None
