"""A corpus of realistic model responses, each with the reading a careful human gives.

``tests/parsing/corpus/<task>.yaml`` holds responses in many styles (bare answers, long
reasoning then ``Answer:``, markdown headings, JSON in code fences, CartoMapQA's own
formats, hedges, units, several answer lines, notes after the answer) written after
the habits of several model families (GPT-4o-like terse, Claude-like with a preamble
and bullet reasoning, Gemini-like markdown headings, Qwen-VL/InternVL/LLaVA-like short
or slightly malformed output). ``expect`` is what a careful reader takes the answer to
be, or ``invalid`` when such a reader could not say (a hedge, two answers, a refusal).

Run ``python tests/parsing/test_corpus.py`` for the agreement table.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from helpers.corpus_check import text_response
from helpers.corpus_yaml import read_yaml

from cartoqa.declarations.dispatch import parse_response
from cartoqa.metrics import normalise_name
from cartoqa.parsing import Parsed

CORPUS = Path(__file__).parent / "corpus"
TASKS = ("mfs", "stmf", "mtmf", "rle", "mml", "srn")
MFS_OPTIONS = {"A": "pharmacy", "B": "bank", "C": "park", "D": "parking", "E": "bus stop"}
MTMF_TYPES = ["restaurant", "bank", "park", "parking", "fast food", "ATM", "coffee shop",
              "bus stop"]
REQUEST = {"mfs": "choice", "mtmf": "all", "rle": "length", "mml": "roads", "srn": "route"}


def load_corpus() -> list[dict[str, Any]]:
    """Every entry of the corpus, with its ``task`` set from its file name."""
    entries = []
    for task in TASKS:
        for number, entry in enumerate(read_yaml(CORPUS / f"{task}.yaml"), start=1):
            entries.append({**text_response(entry, f"{task}.yaml#{number}"), "task": task,
                            "where": f"{task}.yaml#{number}"})
    for name in ("holdout", "holdout2", "issue24", "fresh24", "fresh24b", "fresh24c",
                 "fresh24d", "fresh24e", "fresh24f", "fresh24g", "fresh24h", "fresh24i",
                 "fresh24k", "fresh24m", "fresh24o", "fresh24p", "fresh24q",
                 "fresh24r", "fresh24s", "fresh24t", "fresh24u", "fresh24w",
                 "fresh24x", "fresh24za", "fresh24zb", "fresh24zc",
                 "fresh24zd", "fresh24ze", "fresh24zf", "fresh24zh",
                 "fresh24zg", "fresh24zi", "fresh24zj", "fresh24zl",
                 "fresh24zk", "fresh24zm", "fresh24zn", "fresh24zp",
                 "fresh24zo", "fresh24zq",
                 "fresh24zs", "fresh24zr", "fresh24zt", "fresh24zx",
                 "fresh24zz", "fresh24zy", "fresh24zv", "fresh24zw",
                 "fresh24e2", "fresh24e1", "fresh24e3",
                 "fresh24f1", "fresh24f3", "fresh24f2", "fresh24f5", "fresh24f6",
                 "fresh24f4"):
        held = read_yaml(CORPUS / f"{name}.yaml")
        for number, entry in enumerate(held, start=1):
            entries.append({**text_response(entry, f"{name}.yaml#{number}"), "batch": name,
                            "where": f"{name}.yaml#{number}"})
    return entries


def _item(entry: dict[str, Any]) -> dict[str, Any]:
    task = entry["task"]
    item: dict[str, Any] = {"task": task, "request": entry.get("request", REQUEST.get(task))}
    if task == "mfs":
        item["options"] = entry.get("options", MFS_OPTIONS)
    elif task == "rle":
        item["answer"] = {"value": 1.0, "unit": entry.get("unit", "m")}
    elif task == "stmf" and entry.get("feature"):
        item["strata"] = {"feature_type": entry["feature"]}
    if entry.get("map_names") is not None:  # the names the item's map writes (not the gold)
        item["provenance"] = {"map_names": list(entry["map_names"])}
    if task == "mtmf":  # a real MTMF item carries its types and its map's names both
        types = entry.get("types", MTMF_TYPES)
        item["answer"] = {"types": {t: {"count": 0, "names": []} for t in types}}
    return item


def _names(values: list[str]) -> Counter[str]:
    return Counter(normalise_name(str(v)) for v in values)


def agrees(entry: dict[str, Any], value: dict[str, Any]) -> bool:
    """Whether a parsed value is the reading ``entry["expect"]`` gives."""
    task, expect = entry["task"], entry["expect"]
    request = entry.get("request")
    if task == "mfs":
        return bool(value["letter"] == expect)
    if request == "presence":
        return bool(value["present"] is expect)
    if request == "count":
        return bool(value["count"] == expect)
    if request == "names":
        return _names(value["names"]) == _names(expect)
    if task == "rle":
        return abs(value["value"] - expect) <= 1e-6 * max(1.0, abs(expect))
    if task == "mml":
        return _names(value["roads"]) == _names(expect)
    if task == "srn":
        return [normalise_name(s) for s in value["steps"]] == [normalise_name(s) for s in expect]
    if task == "mtmf":
        types = entry.get("types", MTMF_TYPES)
        for t in types:
            count, names = expect.get(t, [0, []])
            got = value["types"][t]
            if got["count"] != count or _names(got["names"]) != _names(names):
                return False
        return True
    raise ValueError(task)


def judge(entry: dict[str, Any]) -> str:
    """``agree``, ``missed`` (read invalid, a human reads a value) or ``wrong``."""
    result = parse_response(_item(entry), entry["response"])
    if entry["expect"] == "invalid":
        return "agree" if not isinstance(result, Parsed) else "wrong"
    if not isinstance(result, Parsed):
        return "missed"
    return "agree" if agrees(entry, result.value) else "wrong"


def agreement_table(entries: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Outcome counts per task (and ``all``)."""
    table: dict[str, Counter[str]] = {t: Counter() for t in (*TASKS, "all")}
    for entry in entries:
        outcome = judge(entry)
        table[entry["task"]][outcome] += 1
        table["all"][outcome] += 1
    return table


ENTRIES = load_corpus()


def test_corpus_size_and_variety() -> None:
    assert len(ENTRIES) >= 300
    styles = Counter(e["style"] for e in ENTRIES)
    families = Counter(e["family"] for e in ENTRIES)
    assert len(styles) >= 5 and len(families) >= 6, (styles, families)
    for task in TASKS:
        assert sum(e["task"] == task for e in ENTRIES) >= 35, task
        assert any(e["expect"] == "invalid" for e in ENTRIES if e["task"] == task), task


def test_agreement_with_a_careful_reader() -> None:
    table = agreement_table(ENTRIES)
    total = table["all"]
    n = sum(total.values())
    assert total["agree"] / n >= 0.98, dict(total)
    # no silent misreading: a wrong value is far rarer than an honest "invalid"
    assert total["wrong"] / n <= 0.01, dict(total)


def test_fresh_sets_agreement() -> None:
    """The street fresh sets of issue 24 (written after the parser work; first tries in
    docs/scoring.md), each at 98 % at least."""
    for batch in ("fresh24", "fresh24b", "fresh24c", "fresh24d", "fresh24e", "fresh24f"):
        counts = agreement_table([e for e in ENTRIES if e.get("batch") == batch])["all"]
        assert counts["agree"] / sum(counts.values()) >= 0.98, (batch, dict(counts))


#: Entries the parsers are known to read otherwise than a careful reader (``where`` ->
#: why). One listed here must still disagree (a strict expected failure), so a fix shows
#: up as a failure asking for its removal.
#: (Empty since issue 24's third session: ``fresh24b.yaml#15``, ``Answer: Yes (I think,
#: the icon is tiny)``, labelled a hedge, now agrees — doubt added in brackets after the
#: answer is a hedge, while ``I think it's C``, the answer after ``I think``, stays firm;
#: see docs/scoring.md.)
#: ``fresh24g.yaml`` (issue 24, session grade24e; independent grader, scored once, first
#: try 39/42 in docs/rounds/2026-12-01/grade24e.md) is not asserted at 98 % as a batch: its
#: three disagreements are listed here instead, each with what a fix would have to do.
KNOWN_DISAGREEMENTS: dict[str, str] = {
    # (fresh24g.yaml#20 'Answer: Hiisi & Lost In Helsinki' agrees since grade24h: the entry
    # carries its item's provenance.map_names, rebuilt with the same image, and the map
    # writes both names.)
    # ``fresh24h.yaml`` (issue 24, session grade24g; independent grader, committed before
    # scoring, first try 49/53 in docs/rounds/2026-12-01/grade24g.md): its four
    # disagreements, each with what a fix would have to do.
    # (fresh24h.yaml#5, MFS 'either a dock (B) or a ferry terminal (C) ... so I'd lean
    # towards B', was a judgement call read as a hedge; agrees since fix24zn: the
    # coordinator decided that "lean towards / go with / pick X" after an either/or that
    # offers X is a choice, as the issue's own "...; I'll go with E." and two graders read.)
    # ``fresh24i.yaml`` (issue 24, session grade24i; independent grader, committed before
    # scoring in a403455, first try 49/50 in docs/rounds/2026-12-01/grade24i.md).
    # (fresh24i.yaml#7, MFS 'Answer: B ... Wait ... Corrected answer: C', agrees since
    # grade24j: "Corrected/Revised/Updated/Amended/New answer:" is a final cue that
    # replaces earlier ones, at a line start or inside a line.)
    # ``fresh24p.yaml`` (issue 24, session grade24p; independent grader, first try 18/20 in
    # docs/rounds/2026-12-02/grade24p.md): #12 (a marker step with "facing north") and #16
    # (a retraction "Hmm, re-measuring ...") agree since fix24r
    # (tests/parsing/test_grade24p_classes.py).
    # ``fresh24q.yaml`` (issue 24, session grade24q; independent grader, first try 48/50 in
    # docs/rounds/2026-12-02/grade24q.md): #7 (a letter concluding with "so B" after
    # options ruled out by their text) and #23 (a name with a comma in a counted name
    # list) agree since fix24s (tests/parsing/test_grade24q_classes.py).
    # ``fresh24r.yaml`` (issue 24, session grade24r; independent grader, first try 59/60 in
    # docs/rounds/2026-12-02/grade24r.md): #12 (no names said in a sentence) agrees since
    # fix24t (tests/parsing/test_grade24r_classes.py).
    # ``fresh24s.yaml`` (issue 24, session grade24s; independent grader, first try 38/40 in
    # docs/rounds/2026-12-02/grade24s.md): #12 ("There are none.") and #37 ("... and drive to
    # the red marker") agree since the fixes after it (tests/parsing/test_grade24s_classes.py).
    # ``fresh24t.yaml`` (issue 24, session grade24t; independent grader, committed before
    # scoring in 3168447, first try 59/60 in docs/rounds/2026-12-02/grade24t.md): #57 (a
    # "// comment" after a value of a JSON list over several lines) agrees since fix24v
    # (tests/parsing/test_grade24tu_classes.py).
    # ``fresh24w.yaml`` (issue 24, session grade24w; independent grader, committed before
    # scoring in ab7d9fd, scored once after merging main at 6ad18d5: 49/50 in
    # docs/rounds/2026-12-02/grade24w.md): #25 (an MTMF bullet line whose names are followed
    # by a note in brackets, "Zucchini (one restaurant icon has no name)") agrees since fix24y
    # (tests/parsing/test_grade24wx_classes.py).
    # ``fresh24x.yaml`` (issue 24, session grade24x; independent grader, committed before
    # scoring in 4e3dde0, scored once after merging this round's fixes: 43/45 in
    # docs/rounds/2026-12-02/grade24x.md): #21 (one name said in a sentence, "The supermarket
    # shown on the map is S-Market Hakaniemi.") and #26 (a ";"-separated names cell with a
    # comma inside a name) agree since fix24y (tests/parsing/test_grade24wx_classes.py).
    # ``fresh24za.yaml`` (issue 24, session grade24za; independent grader, committed before
    # scoring in 803e865, scored once on main at c003996: 48/50 in
    # docs/rounds/2026-12-02/grade24za.md): #15 (STMF names after a lead-in whose subject has
    # its own clause, "The restaurants whose names are written on the map are ...") and #40
    # (MML two roads said in a sentence, then a clause naming another place, "..., at the
    # north-west corner of the Esplanadi park.") agree since fix24z
    # (tests/parsing/test_grade24z_classes.py).
    # ``fresh24zb.yaml`` (issue 24, session grade24zb; independent grader, committed before
    # scoring at 29ffd44, scored once: street 39/40, MapIQ 30/30, MapWise 30/30): #38 (an MTMF
    # table cell of quoted names, one with a comma inside, '"Rautatientori", "Rautatientori,
    # laituri 13"') agrees since fix24z (tests/parsing/test_grade24z_classes.py).
    # ``fresh24zc.yaml`` (issue 24, session grade24zc; independent grader, committed before
    # scoring in 8a6319f, scored once against main at c003996: 20/20 in
    # docs/rounds/2026-12-02/grade24zc.md): no disagreement.
    # ``fresh24zd.yaml`` (issue 24, session grade24zd; independent grader, committed before
    # scoring in 61155b7, scored once after merging this round's fixes (5a3bc2b): 48/50 in
    # docs/rounds/2026-12-02/grade24zd.md): #42 (an MML road pair "A x B" in bold on its
    # own line after a cue-less describing sentence) agrees since fix24zz
    # (tests/parsing/test_grade24zz_classes.py); #2 is a judgement call, kept: "most
    # likely" on the one answer stays a hedge, as "likely"/"probably" are in every suite
    # (independent labels: holdout2 "Likely yes, ...", fresh6 "It's likely Pohjolan
    # toimitalo.", issue 24's "Probably no."; docs/rounds/2026-12-02/fix24zz.md).
    "fresh24zd.yaml#2": "MFS option named by its text at the end of cue-less reasoning after "
                        "'most likely' ('... so this feature is most likely a gift shop.'): "
                        "read invalid (a hedge, 'likely'), grader reads the pick E (score "
                        "unchanged here: E is wrong; a true pick said so would lose its credit)",
    # ``fresh24ze.yaml`` (issue 24, session grade24ze; independent grader, committed before
    # scoring in eb464bc, scored once against main merged at 96705d6: 39/40 in
    # docs/rounds/2026-12-02/grade24ze.md): #39 (SRN numbered prose steps, a road followed
    # by a lower-case note in brackets, "Fabianinkatu (southbound)") agrees since fix24zy
    # (tests/parsing/test_grade24zy_classes.py).
    # ``fresh24zf.yaml`` (issue 24, session grade24zf; independent grader, committed before
    # scoring in ed9ceeb, scored once after merging this round's fixes (main at 9507f19):
    # 53/60 in docs/rounds/2026-12-02/grade24zf.md): its seven disagreements, each with its class.
    # #17 (STMF names: an empty list said in a sentence, "None of the convenience stores
    # have a name written on the map.") and #23 (STMF count: reasoning cut off mid-sentence,
    # "... I see one next to the") agree since fix24zz (tests/parsing/test_grade24zz_classes.py).
    # Since fix24zy (tests/parsing/test_grade24zy_classes.py) five agree: #29 (MTMF JSON cut
    # before its closing brace: read what is complete), #32 (MTMF prose counts closed by "I
    # don't see any of the other listed types."), #42 (RLE "I only measured the first leg"
    # between two cued answers: the later is the correction), #54 (SRN numbered sentences
    # as steps) and #57 (SRN prose summary after "Route:", then a fenced JSON list: the list).
    # ``fresh24zg.yaml`` (issue 24, session grade24zg; independent grader, committed before
    # scoring in a083bb6, scored once after merging this round's fixes (main at 05eb968):
    # 45/50 in docs/rounds/2026-12-02/grade24zg.md): its disagreements, each with its class.
    # #21, #22, #23, #25 (MTMF; scored as disagreements) were a harness defect: an entry
    # carrying its item's map_names got no feature types (``_item`` built them in an
    # ``elif``), so the reader was told of no types; a real run's item has both. Fixed in
    # ``_item`` after the one scoring, the four entries unchanged: each now agrees with the
    # grader (docs/rounds/2026-12-02/grade24zg.md, "as a real run reads": 49/50).
    # (fresh24zg.yaml#28, MTMF prose closed by 'everything else is 0', agrees since fix24zw:
    # "everything/anything else is 0 (zero, none, absent)" says the other types are absent.)
    # issue 24, session grade24zj: the two disagreements of fresh24zj.yaml, scored once
    # (48/50; docs/rounds/2026-12-02/grade24zj.md)
    # (fresh24zj.yaml#42, MTMF 'restaurant: 4 (A, B), clothes shop: 1 (C), park: 1, parking:
    # 1. All the other types: 0.' on one line, agrees since fix24zw: a line running several
    # "type: count" on is read as one a line, a closing catch-all its own.)
    # (fresh24zj.yaml#50, an SRN route in one sentence ending 'turn right onto Liisankatu
    # to reach red', agrees since fix24zw: a purpose or gerund clause naming the marker,
    # "to reach red", "reaching the red marker", is the step "red"
    # (tests/parsing/test_grade24zw_classes.py).)
    # ``fresh24zi.yaml`` (issue 24, session grade24zi; independent grader, committed before
    # scoring in 8eb1269, scored once after merging main at 31769ec: 50/51 in
    # docs/rounds/2026-12-02/grade24zi.md): its one disagreement, with its class.
    "fresh24zi.yaml#21": "STMF count said first, then a 'maybe' that doubts only one of the "
                         "counted items ('2 parkings i think, one at the left edge and one "
                         "more maybe'): read invalid ('a hedged answer (maybe)'), grader reads "
                         "2 (judgement call; score unchanged: the grader's 2 is wrong against "
                         "truth 1, read as invalid)",
    # ``fresh24zo.yaml`` (issue 24, session grade24zo; independent grader, committed before
    # scoring in 4e663d3 and 9ab7e8a, scored once: 18/20 in
    # docs/rounds/2026-12-02/grade24zo.md): its two disagreements, with their classes.
    # fresh24zo.yaml#13 (MTMF prose with the names after a colon, "The map shows 3
    # restaurants: Jufu, Ravintola Hausman and Woolshed. ...") agrees since fix24zv.
    # fresh24zo.yaml#20 (STMF names cut off at an empty first list marker, "... starting from
    # the top left:\n\n1.") agrees since fix24zv (tests/parsing/test_grade24zv_classes.py).
    # ``fresh24zq.yaml`` (issue 24, session grade24zq; independent grader, committed before
    # scoring in 6c20d6f, scored once with main at 8cc5a84: 39/40 in
    # docs/rounds/2026-12-02/grade24zq.md): its one disagreement, with its class.
    # fresh24zq.yaml#21 (STMF count, a zero said as "I don't see any convenience store icons
    # on this map" with no number and no cue) agrees since fix24zt
    # (tests/parsing/test_grade24zt_classes.py).
    # ``fresh24zs.yaml`` (issue 24, session grade24zs; independent grader, committed before
    # scoring in 646c935, scored once against main at 8cc5a84: 39/40 in
    # docs/rounds/2026-12-02/grade24zs.md): its one disagreement, with its class.
    # fresh24zs.yaml#25 (RLE length said in words with a fraction and no digit, "roughly half
    # a kilometre long") agrees since fix24zt (tests/parsing/test_grade24zt_classes.py).
    # ``fresh24zr.yaml`` (issue 24, session grade24zr; independent grader, committed before
    # scoring in a7ee7a1, scored once against main at 8cc5a84: 37/40 in
    # docs/rounds/2026-12-02/grade24zr.md): its three disagreements, with their classes.
    # fresh24zr.yaml#11 (MTMF markdown table, a name holding "&", "Morkku, Mount Everest,
    # Maya Bar & Grill") agrees since fix24zt (tests/parsing/test_grade24zt_classes.py).
    # (fresh24zr.yaml#33, MML 'on Paasivuorenkatu, at the corner where Saariniemenkatu
    # joins it', agrees since fix24zs: a second road said in a 'where' clause.)
    # (fresh24zr.yaml#40, SRN route told in one prose sentence to the red marker, agrees
    # since fix24zs: blue, then the steps; a heading 'and drive west' is no step.)
    # ``fresh24zt.yaml`` (issue 24, session grade24zt; independent grader, committed before
    # scoring in d72c474, scored once against main at 9f03b9c: 49/50 in
    # docs/rounds/2026-12-02/grade24zt.md): its one disagreement, with its class.
    # (fresh24zt.yaml#37, MML 'Eteläesplanadi (Södra esplanaden); Fabianinkatu', agrees
    # since fix24zs: a bracketed other-language name is no part of a road.)
    # ``fresh24zx.yaml`` (issue 24, session grade24zx; independent grader, committed before
    # scoring in ae88d50, scored once against main at 9f03b9c: 43/50; the reader left as is)
    # fresh24zx.yaml#3 (MFS cue-less markdown conclusion '... most consistent with a
    # **golf course (D)**.' after reasoning that rules out B) agrees since fix24zr
    # (tests/parsing/test_grade24zr_classes.py).
    # fresh24zx.yaml#19 (MTMF markdown table: 'Maya Bar & Grill' split at '&', and a quoted
    # name with a comma, '"Rautatientori, laituri 13"', split at its comma) agrees since
    # fix24zt (tests/parsing/test_grade24zt_classes.py, classes 3 and 4).
    # fresh24zx.yaml#22 (MTMF bullets '* **Restaurants (4):** Cantina West, ...', no JSON)
    # agrees since fix24zr.
    # fresh24zx.yaml#32 (RLE 'Based on the 50 ft scale bar, the total length is somewhere
    # between 1,000 and 1,500 ft': a range, invalid) agrees since fix24zr.
    # (fresh24zx.yaml#38, MML names each with a bracketed Swedish exonym, agrees since
    # fix24zs, same class as fresh24zt.yaml#37.)
    # (fresh24zx.yaml#47, SRN 'turn left again onto Fabianinkatu', agrees since fix24zs:
    # an adverb in a turn phrase is no part of the action.)
    # (fresh24zx.yaml#50, SRN route as a markdown table | Step | Action | Road |, agrees
    # since fix24zs (tests/parsing/test_grade24zs_classes.py).)
    # ``fresh24zy.yaml`` (issue 24, session grade24zy; independent grader, committed before
    # scoring in 5f40932, scored once against main at a98dd87 (reader of 8cc5a84): 39/40)
    # (fresh24zy.yaml#40, SRN answer cut off mid-list after a comma, no "red", agrees since
    # fix24zq: a list cut after a separator is truncated output, invalid
    # (tests/parsing/test_grade24zq_classes.py).)
    # ``fresh24zw.yaml`` (issue 24, session grade24zw; independent grader, committed before
    # scoring in c646637, scored once against main at 471ba35 (reader of 8cc5a84 plus
    # fix24zu): 28/30; the reader left as is)
    # (fresh24zw.yaml#2, MFS markdown table of every option, no cue, last sentence '... so
    # the fill is most consistent with **E. garages**.', agrees since fix24zn: a concluding
    # last sentence that writes one option as letter and its own text is that letter.)
    # (fresh24zw.yaml#26, STMF 'Answer: Suomen Pankki (Bank of Finland)', agrees since
    # fix24zs: a bracket the item's map names do not write is a gloss.)
    # ``fresh24e2.yaml`` (issue 24, session grade24e2; independent grader, committed before
    # scoring in b9735e4, scored once against main at 9f906b6: 39/40; the reader left as is)
    # (fresh24e2.yaml#39, SRN prose route '..., then turn left again onto Annankatu, which
    # leads to the red marker', agrees since fix24zp: a clause after the last road that
    # reaches the marker is no step; tests/parsing/test_grade24zp_classes.py.)
    # ``fresh24e3.yaml`` (issue 24, session grade24e3; independent grader, committed before
    # scoring in 0f11b18, scored once against the branch at main 9f906b6: 35/40)
    # (fresh24e3.yaml#5, MFS 'could be a cycleway or a tertiary road ... so I would lean
    # towards the tertiary road.', agrees since fix24zn: a preference after an either/or
    # that offers it is a choice.)
    # (fresh24e3.yaml#13, MTMF complete type lines, then a fenced JSON cut off by the token
    # limit, agrees since fix24zp: the fuller answer before a cut JSON is read.)
    # (fresh24e3.yaml#15, MTMF prose '3 restaurants (Ravintola La Mer, Sen Chay and one
    # without a name)', '2 bus stops (one labelled Hakaniemi)', agrees since fix24zp: a
    # description inside a bracket of names is no name, 'one labelled X' is X.)
    # (fresh24e3.yaml#19, RLE 'Answer: ~50 m (about 160 ft)' on a ft item, agrees since
    # fix24zp: the asked unit's rounded value in brackets after another unit is read.)
    # (fresh24e3.yaml#29, STMF 'The only primary road, drawn in orange, is Lönnrotinkatu,
    # ...; Vanha kirkkopuisto is a park, not a road.', agrees since fix24zp: one answer in
    # a cue-less sentence beside a named non-answer.)
    # ``fresh24f1.yaml`` (issue 24, session grade24f1; independent grader, REGISTERED FINAL
    # round, committed before scoring in ced0a6b, scored once against main 18eef43: 24/25).
    "fresh24f1.yaml#20": (
        "an SRN route in prose with no list and no cue, its first step a clause naming the "
        "marker ('Turn left from the blue marker onto X, then turn right onto Y and drive "
        "until you reach the red marker'): read as a garbled step list (the clause 'Turn "
        "left from the blue marker onto X' and 'Y and drive' as road names), grader reads "
        "[blue, turn left, X, turn right, Y, red]"),
    # ``fresh24f4.yaml`` (issue 24, session grade24f4; independent grader, registered final
    # round, committed before scoring, scored once: 24/25; docs/rounds/2026-12-02/grade24f4.md)
    "fresh24f4.yaml#9": "MML cue-less one-sentence prose naming the two roads in bold joined "
                        "by 'ends at' ('The red marker sits where **Rikhardinkatu** ends at "
                        "**Kasarmikatu**.'): read invalid, grader reads the two names",
}


@pytest.mark.parametrize("entry", [
    pytest.param(e, id=e["where"], marks=pytest.mark.xfail(
        strict=True, reason=KNOWN_DISAGREEMENTS[e["where"]]))
    if e["where"] in KNOWN_DISAGREEMENTS else pytest.param(e, id=e["where"])
    for e in ENTRIES])
def test_each_response(entry: dict[str, Any]) -> None:
    outcome = judge(entry)
    assert outcome == "agree", (
        f"{entry['where']}: {outcome}: {entry['response'][:80]!r} -> "
        f"{parse_response(_item(entry), entry['response'])} (expected {entry['expect']!r})")


# issue 24, grade24n: the fixer's own (tuned)
TUNED24N = [{**e, "batch": "tuned24n_street", "where": f"tuned24n_street.yaml#{i}"}
            for i, e in enumerate(read_yaml(CORPUS / "tuned24n_street.yaml"), start=1)]


@pytest.mark.parametrize("entry", TUNED24N, ids=[e["where"] for e in TUNED24N])
def test_each_tuned24n_street_response(entry: dict[str, Any]) -> None:
    outcome = judge(entry)
    assert outcome == "agree", (
        f"{entry['where']}: {outcome}: {entry['response'][:80]!r} -> "
        f"{parse_response(_item(entry), entry['response'])} (expected {entry['expect']!r})")


def main() -> int:
    """Print the agreement per task, for the whole corpus and for the held-out file."""
    for title, entries in (("all files", ENTRIES),
                           *((f"{b}.yaml", [e for e in ENTRIES if e.get("batch") == b])
                             for b in ("holdout", "holdout2", "issue24", "fresh24",
                                       "fresh24b", "fresh24c", "fresh24d",
                                       "fresh24e", "fresh24f", "fresh24g",
                                       "fresh24h", "fresh24i", "fresh24k",
                                       "fresh24m", "fresh24o", "fresh24p",
                                       "fresh24q", "fresh24r", "fresh24s",
                                       "fresh24t", "fresh24u", "fresh24w",
                                       "fresh24x", "fresh24za", "fresh24zb", "fresh24zc",
                                       "fresh24zd", "fresh24ze", "fresh24zf",
                                       "fresh24zh", "fresh24zg", "fresh24zi",
                                       "fresh24zj", "fresh24zl", "fresh24zk",
                                       "fresh24zm", "fresh24zn", "fresh24zp",
                                       "fresh24zo", "fresh24zq",
                                       "fresh24zs", "fresh24zr", "fresh24zt", "fresh24zx",
                                       "fresh24zz", "fresh24zy", "fresh24zv", "fresh24zw",
                                       "fresh24e2", "fresh24e1", "fresh24e3",
                                       "fresh24f1", "fresh24f3", "fresh24f2", "fresh24f5",
                                       "fresh24f6", "fresh24f4"))):
        print(f"== {title} ==")
        _print_table(agreement_table(entries))
    for entry in ENTRIES:
        outcome = judge(entry)
        if outcome != "agree":
            result = parse_response(_item(entry), entry["response"])
            print(f"  {outcome}: {entry['where']} {entry['response'][:60]!r} -> {result}")
    return 0


def _print_table(table: dict[str, Counter[str]]) -> None:
    print(f"{'task':6} {'n':>4} {'agree':>6} {'missed':>7} {'wrong':>6} {'agreement':>10}")
    for task, c in table.items():
        n = sum(c.values())
        if n:
            print(f"{task:6} {n:4d} {c['agree']:6d} {c['missed']:7d} {c['wrong']:6d} "
                  f"{c['agree'] / n:10.1%}")


if __name__ == "__main__":
    sys.exit(main())
