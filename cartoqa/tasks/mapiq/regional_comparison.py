"""MapIQ task 6, Regional Comparisons (global): does one zone generally have higher
classes than another?

"Generally higher" is a higher mean class of the zone's states; pairs whose means
differ by less than :data:`MIN_GAP` (0.75) classes are never asked: at 0.5 a pair rests
on a few states one class apart, too little for "generally higher".
Binary: is zone A generally higher (lower) than zone B? MCQ: which of the offered zones
are generally higher (lower, as a quota says) than zone A? It offers two or three zones
whose answer is clear (clearly higher, or not higher at all), at least one of them wrong,
and "None of the above"; the answer is drawn first (:func:`mcq_plan`: its letter, NOTA
at a uniform guess's rate, and the zone it names, from quotas over consecutive maps).
List: the zones generally higher (or lower, as the quota says) than zone A, asked when
every other zone is clearly beyond A that way or not beyond it at all. The MCQ never
asks the list's question again.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations

from cartoqa.tasks.common.base import slot_rng
from cartoqa.tasks.mapiq.common import (
    BINARY_STRATA,
    LETTERS,
    NOTA,
    MapContext,
    Question,
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


#: What one constant blind answer earns above a uniform guess, summed over the RC MCQs
#: of the earlier maps (:func:`mcq_balance`): ``letter:a`` ... ``letter:d``, ``text:<zone>``
#: and ``text:NOTA`` (an option's text answered wherever it is offered), ``direction:higher``
#: and ``direction:lower``. :func:`mcq_plan` keeps every one of them near zero.
Balance = dict[str, float]

#: Weight of the direction (higher / lower) in the balance: half as much as a letter.
DIRECTION_WEIGHT = 0.5

#: What offering two zones instead of three adds to an MCQ's cost in :func:`mcq_plan`: a
#: uniform guess earns 1/3 there, not 1/4, so three zones are offered wherever they
#: keep the balance nearly as well (measured on the default plan: 0.5 left 233 of 333
#: MCQs with two zones, 6 left 199, 20 left 174; strict preference made NOTA, always
#: possible with three wrong zones, the answer of 214).
TWO_ZONE_COST = 10.0


def _constants(options: dict[str, str], letters: list[str], word: str) -> Balance:
    """What each constant answer earns on one MCQ above a uniform guess (``1 / n`` of its
    ``n`` letters): F1 ``2 / (1 + k)`` where it names one of ``k`` correct options, else 0.

    Examples
    --------
    >>> opts = {"a": "West zone", "b": "South zone", "c": NOTA}
    >>> sorted(_constants(opts, ["b"], "higher").items())  # doctest: +NORMALIZE_WHITESPACE
    [('direction:higher', 0.5), ('direction:lower', -0.5), ('letter:a', -0.333...),
     ('letter:b', 0.666...), ('letter:c', -0.333...), ('text:NOTA', -0.333...),
     ('text:South', 0.666...), ('text:West', -0.333...)]
    """
    fair = 1 / len(options)
    hit = 2 / (1 + len(letters))
    out: Balance = {}
    for key, text in options.items():
        gain = (hit if key in letters else 0.0) - fair
        out[f"letter:{key}"] = gain
        out["text:" + ("NOTA" if text == NOTA else text.removesuffix(" zone"))] = gain
    other = "lower" if word == "higher" else "higher"
    out[f"direction:{word}"] = DIRECTION_WEIGHT
    out[f"direction:{other}"] = -DIRECTION_WEIGHT
    return out


def mcq_balance(before: Balance, options: dict[str, str], letters: list[str],
                word: str) -> Balance:
    """The running balance after one more RC MCQ.

    Examples
    --------
    >>> opts = {"a": "West zone", "b": "South zone", "c": NOTA}
    >>> after = mcq_balance({}, opts, ["b"], "higher")
    >>> after = mcq_balance(after, {"a": "South zone", "b": "West zone", "c": NOTA},
    ...                     ["a"], "lower")
    >>> round(after["text:South"], 3), round(after["letter:b"], 3), after["direction:lower"]
    (1.333, 0.333, 0.0)
    """
    out = dict(before)
    for key, gain in _constants(options, letters, word).items():
        out[key] = out.get(key, 0.0) + gain
    return out


def mcq_shapes(mean: dict[str, float], word: str, z: str, size: int
               ) -> list[tuple[list[str], list[str]]]:
    """The offered zones of every MCQ "which zones are generally ``word`` than ``z``?"
    offering ``size`` zones: (correct zones, wrong zones), zones whose answer is clear
    (:func:`decided`), one of them correct or none (NOTA). With ``size`` 1 (a map of
    two zones, from a user's table) the one zone may be the answer.

    One correct option at most: an answer of two letters makes the random baseline
    (and any reader guessing) draw two-letter answers too, half of them beside NOTA,
    which score 0, so that chance fell to 0.22-0.24 while a constant single letter
    still earned a uniform guess's 1/3 or 1/4 (issue 29).

    Examples
    --------
    >>> m = {"West": 1.0, "Midwest": 1.5, "Northeast": 1.2, "South": 3.0}
    >>> mcq_shapes(m, "higher", "Midwest", 2)
    [([], ['West', 'Northeast']), (['South'], ['West']), (['South'], ['Northeast'])]
    >>> mcq_shapes(m, "higher", "Midwest", 3)
    [(['South'], ['West', 'Northeast'])]
    >>> mcq_shapes(m, "higher", "West", 2)  # South alone is clear: nothing to offer
    []
    >>> mcq_shapes(m, "higher", "West", 1)
    [(['South'], [])]
    """
    yes, no = decided(mean, z, word)
    out: list[tuple[list[str], list[str]]] = []
    if len(no) >= size:
        out += [([], list(wrong)) for wrong in combinations(no, size)]
    if len(no) >= size - 1:
        out += [([t], list(wrong)) for t in yes for wrong in combinations(no, size - 1)]
    return out


def mcq_plan(ctx: MapContext, mean: dict[str, float], before: Balance | None = None,
             exclude: tuple[str, str] | None = None
             ) -> tuple[dict[str, str], list[str], str, str] | None:
    """The Regional Comparisons MCQ of a map, answer first.

    Every MCQ the map allows is considered: both directions, every asked zone, every
    choice of three or two clear zones to offer (:func:`mcq_shapes`; two cost
    :data:`TWO_ZONE_COST` more), in every order, NOTA last. The one kept is the one after
    which the constant blind answers of all the RC MCQs so far (``before``,
    :func:`mcq_balance`: each letter, each option's text, NOTA, the direction) earn
    least above a uniform guess: the sum of their squared excesses, ties broken by a
    generator seeded with the map's slot. So the correct zone goes to the letter given
    least so far, NOTA is the answer about as often as a uniform guess names it, and a
    zone that has often been the answer (the South, standing apart on many variables:
    72 answers of the 161 MCQs offering it in balance29e's default build, the
    majority's answer, F1 0.431 against chance 0.223) is offered as a wrong option.
    ``exclude``, the list's (direction, zone), is never asked again.

    Returns
    -------
    (options, letters, zone, direction) or None
        ``None`` where the map allows no MCQ (no clear zone to offer but in the list's
        question).
    """
    before = before or {}
    rng = slot_rng(ctx.seed, "mapiq-rc-mcq", ctx.slot)
    best: list[tuple[dict[str, str], list[str], str, str]] = []
    best_cost = math.inf
    # one zone and NOTA only where no zone has two to offer (a table of two zones)
    for size in (3, 2, 1):
        if size == 1 and best:
            break
        for word in ("higher", "lower"):
            for z in mean:
                if exclude == (word, z):
                    continue
                for right, wrong in mcq_shapes(mean, word, z, size):
                    for order in permutations(right + wrong):
                        options = {LETTERS[i]: f"{o} zone" for i, o in enumerate(order)}
                        options[LETTERS[size]] = NOTA
                        letters = [LETTERS[i] for i, o in enumerate(order) if o in right] \
                            or [LETTERS[size]]
                        cost = TWO_ZONE_COST if size == 2 else 0.0
                        for key, gain in _constants(options, letters, word).items():
                            old = before.get(key, 0.0)
                            cost += max(0.0, old + gain) ** 2 - max(0.0, old) ** 2
                        if cost < best_cost - 1e-9:
                            best, best_cost = [], cost
                        if cost <= best_cost + 1e-9:
                            best.append((options, letters, z, word))
    return pick(rng, best) if best else None


def mcq_history(contexts: Sequence[MapContext]) -> list[Balance]:
    """The balance before each of consecutive maps' RC MCQs (``contexts`` in slot order,
    from the first slot of the build): what the builder replays so that every slot, built
    alone, resumed or in another worker, sees the same earlier MCQs."""
    out: list[Balance] = []
    balance: Balance = {}
    for ctx in contexts:
        out.append(balance)
        balance = mcq_step(ctx, balance)
    return out


def mcq_step(ctx: MapContext, before: Balance) -> Balance:
    """The balance after one map's RC MCQ (unchanged where it asks none)."""
    zones = ctx.zones()
    mean = {z: zone_mean_class(ctx.classes, ctx.zoning, z) for z in zones}
    plan = mcq_plan(ctx, mean, before, list_question(ctx, mean))
    if plan is None:
        return before
    options, letters, _, word = plan
    return mcq_balance(before, options, letters, word)


def list_question(ctx: MapContext, mean: dict[str, float]) -> tuple[str, str] | None:
    """The list's (direction, zone): the quota names the direction (higher or lower);
    the asked zone is one whose answer is clear: every other zone clearly beyond it that
    way, or not beyond it at all, and at least one clearly beyond (seeded choice)."""
    rng = slot_rng(ctx.seed, "mapiq-rc-list", ctx.slot)
    zones = list(mean)
    want = "higher" if quota(ctx, "mapiq_rc", "list", BINARY_STRATA) < 0.5 else "lower"
    for word in (want, "lower" if want == "higher" else "higher"):
        fits = [z for z in zones if decided(mean, z, word)[0]
                and sum(map(len, decided(mean, z, word))) == len(zones) - 1]
        if fits:
            return word, pick(rng, fits)
    return None


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

    # the list is chosen before the MCQ (asked after it): the MCQ never asks it again
    listed = list_question(ctx, mean)
    plan = mcq_plan(ctx, mean, ctx.rc_before, listed)
    if plan is not None:
        options, letters, z, mcq_word = plan
        out.append(Question(
            "mcq", "global",
            with_format(f"Which of the following zones generally have a {mcq_word} "
                        f"attribute class than the {z} zone?", "mcq", options),
            options, {"letters": letters}, everyone, needs_zones=True,
            details={"zone": z, "direction": mcq_word}))
    else:  # nothing to offer but the list's question
        some = any(mcq_shapes(mean, w, z, 1) for w in ("higher", "lower") for z in zones)
        rejected["rc_mcq_same_as_list" if some else "rc_mcq_all_correct"] += 1
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
