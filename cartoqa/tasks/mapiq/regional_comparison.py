"""MapIQ task 6, Regional Comparisons (global): does one zone generally have higher
classes than another?

"Generally higher" is a higher mean class of the zone's states; pairs whose means
differ by less than :data:`MIN_GAP` (0.75) classes are never asked: at 0.5 a pair rests
on a few states one class apart, too little for "generally higher".
Binary: is zone A generally higher (lower) than zone B? MCQ: which zones are generally
higher (lower, as a quota says) than zone A (offered: the zones clearly higher and those
not higher at all; "None of the above" on 1/6 of the maps, :data:`NOTA_SHARE`)?
List: the zones generally higher (or lower, as the quota says) than zone A, asked when
every other zone is clearly beyond A that way or not beyond it at all. The MCQ never
asks the list's question again (a list "higher than A" keeps A out of an MCQ "higher"), and
never asks about a zone whose options are all correct (a map without another zone asks no
MCQ).
"""

from __future__ import annotations

import random
from collections import Counter

from cartoqa.tasks.mapiq.common import (
    BINARY_STRATA,
    MapContext,
    Question,
    correct_count,
    mcq,
    pick,
    quota,
    with_format,
)
from cartoqa.tasks.mapiq.requests import mapiq_spec
from groundtruth.thematic.zones import zone_mean_class

#: The scales of its questions (MapIQ's local / global).
SCALES: tuple[str, ...] = ("global",)

SPEC = mapiq_spec("mapiq_rc", "Regional Comparisons", ("binary", "mcq", "list"),
                  "MapIQ Regional Comparisons: which zone is generally higher.")

#: Smallest difference of mean classes that a question may rest on.
MIN_GAP = 0.75

#: Share of the maps whose MCQ the quota asks to answer "None of the above" (2 strata of
#: 12). A uniform guess's share, 1 / (n + 1) per MCQ of n zones (1/4 to 1/2), left NOTA
#: the answer of 123 of 333 MCQs of the default build with the NOTAs a map forces (the
#: top zone offers nothing higher), and NOTA, the longest option, is what the majority
#: and the text prior answer (0.37 against chance 0.18; issue 29).
NOTA_SHARE = 1 / 6


def decided(mean: dict[str, float], zone: str, word: str) -> tuple[list[str], list[str]]:
    """The other zones whose answer to "generally ``word`` than ``zone``?" is clear.

    Returns
    -------
    (yes, no)
        Zones at least :data:`MIN_GAP` beyond ``zone`` in that direction, and zones not
        beyond it at all (mean class on the other side or equal), in the given order;
        zones a little beyond it (less than the gap) are in neither.

    Examples
    --------
    >>> m = {"West": 1.2, "Midwest": 1.5, "Northeast": 1.0, "South": 3.0}
    >>> decided(m, "Midwest", "higher")
    (['South'], ['West', 'Northeast'])
    >>> decided(m, "West", "higher")
    (['South'], ['Northeast'])
    >>> decided(m, "South", "lower")
    (['West', 'Midwest', 'Northeast'], [])
    """
    sign = 1.0 if word == "higher" else -1.0
    yes = [o for o in mean if o != zone and sign * (mean[o] - mean[zone]) >= MIN_GAP]
    no = [o for o in mean if o != zone and sign * (mean[o] - mean[zone]) <= 0]
    return yes, no


def make_questions(ctx: MapContext, rng: random.Random, rejected: Counter[str]) -> list[Question]:
    """The three Regional Comparison questions about one map."""
    zones = ctx.zones()
    mean = {z: zone_mean_class(ctx.classes, ctx.zoning, z) for z in zones}
    out: list[Question] = []
    clear = [(a, b) for a in zones for b in zones if a != b and abs(mean[a] - mean[b]) >= MIN_GAP]
    everyone = sorted(ctx.classes)
    if not clear:
        rejected["rc_zones_too_close"] += 3
        return out
    # The quota says TRUE or FALSE; the word (higher / lower) is the one that gives it.
    a, b = pick(rng, clear)
    asked_true = quota(ctx, "mapiq_rc", "binary", BINARY_STRATA) < 0.5
    higher = (mean[a] > mean[b]) == asked_true
    word = "higher" if higher else "lower"
    out.append(Question(
        "binary", "global",
        with_format(f"Does the {a} zone generally have a {word} attribute class than the {b} "
                    "zone?", "binary"),
        None, {"value": mean[a] > mean[b] if higher else mean[a] < mean[b]}, everyone,
        needs_zones=True, details={"zones": [a, b], "direction": word}))

    # List (chosen before the MCQ, asked after it): the quota names the direction (higher
    # or lower); the asked zone is one whose answer is clear: every other zone clearly
    # beyond it that way, or not beyond it at all, and at least one clearly beyond.
    # A list "higher than Z" takes Z out of an MCQ "higher than" (below): where the MCQ's
    # quota asks for a correct option and Z is the only zone with a zone beyond it, that
    # would force the MCQ to answer NOTA (28 of 333 MCQs of the default build), so such
    # a Z is listed only when no other list fits.
    target = quota(ctx, "mapiq_rc", "mcq", 12)
    nota_wanted = target >= 1 - NOTA_SHARE
    # the MCQ asks "higher" or "lower" (a quota: half each), as the binary and the list
    # do: asked "higher" only, "South zone" alone answered 71 of 333 MCQs of the default
    # build (87 with NOTA at 1/6), the South standing apart, high, on many variables
    mcq_word = "higher" if quota(ctx, "mapiq_rc", "mcq_direction", BINARY_STRATA) < 0.5 \
        else "lower"
    has_beyond = {z for z in zones if decided(mean, z, mcq_word)[0]}
    want = "higher" if quota(ctx, "mapiq_rc", "list", BINARY_STRATA) < 0.5 else "lower"
    listed = None
    every_fit: list[tuple[str, list[str]]] = []
    for word in (want, "lower" if want == "higher" else "higher"):
        fits = [z for z in zones if decided(mean, z, word)[0]
                and sum(map(len, decided(mean, z, word))) == len(zones) - 1]
        every_fit.append((word, fits))
        if word == mcq_word and not nota_wanted:
            fits = [z for z in fits if has_beyond - {z}]
        if fits:
            listed = word, pick(rng, fits)
            break
    else:
        fallback = [(word, fits) for word, fits in every_fit if fits]
        if fallback:
            listed = fallback[0][0], pick(rng, fallback[0][1])

    # MCQ: "which zones are generally higher than Z?" offers every zone whose answer is
    # clear: clearly higher (correct) or not higher at all (a mean class no higher than
    # Z's: wrong). A zone a little higher (less than MIN_GAP) is neither, so it is left
    # out. Zones offering the most options come first (on crime maps, where only the
    # South stands apart, the top zone of the other three offers all three); the quota
    # names the letter, NOTA (none of the options is higher) on :data:`NOTA_SHARE` of
    # the maps. Never the list's question again: a list "higher than Z" takes Z out of
    # the MCQ (its correct options would be the list; 87 of 249 maps of the default
    # build asked it twice).
    offer = {z: decided(mean, z, mcq_word) for z in zones}
    askable = [z for z in zones  # at least one option clearly apart from Z
               if any(abs(mean[o] - mean[z]) >= MIN_GAP for o in offer[z][0] + offer[z][1])]
    same_as_list = listed is not None and listed[0] == mcq_word and listed[1] in askable
    if same_as_list:
        askable.remove(listed[1])  # type: ignore[index]
    # A zone whose every option is correct (the lowest zone when the others are all
    # clearly above it) answers "all of them" (a, b, c, or a alone on a one-zone MCQ,
    # whatever the quota), and "all offered zones" then earns F1 0.5 to 1 on every
    # MCQ that is not NOTA. Preferring a zone that offers a wrong option too still asked
    # such zones where no other fits: "all offered zones" answered 119 of the 333 MCQs of
    # the default build's questions and the majority learnt it (F1 0.42 against chance
    # 0.21, balance29d). Such a zone is never asked now: a map where every askable zone
    # is one asks no MCQ (``rc_mcq_all_correct``; issue 29, balance29e).
    usable = [z for z in askable if not offer[z][0] or offer[z][1]]
    if not nota_wanted:  # nor is NOTA asked in their place: the text prior's answer
        usable = [z for z in usable if offer[z][0]]
    if usable:
        size = {z: len(offer[z][0]) + len(offer[z][1]) for z in usable}
        fitting = [z for z in usable if nota_wanted == (not offer[z][0])]
        pool = fitting or usable
        pool = [z for z in pool if size[z] == max(size[y] for y in pool)]
        # All options are shown, so the zone fixes how many are correct: that number is
        # drawn as for the other MCQs (mostly one), among the numbers the pool offers.
        counts = sorted({len(offer[z][0]) for z in pool})
        if len(counts) > 1 and 0 not in counts:
            k = counts[0] if len(counts) == 1 else correct_count(rng, counts[0], counts[-1])
            pool = [z for z in pool if len(offer[z][0]) == k] or pool
        z = pick(rng, pool)
        above, below = ([f"{o} zone" for o in group] for group in offer[z])
        options, letters = mcq(rng, above, below, n=len(above) + len(below), target=target)
        out.append(Question(
            "mcq", "global",
            with_format(f"Which of the following zones generally have a {mcq_word} "
                        f"attribute class than the {z} zone?", "mcq", options),
            options, {"letters": letters}, everyone, needs_zones=True,
            details={"zone": z, "direction": mcq_word}))
    else:
        rejected["rc_mcq_all_correct" if askable
                 else "rc_mcq_same_as_list" if same_as_list
                 else "rc_mcq_zones_too_close"] += 1
    if listed is not None:
        word, z = listed
        out.append(Question(
            "list", "global",
            with_format(f"List all zones that generally have a {word} attribute class than "
                        f"the {z} zone.", "list", list_hint="Use zone names."),
            None, {"items": decided(mean, z, word)[0]}, everyone,
            needs_zones=True, details={"zone": z, "direction": word}))
    else:
        rejected["rc_list_zones_too_close"] += 1
    return out
