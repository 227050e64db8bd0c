"""The blind baselines that never open the image: random, majority, prompt example and
text-only prior.

Each returns ``{item id: response text}``, the response being the guessed answer written
by the request's own ``answer_text`` (the way the prompt asks for it), so the ordinary
parser and scorer read it like a model's reply.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cartoqa.baselines.question import mentioned, numbers_in, prompt_example, question_body
from cartoqa.declarations.answer_space import (
    AnswerSpace,
    Leaf,
    answer_space,
    canonical,
    get_path,
    option_keys,
    requests_of,
    set_path,
)
from cartoqa.declarations.registry import request_spec

Items = Sequence[Mapping[str, Any]]
#: ``choose(leaf, item) -> value``: one leaf's value for one item.
Chooser = Callable[[Leaf, Mapping[str, Any]], Any]

#: The text prior's guess for a number the question does not name (metres, or the unit
#: the item asks for).
DEFAULT_NUMBER = 100.0


def write_response(item: Mapping[str, Any], answer: Mapping[str, Any]) -> str:
    """The answer written as the request's reference response (``""`` if it cannot be).

    Parameters
    ----------
    item : mapping
        The item (its ``task`` and ``request`` name the writer).
    answer : mapping
        An answer of the request's shape.

    Returns
    -------
    str
        The response text.
    """
    found = request_spec(str(item.get("task")), str(item.get("request")))
    if found is None:
        return ""
    try:
        return found[1].answer_text(answer)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return ""  # an incomplete guess: an answer the scorer counts as invalid


def spaces_of(items: Items, extra: Items = ()) -> dict[tuple[str, str], AnswerSpace]:
    """The answer space of every request the items hold (``extra`` items add values)."""
    every = [*items, *extra]
    return {key: answer_space(every, *key) for key in requests_of(items)}


def assemble(space: AnswerSpace, item: Mapping[str, Any], choose: Chooser) -> dict[str, Any]:
    """An answer made of one chosen value per leaf (``const`` and ``given`` filled in)."""
    answer: dict[str, Any] = {}
    options = item.get("options") or {}
    letter = None
    for leaf in space.leaves:
        if leaf.kind == "const":
            value = leaf.schema["const"]
        elif leaf.kind == "given":
            value = (item.get("strata") or {}).get(leaf.path[0])
        elif leaf.kind == "label":
            continue
        else:
            value = choose(leaf, item)
            if leaf.kind == "letter":
                letter = value
        set_path(answer, leaf.path, value)
    for leaf in space.leaves:
        if leaf.kind == "label":
            set_path(answer, leaf.path, str(options.get(letter, "")))
    return answer


def _truth(leaf: Leaf, item: Mapping[str, Any]) -> Any:
    return get_path(item.get("answer") or {}, leaf.path)[1]


def question_stem(item: Mapping[str, Any]) -> str:
    """The id of the question an item asks, the same for each setting it is asked in.

    FRIEDA asks one question twice, alone (``direct``) and among other maps
    (``contextual``): ``frieda_distance-0003-direct`` and ``-contextual`` share the stem
    ``frieda_distance-0003``. Other items are their own stem.

    Examples
    --------
    >>> question_stem({"id": "frieda_within-0002-contextual",
    ...                "strata": {"setting": "contextual"}})
    'frieda_within-0002'
    >>> question_stem({"id": "mml-0004", "strata": {"zoom": 18}})
    'mml-0004'
    """
    ident = str(item.get("id"))
    setting = (item.get("strata") or {}).get("setting")
    suffix = f"-{setting}"
    return ident[: -len(suffix)] if setting and ident.endswith(suffix) else ident


def own_answers(leaf: Leaf, item: Mapping[str, Any],
                twins: Sequence[Mapping[str, Any]] = ()) -> list[Any]:
    """An item's value of a leaf and those of its twins (the same question in another
    setting, :func:`question_stem`), flattened: what a vocabulary taken from the
    dataset's answers must leave out, so that no baseline finds an item's answer
    because its twin gives it."""
    out: list[Any] = []
    for it in (item, *twins):
        value = _truth(leaf, it)
        out.extend(value if isinstance(value, list) else [value])
    return out


def twins_of(items: Items) -> dict[str, list[Mapping[str, Any]]]:
    """Each item's twins: the other items asking its question (:func:`question_stem`)."""
    by_stem: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for item in items:
        by_stem[question_stem(item)].append(item)
    return {str(item["id"]): [t for t in by_stem[question_stem(item)] if t is not item]
            for item in items}


#: Fewest answers of one template whose range the random baseline draws a count from
#: (:func:`integer_ranges`); a template answered less often draws from the request's
#: range (with one or two answers the range would be little more than the truth).
MIN_TEMPLATE_ANSWERS = 8

#: ``(task, request, template, leaf name) -> (least, greatest)`` answer seen.
Ranges = Mapping[tuple[str, str, str, str], tuple[int, int]]


def integer_ranges(items: Items) -> dict[tuple[str, str, str, str], tuple[int, int]]:
    """The range of each integer leaf's answers per question template (pure).

    A blind reader reads the question: asked how many classes a legend has, it guesses
    among the class counts legends have, not among every count the suite asks (0..29 on
    MapWise, pooled over six count templates). The majority is learnt per template
    (:func:`majority_baseline`), so chance is drawn per template too: uniform over the
    least to the greatest answer of the item's template, where the template holds
    :data:`MIN_TEMPLATE_ANSWERS` answers or more (issue 29, balance29e: MapWise count's
    chance read 0.034 against a per-template majority's 0.181).

    Examples
    --------
    >>> items = [{"task": "stmf", "request": "count", "strata": {"template": "t"},
    ...           "answer": {"count": n}} for n in (2, 5, 3, 4, 2, 3, 4, 3)]
    >>> integer_ranges(items)
    {('stmf', 'count', 't', 'count'): (2, 5)}
    >>> integer_ranges(items[:7])
    {}
    """
    seen: dict[tuple[str, str, str, str], list[int]] = defaultdict(list)
    for item in items:
        found = request_spec(str(item.get("task")), str(item.get("request")))
        if found is None:
            continue
        props = (found[1].answer_schema.get("properties") or {})
        for name, schema in props.items():
            value = (item.get("answer") or {}).get(name)
            if isinstance(schema, Mapping) and schema.get("type") == "integer" \
                    and isinstance(value, int) and not isinstance(value, bool):
                seen[(str(item["task"]), str(item["request"]), template_of(item),
                      str(name))].append(value)
    return {key: (min(values), max(values)) for key, values in seen.items()
            if len(values) >= MIN_TEMPLATE_ANSWERS}


#: ``(task, request, template, leaf name) -> (distinct values or list elements, lengths)``.
Vocabularies = Mapping[tuple[str, str, str, str], tuple[list[Any], list[int]]]


def template_vocabularies(items: Items, spaces: Mapping[tuple[str, str], AnswerSpace]
                          ) -> dict[tuple[str, str, str, str], tuple[list[Any], list[int]]]:
    """The answers of each free (name, label, letter-as-text) leaf per question template.

    As with counts (:func:`integer_ranges`), a blind reader reads the question: asked
    which of two outlined areas, A or B, covers the same ground, it answers A or B, not a
    land-use category that another template of the same request answers. So chance draws
    a free leaf's answer among those of the item's own template (the distinct values, or
    the distinct elements of lists, with the list lengths seen), where the template holds
    :data:`MIN_TEMPLATE_ANSWERS` answers or more (issue 29: FRIEDA ``equal`` holds the
    letters of ``same_area`` and the categories of ``area_category`` in one request; its
    chance read 0.059 against a majority letter's 0.475).

    Examples
    --------
    >>> from cartoqa.declarations.answer_space import answer_space
    >>> items = [{"id": str(i), "task": "frieda_equal", "request": "textual",
    ...           "strata": {"template": "same_area"},
    ...           "answer": {"names": ["AB"[i % 2]], "type": "textual"}} for i in range(8)]
    >>> items.append({"id": "9", "task": "frieda_equal", "request": "textual",
    ...               "strata": {"template": "area_category"},
    ...               "answer": {"names": ["park"], "type": "textual"}})
    >>> spaces = {("frieda_equal", "textual"): answer_space(items, "frieda_equal", "textual")}
    >>> template_vocabularies(items, spaces)
    {('frieda_equal', 'textual', 'same_area', 'names'): (['A', 'B'], [1])}
    """
    seen: dict[tuple[str, str, str, str], dict[str, Any]] = defaultdict(dict)
    lengths: dict[tuple[str, str, str, str], set[int]] = defaultdict(set)
    answered: Counter[tuple[str, str, str, str]] = Counter()
    for item in items:
        task, request = str(item.get("task")), str(item.get("request"))
        space = spaces.get((task, request))
        if space is None:
            continue
        for leaf in space.leaves:
            if leaf.kind != "free":
                continue
            found, value = get_path(item.get("answer") or {}, leaf.path)
            if not found or isinstance(value, dict) or value is None:
                continue
            key = (task, request, template_of(item), leaf.name)
            answered[key] += 1
            if isinstance(value, list):
                lengths[key].add(len(value))
                for element in value:
                    seen[key].setdefault(canonical(element), element)
            else:
                seen[key].setdefault(canonical(value), value)
    return {key: (list(values.values()), sorted(lengths[key]))
            for key, values in seen.items()
            if answered[key] >= MIN_TEMPLATE_ANSWERS and values}


def random_choice(rng: random.Random, ranges: Ranges | None = None,
                  vocabularies: Vocabularies | None = None) -> Chooser:
    """Uniform choice over a leaf's space (see docs/baselines.md for each kind);
    ``ranges``: an integer's range per template (:func:`integer_ranges`), and
    ``vocabularies``: a free leaf's answers per template (:func:`template_vocabularies`),
    where known."""

    def choose(leaf: Leaf, item: Mapping[str, Any]) -> Any:
        if leaf.kind == "boolean":
            return rng.choice([True, False])
        if leaf.kind == "enum":
            return rng.choice(list(leaf.schema["enum"]))
        if leaf.kind == "letter":
            return rng.choice(option_keys(item))
        if leaf.kind == "letters":
            keys = option_keys(item)
            size = rng.choice(leaf.lengths())
            return sorted(rng.sample(keys, min(size, len(keys))))
        if leaf.kind == "integer":
            lo, hi = (ranges or {}).get(
                (str(item.get("task")), str(item.get("request")), template_of(item),
                 leaf.name), (min(leaf.values), max(leaf.values)))
            return rng.randint(lo, hi)
        if leaf.kind == "number":
            return round(rng.uniform(min(leaf.values), max(leaf.values)), 1)
        if leaf.kind == "order":
            named = list(_truth(leaf, item) or [])
            rng.shuffle(named)
            return named
        key = (str(item.get("task")), str(item.get("request")), template_of(item), leaf.name)
        own = (vocabularies or {}).get(key)
        elements = leaf.elements()
        if elements is not None:  # a list of names, codes or numbers: drawn element-wise
            if own is not None and own[1]:
                elements, lengths = own
            else:
                lengths = leaf.lengths()
            size = rng.choice(lengths)
            if size <= len(elements):
                return rng.sample(elements, size)
            return [rng.choice(elements) for _ in range(size)]
        return rng.choice(own[0] if own is not None and not own[1] else leaf.distinct())

    return choose


def random_baseline(items: Items, *, seed: int = 0, extra: Items = ()) -> dict[str, str]:
    """Uniform random answers over each request's answer space (a count: over its
    template's range, :func:`integer_ranges`; a free answer: among its template's
    answers, :func:`template_vocabularies`).

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items.
    seed : int
        The random seed (same seed, same answers).
    extra : sequence of mapping
        Items whose answers add to the spaces (a ``--train`` build).

    Returns
    -------
    dict of str to str
        Response per item id.
    """
    rng = random.Random(seed)
    spaces = spaces_of(items, extra)
    every = [*items, *extra]
    choose = random_choice(rng, integer_ranges(every), template_vocabularies(every, spaces))
    out = {}
    for item in items:
        space = spaces.get((str(item.get("task")), str(item.get("request"))))
        if space is not None:
            out[str(item["id"])] = write_response(item, assemble(space, item, choose))
    return out


def template_of(item: Mapping[str, Any]) -> str:
    """The question template an item was written from.

    ``strata.template`` or ``provenance.template`` when the task records one, else
    ``strata.question_type``, else the request.

    Examples
    --------
    >>> template_of({"request": "count", "strata": {"template": "t3"}})
    't3'
    >>> template_of({"request": "count", "strata": {}})
    'count'
    """
    strata = item.get("strata") or {}
    provenance = item.get("provenance") or {}
    for value in (strata.get("template"), provenance.get("template"),
                  strata.get("question_type")):
        if isinstance(value, str) and value:
            return value
    return str(item.get("request"))


def _resolved(space: AnswerSpace, item: Mapping[str, Any]) -> str:
    """The item's answer with option letters replaced by their option texts and
    measured numbers left out, as canonical JSON (what the majority counts)."""
    options = item.get("options") or {}
    answer: dict[str, Any] = {}
    for leaf in space.leaves:
        found, value = get_path(item.get("answer") or {}, leaf.path)
        if not found or leaf.kind in ("number", "const", "given", "label"):
            continue
        if leaf.kind == "letter":
            value = ["option", str(options.get(value, value))]
        elif leaf.kind == "letters":
            value = ["options", sorted(str(options.get(v, v)) for v in value)]
        set_path(answer, leaf.path, value)
    return canonical(answer)


class _Group:
    """What the majority learns of one (task, request, template)."""

    def __init__(self) -> None:
        self.answers: Counter[str] = Counter()
        self.numbers: dict[str, list[float]] = defaultdict(list)
        self.letters: dict[str, Counter[str]] = defaultdict(Counter)

    def add(self, space: AnswerSpace, item: Mapping[str, Any], sign: int = 1) -> None:
        self.answers[_resolved(space, item)] += sign
        for leaf in space.leaves:
            found, value = get_path(item.get("answer") or {}, leaf.path)
            if not found:
                continue
            if leaf.kind == "number":
                if sign > 0:
                    self.numbers[leaf.name].append(float(value))
                else:
                    self.numbers[leaf.name].remove(float(value))
            elif leaf.kind in ("letter", "letters"):
                self.letters[leaf.name][canonical(value)] += sign

    def top_answer(self) -> dict[str, Any] | None:
        best = _top(self.answers)
        return None if best is None else dict(_load(best))


def _top(counter: Counter[str]) -> str | None:
    live = {k: n for k, n in counter.items() if n > 0}
    if not live:
        return None
    most = max(live.values())
    return min(k for k, n in live.items() if n == most)  # ties: the first in JSON order


def _load(text: str) -> Any:
    import json

    return json.loads(text)


def _majority_answer(space: AnswerSpace, item: Mapping[str, Any],
                     groups: Sequence[_Group]) -> dict[str, Any] | None:
    """The first group (most specific) that learned an answer decides."""
    for group in groups:
        top = group.top_answer()
        if top is None:
            continue
        options = {str(v): str(k) for k, v in (item.get("options") or {}).items()}

        def choose(leaf: Leaf, it: Mapping[str, Any], top: Any = top,
                   group: _Group = group, options: dict[str, str] = options) -> Any:
            if leaf.kind == "number":
                values = group.numbers.get(leaf.name) or []
                return round(statistics.median(values), 1) if values else DEFAULT_NUMBER
            found, value = get_path(top, leaf.path)
            if leaf.kind == "letter":
                if found and value[1] in options:
                    return options[value[1]]
                best = _top(group.letters[leaf.name])
                return _load(best) if best else option_keys(it)[0]
            if leaf.kind == "letters":
                if found and all(text in options for text in value[1]):
                    return sorted(options[text] for text in value[1])
                best = _top(group.letters[leaf.name])
                return _load(best) if best else option_keys(it)[:1]
            return value

        return assemble(space, item, choose)
    return None


def majority_baseline(items: Items, train: Items | None = None) -> dict[str, str]:
    """The most frequent answer per task, request and template.

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items (answered).
    train : sequence of mapping, optional
        Another build (another seed of the same extract) to learn from. Without it each
        item is answered from all the other items of the dataset (leave-one-out), so
        that no item is answered from its own truth.

    Returns
    -------
    dict of str to str
        Response per item id (an item whose request the training items never ask gets
        none).

    Notes
    -----
    Option letters are counted by their option text (so "None of the above" is one
    answer whatever its letter) and mapped back to the item's own letter, or to the
    most frequent letter when the item has no such option; measured numbers (lengths,
    distances) take the median; the template is :func:`template_of`, falling back to
    the request when the template was never seen.
    """
    source = list(train) if train is not None else list(items)
    spaces = spaces_of(items, source)
    by_template: dict[tuple[str, str, str], _Group] = defaultdict(_Group)
    by_request: dict[tuple[str, str], _Group] = defaultdict(_Group)
    for item in source:
        key = (str(item.get("task")), str(item.get("request")))
        if key in spaces:
            by_template[(*key, template_of(item))].add(spaces[key], item)
            by_request[key].add(spaces[key], item)
    out = {}
    for item in items:
        key = (str(item.get("task")), str(item.get("request")))
        space = spaces.get(key)
        if space is None:
            continue
        groups = [by_template[(*key, template_of(item))], by_request[key]]
        if train is None:
            for group in groups:
                group.add(space, item, -1)
        answer = _majority_answer(space, item, groups)
        if train is None:
            for group in groups:
                group.add(space, item, +1)
        if answer is not None:
            out[str(item["id"])] = write_response(item, answer)
    return out


def prompt_example_baseline(items: Items) -> dict[str, str]:
    """The prompt's own example answer copied as the response (``""`` when the prompt
    shows none)."""
    return {str(item["id"]): prompt_example(item) or "" for item in items}


def _most_words(item: Mapping[str, Any]) -> str:
    options = item.get("options") or {}
    keys = option_keys(item)
    return max(keys, key=lambda k: (len(str(options[k]).split()), len(str(options[k])),
                                    -keys.index(k)))


def _typical_length(leaf: Leaf) -> int:
    lengths = [len(v) for v in leaf.values if isinstance(v, list)]
    return max(1, round(statistics.median(lengths))) if lengths else 1


def text_prior_choice(leaf: Leaf, item: Mapping[str, Any],
                      twins: Sequence[Mapping[str, Any]] = ()) -> Any:
    """A leaf's value guessed from the question text alone (docs/baselines.md); names
    come from the other questions' answers (not the item's nor its ``twins``')."""
    body = question_body(item)
    if leaf.kind == "boolean":
        return True
    if leaf.kind == "enum":
        named = mentioned(body, [str(v) for v in leaf.schema["enum"]])
        return named[0] if named else leaf.schema["enum"][0]
    if leaf.kind == "letter":
        return _most_words(item)
    if leaf.kind == "letters":
        return [_most_words(item)]
    if leaf.kind == "integer":
        return 0
    if leaf.kind == "number":
        numbers = [n for n in numbers_in(body) if n > 0]
        return numbers[0] if numbers else DEFAULT_NUMBER
    if leaf.kind == "order":
        return mentioned(body, [str(v) for v in _truth(leaf, item) or []])
    named = mentioned(body, leaf.strings(without=own_answers(leaf, item, twins)))
    example = leaf.values[0] if leaf.values else ""
    if isinstance(example, list):
        if example and not isinstance(example[0], str):
            numbers = numbers_in(body)
            return numbers[:len(example)] or [DEFAULT_NUMBER]
        return named[:_typical_length(leaf)]
    if isinstance(example, str):
        return named[0] if named else ""
    return example if not isinstance(example, Mapping) else {}


def text_prior_baseline(items: Items, extra: Items = ()) -> dict[str, str]:
    """Answers guessed from the question text alone.

    Per leaf kind: yes; the option with the most words; the first of a schema's values
    (a direction) the question names, else its first; a count of 0; the first number
    the question names, else :data:`DEFAULT_NUMBER`; names, regions and labels: those
    of the answer space the question names, first named first; an ordering: the
    question's items in the order it names them.

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items.
    extra : sequence of mapping
        Items whose answers add to the spaces (a ``--train`` build).

    Returns
    -------
    dict of str to str
        Response per item id.
    """
    spaces = spaces_of(items, extra)
    twins = twins_of(items)
    out = {}
    for item in items:
        space = spaces.get((str(item.get("task")), str(item.get("request"))))
        if space is not None:
            mine = twins[str(item["id"])]

            def choose(leaf: Leaf, it: Mapping[str, Any],
                       mine: list[Mapping[str, Any]] = mine) -> Any:
                return text_prior_choice(leaf, it, mine)

            out[str(item["id"])] = write_response(item, assemble(space, item, choose))
    return out
