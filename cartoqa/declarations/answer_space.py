"""The answer space of a request, derived from its declaration and the answers seen.

A request's answer is a JSON object whose schema the task declares
(:attr:`cartoqa.declarations.spec.RequestSpec.answer_schema`). :func:`answer_space` splits that
schema into leaves (one per property path down to a value that is not an object with
declared properties; an object whose keys the schema leaves open, such as MTMF's
feature types, has the keys the answers use) and gives each leaf a kind, from the
schema and from the answers a set of items holds for that request:

``const``
    the schema fixes the value (FRIEDA's ``type``);
``given``
    the item states the value in its strata (RLE's ``unit``): copied, never guessed;
``boolean``
    yes or no;
``enum``
    one of the values the schema lists (FRIEDA's eight directions);
``letter`` / ``letters``
    one option key, or a set of them: every answer seen is among its item's ``options``
    (MFS, MapIQ multiple choice);
``label``
    the text of the option the ``letter`` leaf chooses (MFS's ``label``): follows it;
``integer`` / ``number``
    a count, or a measured value; the space is the range of the values seen;
``order``
    an ordering of the items the question names (a property called ``order``, MapWise
    rankings);
``free``
    anything else (names, region codes, routes, legend ranges, objects without declared
    properties): the space is the distinct values seen (for lists of names, codes or
    numbers: lists of the distinct elements seen, of a length seen), at the same path, in the
    answers of this request and of the same request of the suite's other tasks (MapIQ's
    lists of states of every task, say).

A question form a task adds later is covered as soon as it declares its answer schema:
nothing here names a task.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cartoqa.declarations.registry import request_spec, task_spec

#: The leaf kinds, in the order the docs describe them.
KINDS = ("const", "given", "boolean", "enum", "letter", "letters", "label", "integer",
         "number", "order", "free")

Path = tuple[str, ...]


def canonical(value: Any) -> str:
    """A value as canonical JSON (sorted keys), for counting equal answers.

    Examples
    --------
    >>> canonical({"b": 1, "a": [True]})
    '{"a":[true],"b":1}'
    """
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def get_path(answer: Any, path: Path) -> tuple[bool, Any]:
    """Return ``(found, value)`` at a property path of an answer.

    Examples
    --------
    >>> get_path({"a": {"b": 3}}, ("a", "b"))
    (True, 3)
    >>> get_path({"a": {}}, ("a", "b"))
    (False, None)
    """
    node = answer
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return False, None
        node = node[key]
    return True, node


def set_path(answer: dict[str, Any], path: Path, value: Any) -> None:
    """Set a value at a property path, creating the objects on the way.

    Examples
    --------
    >>> a: dict = {}
    >>> set_path(a, ("x", "y"), 1); a
    {'x': {'y': 1}}
    """
    node = answer
    for key in path[:-1]:
        node = node.setdefault(key, {})
    node[path[-1]] = value


def option_keys(item: Mapping[str, Any]) -> list[str]:
    """The option keys of an item, sorted (``[]`` when it has no options)."""
    options = item.get("options")
    return sorted(str(k) for k in options) if isinstance(options, Mapping) else []


@dataclass(frozen=True)
class Leaf:
    """One leaf of a request's answer.

    Parameters
    ----------
    path : tuple of str
        Property names from the answer's root.
    kind : str
        One of :data:`KINDS`.
    schema : dict
        The leaf's JSON schema.
    values : tuple
        The values seen at this path, one per item that has it (repeats kept).
    """

    path: Path
    kind: str
    schema: Mapping[str, Any]
    values: tuple[Any, ...]

    @property
    def name(self) -> str:
        """The path written with dots (``types.cafe.names``)."""
        return ".".join(self.path)

    def _memo(self, name: str, make: Callable[[], Any]) -> Any:
        """``make()`` once per leaf (a leaf is frozen: its values never change). The
        baselines ask a leaf's distinct values for every item, and each costs a JSON
        dump per value seen: without the memo a table over thousands of items took
        hours (frieda27g)."""
        if name not in self.__dict__:
            self.__dict__[name] = make()  # beside the fields: not compared, not hashed
        return self.__dict__[name]

    def distinct(self) -> list[Any]:
        """The distinct values seen, in first-seen order."""
        return list(self._memo("_distinct", self._distinct))

    def _distinct(self) -> list[Any]:
        seen: dict[str, Any] = {}
        for value in self.values:
            seen.setdefault(canonical(value), value)
        return list(seen.values())

    def elements(self) -> list[Any] | None:
        """The distinct elements of the lists seen at this path (``None`` unless every
        value seen is a list of strings or numbers, and one is not empty)."""
        got = self._memo("_elements", self._elements)
        return None if got is None else list(got)

    def _elements(self) -> list[Any] | None:
        if not self.values or not all(isinstance(v, list) for v in self.values):
            return None
        out: dict[str, Any] = {}
        for value in self.values:
            for element in value:
                if isinstance(element, dict | list) or element is None:
                    return None
                out.setdefault(canonical(element), element)
        return list(out.values()) or None

    def lengths(self) -> list[int]:
        """The distinct lengths of the values seen, ascending (of lists, strings).

        Examples
        --------
        >>> Leaf(("names",), "free", {}, (["A"], ["B", "C"], ["D"])).lengths()
        [1, 2]
        """
        return list(self._memo("_lengths", lambda: sorted({len(v) for v in self.values})))

    def strings(self, without: Any = None) -> list[str]:
        """Every distinct string seen, alone or inside a list, in first-seen order.

        ``without``: one item's own value, taken out once (a string only that item
        answers is left out), so that a baseline's vocabulary is the other items'.

        Examples
        --------
        >>> leaf = Leaf(("roads",), "free", {}, (["A", "B"], ["B", "C"]))
        >>> leaf.strings(), leaf.strings(without=["A", "B"])
        (['A', 'B', 'C'], ['B', 'C'])
        """
        counts: dict[str, int] = {}
        for value in self.values:
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str) and text.strip():
                    counts[text] = counts.get(text, 0) + 1
        for text in without if isinstance(without, list) else [without]:
            if isinstance(text, str) and text in counts:
                counts[text] -= 1
        return [text for text, n in counts.items() if n > 0]

    def is_text(self) -> bool:
        """Whether the leaf holds names or labels: strings (or lists of them) with a
        letter in them, guessed freely (kind ``free``)."""
        return self.kind == "free" and any(any(c.isalpha() for c in s)
                                           for s in self.strings())


@dataclass(frozen=True)
class AnswerSpace:
    """The answer space of one request of one task.

    Parameters
    ----------
    task, request : str
        Which request.
    leaves : tuple of Leaf
        Its leaves, in schema order.
    """

    task: str
    request: str
    leaves: tuple[Leaf, ...]

    def leaf(self, name: str) -> Leaf | None:
        """The leaf at a dotted path, if any."""
        return next((leaf for leaf in self.leaves if leaf.name == name), None)

    def has_text(self) -> bool:
        """Whether an answer holds names or labels (an OCR baseline applies)."""
        return any(leaf.is_text() for leaf in self.leaves)


def _keys_seen(answers: Sequence[Any], path: Path) -> list[str]:
    keys: dict[str, None] = {}
    for answer in answers:
        found, value = get_path(answer, path)
        if found and isinstance(value, Mapping):
            keys.update(dict.fromkeys(str(k) for k in value))
    return list(keys)


def _walk(schema: Mapping[str, Any], path: Path,
          answers: Sequence[Any]) -> Iterable[tuple[Path, str, Mapping[str, Any]]]:
    if "const" in schema:
        yield path, "const", schema
    elif schema.get("type") == "object" and isinstance(schema.get("properties"), Mapping):
        for name, sub in schema["properties"].items():
            yield from _walk(sub, (*path, name), answers)
    elif schema.get("type") == "object" and isinstance(schema.get("additionalProperties"),
                                                        Mapping):
        # keys the schema leaves open (MTMF's feature types): the keys the answers use
        for name in _keys_seen(answers, path):
            yield from _walk(schema["additionalProperties"], (*path, name), answers)
    elif "enum" in schema:
        yield path, "enum", schema
    elif schema.get("type") in ("boolean", "integer", "number"):
        yield path, str(schema["type"]), schema
    else:
        yield path, "free", schema


def _refine(kind: str, path: Path, items: Sequence[Mapping[str, Any]],
            values: list[tuple[Mapping[str, Any], Any]]) -> str:
    if kind != "free" or not values:
        if kind in ("integer", "number", "boolean", "enum") and len(path) == 1 and values \
                and all((item.get("strata") or {}).get(path[0], object()) == value
                        for item, value in values):
            return "given"
        return kind
    if len(path) == 1 and all((item.get("strata") or {}).get(path[0], object()) == value
                              for item, value in values):
        return "given"
    with_options = [(item, value) for item, value in values if option_keys(item)]
    if with_options and len(with_options) == len(values):
        if all(isinstance(v, str) and v in option_keys(i) for i, v in values):
            return "letter"
        if all(isinstance(v, str) and v in [str(t) for t in (i.get("options") or {}).values()]
               for i, v in values):
            return "label"
        if all(isinstance(v, list) and v and all(isinstance(x, str) and x in option_keys(i)
                                                 for x in v) for i, v in values):
            return "letters"
    if path[-1] == "order" and all(isinstance(v, list) for _, v in values):
        return "order"
    return kind


def answer_space(items: Iterable[Mapping[str, Any]], task: str, request: str) -> AnswerSpace:
    """Derive a request's answer space from its declaration and the items' answers.

    Parameters
    ----------
    items : iterable of mapping
        Items; those of other tasks or requests are ignored.
    task, request : str
        The request.

    Returns
    -------
    AnswerSpace
        One leaf per schema path that at least one item's answer holds.

    Raises
    ------
    KeyError
        The task or request is not declared.

    Examples
    --------
    >>> items = [{"task": "stmf", "request": "count", "answer": {"count": n}} for n in (0, 2)]
    >>> space = answer_space(items, "stmf", "count")
    >>> [(leaf.name, leaf.kind, leaf.values) for leaf in space.leaves]
    [('count', 'integer', (0, 2))]
    """
    found = request_spec(task, request)
    if found is None:
        raise KeyError(f"{task}/{request} is not a declared request")
    items = list(items)
    mine = [i for i in items if i.get("task") == task and i.get("request") == request]
    suite = found[0].suite
    kin = [i for i in items if i.get("request") == request and i.get("task") != task
           and (other := task_spec(str(i.get("task")))) is not None and other.suite == suite]
    leaves = []
    answers = [item.get("answer") or {} for item in mine]
    for path, kind, schema in _walk(found[1].answer_schema, (), answers):
        values = []
        for item in mine:
            ok, value = get_path(item.get("answer") or {}, path)
            if ok:
                values.append((item, value))
        if not values and kind != "const":
            continue
        kind = _refine(kind, path, mine, values)
        seen = [v for _, v in values]
        if kind == "free":  # names and labels: the suite's other tasks add theirs
            seen += _kin_values(kin, path, seen)
        leaves.append(Leaf(path, kind, schema, tuple(seen)))
    return AnswerSpace(task, request, tuple(leaves))


def _elements(values: Iterable[Any]) -> set[str]:
    """The canonical elements of the list values (strings and numbers inside lists)."""
    return {canonical(e) for v in values if isinstance(v, list) for e in v
            if not isinstance(e, dict | list)}


def _kin_values(kin: Sequence[Mapping[str, Any]], path: tuple[str, ...],
                seen: Sequence[Any]) -> list[Any]:
    """The values the suite's other tasks answer at ``path`` that widen a free leaf.

    A value of another type is left out, and so is every list value of a task whose
    lists share no element with the request's own: MapIQ's Regional Comparisons list
    zones, its other tasks states, and a zone list widened by state lists made the
    random baseline answer with states (chance 0.066 against about 0.5 for a random set
    of zones; issue 29).

    Examples
    --------
    >>> kin = [{"task": "t2", "answer": {"items": ["TX", "OH"]}},
    ...        {"task": "t3", "answer": {"items": ["West"]}}]
    >>> _kin_values(kin, ("items",), [["South"], ["West", "Midwest"]])
    [['West']]
    >>> _kin_values(kin, ("items",), [["OH"]])
    [['TX', 'OH']]
    """
    own = _elements(seen)
    by_task: dict[str, list[Any]] = {}
    for item in kin:
        ok, value = get_path(item.get("answer") or {}, path)
        if ok and type(value) is type(seen[0]):
            by_task.setdefault(str(item.get("task")), []).append(value)
    out: list[Any] = []
    for values in by_task.values():
        theirs = _elements(values)
        if own and theirs and not own & theirs:
            continue  # lists of another vocabulary (zones against states)
        out += values
    return out


def requests_of(items: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """The declared ``(task, request)`` pairs the items hold, in first-seen order."""
    out: dict[tuple[str, str], None] = {}
    for item in items:
        key = (str(item.get("task")), str(item.get("request")))
        if key not in out and request_spec(*key) is not None:
            out[key] = None
    return list(out)
