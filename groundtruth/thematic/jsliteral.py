"""Read a TopoJSON topology that a bundled JavaScript file holds as object literals.

npm ``react-datamaps-india`` (MIT) ships no ``.json``: its build
(``dist/react-datamaps-india.js``) declares the topology as JavaScript constants, e.g.::

    const Fr = "Topology", Wr = { india: { type: "GeometryCollection", ... } }, ...
    ... Hr = [ [ [...], ... ] ], zr = { scale: [...], translate: [...] }, Ht = {
      type: Fr,
      objects: Wr,
      arcs: Hr,
      transform: zr
    };

The minifier renames the constants from release to release, so they are found by shape:
the object literal whose keys are ``type``, ``objects``, ``arcs`` (and ``transform``)
names the other constants, and each of those is read with a small parser of JSON-like
literals (unquoted keys, double- or single-quoted strings, numbers, ``null``, ``true``,
``false``). Nothing is evaluated. Pure functions: text in, a TopoJSON ``dict`` out.
"""

from __future__ import annotations

import re
from typing import Any

from groundtruth.errors import GroundTruthError

_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<punct>[{}\[\],:])
  | (?P<string>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<number>-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<name>[A-Za-z_$][\w$]*)
""", re.VERBOSE | re.DOTALL)

_CONSTANTS = {"null": None, "true": True, "false": False}

#: The assembling literal: ``NAME = { type: A, objects: B, arcs: C[, transform: D] }``.
_ASSEMBLY = re.compile(
    r"\{\s*type\s*:\s*(?P<type>[A-Za-z_$][\w$]*|\"Topology\")\s*,"
    r"\s*objects\s*:\s*(?P<objects>[A-Za-z_$][\w$]*)\s*,"
    r"\s*arcs\s*:\s*(?P<arcs>[A-Za-z_$][\w$]*)\s*"
    r"(?:,\s*transform\s*:\s*(?P<transform>[A-Za-z_$][\w$]*)\s*)?,?\s*\}")


def _unquote(token: str) -> str:
    body = token[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def parse_literal(text: str, start: int = 0) -> tuple[Any, int]:
    """Parse one JSON-like JavaScript literal at ``text[start:]``.

    Parameters
    ----------
    text : str
        Source text.
    start : int
        Where the literal begins (white space before it is skipped).

    Returns
    -------
    (value, end)
        The value (dicts, lists, str, int, float, None, bool) and the index after it.

    Raises
    ------
    GroundTruthError
        On anything that is not such a literal (a variable, a call, an expression).

    Examples
    --------
    >>> parse_literal('{ a: [1, -2.5e1, "x"], "b": null, c: { d: true } }')[0]
    {'a': [1, -25.0, 'x'], 'b': None, 'c': {'d': True}}
    >>> parse_literal("x = [1, 2,], y", 4)
    ([1, 2], 11)
    """
    pos = start

    def token() -> tuple[str, str]:
        nonlocal pos
        while True:
            m = _TOKEN.match(text, pos)
            if m is None:
                raise GroundTruthError(f"unexpected text at {pos}: {text[pos:pos + 20]!r}",
                                       "the file is not the expected JavaScript build")
            pos = m.end()
            if m.lastgroup != "ws":
                return str(m.lastgroup), m.group()

    def value(kind: str, tok: str) -> Any:
        if kind == "string":
            return _unquote(tok)
        if kind == "number":
            return float(tok) if any(c in tok for c in ".eE") else int(tok)
        if kind == "name" and tok in _CONSTANTS:
            return _CONSTANTS[tok]
        if tok == "[":
            out: list[Any] = []
            while True:
                k, t = token()
                if t == "]":
                    return out
                out.append(value(k, t))
                k, t = token()
                if t == "]":
                    return out
                if t != ",":
                    raise GroundTruthError(f"expected ',' or ']' at {pos}, got {t!r}",
                                           "the file is not the expected JavaScript build")
        if tok == "{":
            obj: dict[str, Any] = {}
            while True:
                k, t = token()
                if t == "}":
                    return obj
                if k not in ("name", "string", "number"):
                    raise GroundTruthError(f"expected a key at {pos}, got {t!r}",
                                           "the file is not the expected JavaScript build")
                key = _unquote(t) if k == "string" else t
                if token()[1] != ":":
                    raise GroundTruthError(f"expected ':' at {pos}",
                                           "the file is not the expected JavaScript build")
                obj[key] = value(*token())
                k, t = token()
                if t == "}":
                    return obj
                if t != ",":
                    raise GroundTruthError(f"expected ',' or '}}' at {pos}, got {t!r}",
                                           "the file is not the expected JavaScript build")
        raise GroundTruthError(f"not a literal at {pos}: {tok!r}",
                               "the file is not the expected JavaScript build")

    result = value(*token())
    return result, pos


def _constant(text: str, name: str) -> Any:
    """The literal assigned to constant ``name`` (``name = <literal>``, once)."""
    hits = [m.end() for m in re.finditer(rf"(?<![\w$.]){re.escape(name)}\s*=(?!=)", text)]
    if len(hits) != 1:
        raise GroundTruthError(f"constant {name} is assigned {len(hits)} times, not once",
                               "the file is not the expected JavaScript build")
    return parse_literal(text, hits[0])[0]


def topology_from_js(text: str) -> dict[str, Any]:
    """The one TopoJSON topology a JavaScript build declares as literals.

    Parameters
    ----------
    text : str
        The JavaScript source.

    Returns
    -------
    dict
        ``{"type": "Topology", "objects": ..., "arcs": ..., ["transform": ...]}``.

    Raises
    ------
    GroundTruthError
        When there is not exactly one such topology, or it is not well formed.

    Examples
    --------
    >>> js = ('const T = "Topology", O = { a: { type: "GeometryCollection", geometries: '
    ...       '[{ type: "Polygon", id: "X", arcs: [[0]] }] } }, A = [[[0, 0], [1, 0], '
    ...       '[0, 1], [-1, -1]]], Z = { scale: [1, 1], translate: [0, 0] }, '
    ...       'M = { type: T, objects: O, arcs: A, transform: Z };')
    >>> topo = topology_from_js(js)
    >>> topo["type"], sorted(topo["objects"]), len(topo["arcs"]), topo["transform"]["scale"]
    ('Topology', ['a'], 1, [1, 1])
    """
    found = list(_ASSEMBLY.finditer(text))
    if len(found) != 1:
        raise GroundTruthError(f"found {len(found)} TopoJSON topologies, expected one",
                               "the file is not the expected JavaScript build")
    m = found[0]
    kind = m.group("type")
    if kind != '"Topology"' and _constant(text, kind) != "Topology":
        raise GroundTruthError("the topology's type is not 'Topology'",
                               "the file is not the expected JavaScript build")
    topo: dict[str, Any] = {"type": "Topology", "objects": _constant(text, m.group("objects")),
                            "arcs": _constant(text, m.group("arcs"))}
    if m.group("transform"):
        topo["transform"] = _constant(text, m.group("transform"))
    objects, arcs = topo["objects"], topo["arcs"]
    if not isinstance(objects, dict) or not objects or not isinstance(arcs, list) or not arcs:
        raise GroundTruthError("the topology has no objects or no arcs",
                               "the file is not the expected JavaScript build")
    if not all(isinstance(a, list) and all(isinstance(p, list) and len(p) >= 2 for p in a)
               for a in arcs):
        raise GroundTruthError("the topology's arcs are not lists of positions",
                               "the file is not the expected JavaScript build")
    return topo


__all__ = ["parse_literal", "topology_from_js"]
