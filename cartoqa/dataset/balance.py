"""The answer distribution of each request, and when it is unbalanced.

``cartoqa build`` warns and the dataset card records a request whose answers lean past
these limits (a blind guess of the leaning answer would beat chance); the shortcut
report (:mod:`cartoqa.baselines.shortcuts`) shows the same distribution beside the
baselines' scores. The measures come from the answer space's leaves
(:mod:`cartoqa.declarations.answer_space`), so every declared request is covered:

- yes/no (an answer that is one boolean): the share of yes; unbalanced when yes or no
  holds more than :data:`YES_NO_LIMIT` of the answers;
- option letters: the share of each letter; unbalanced when one letter holds more than
  its fair share plus :data:`LETTER_MARGIN`: ``1/k`` with ``k`` options, ``m/k`` where
  answers hold ``m`` correct letters on average (MapIQ's multiple choice);
- counts: the histogram; unbalanced when one count holds more than
  :data:`TOP_ANSWER_LIMIT` of the answers;
- names, directions and other answers: the share of the most common whole answer;
  unbalanced past :data:`TOP_ANSWER_LIMIT`.

Requests with fewer than :data:`MIN_ITEMS` items are described, never judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from cartoqa.declarations.answer_space import (
    answer_space,
    canonical,
    get_path,
    option_keys,
    requests_of,
)

#: Most either answer of a yes/no request may hold.
YES_NO_LIMIT = 0.65
#: How far above its fair share ``1/k`` one option letter may go.
LETTER_MARGIN = 0.15
#: Most one count, or one whole answer, may hold.
TOP_ANSWER_LIMIT = 0.5
#: Fewest items of a request before its balance is judged.
MIN_ITEMS = 8


def _share(counter: Counter[str], n: int) -> dict[str, float]:
    return {k: round(v / n, 3) for k, v in sorted(counter.items())} if n else {}


def request_balance(items: Sequence[Mapping[str, Any]], task: str,
                    request: str) -> dict[str, Any]:
    """The answer distribution of one request and what in it is unbalanced.

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items (others are ignored).
    task, request : str
        The request.

    Returns
    -------
    dict
        ``n``; ``yes_share`` (yes/no requests), ``letter_share`` (letter per share),
        ``fair_letter_share``, ``count_histogram`` (count -> items), ``top_answer`` and
        ``top_share`` (the most common whole answer); ``unbalanced``: one line per limit
        passed (empty when balanced or fewer than :data:`MIN_ITEMS` items).

    Examples
    --------
    >>> items = [{"task": "stmf", "request": "presence", "answer": {"present": p}}
    ...          for p in [True] * 7 + [False] * 2]
    >>> b = request_balance(items, "stmf", "presence")
    >>> b["yes_share"], b["unbalanced"]
    (0.778, ['yes holds 78% of the answers (limit 65%)'])
    """
    mine = [i for i in items if i.get("task") == task and i.get("request") == request]
    n = len(mine)
    space = answer_space(mine, task, request)
    out: dict[str, Any] = {"n": n}
    lines: list[str] = []
    guessed = [leaf for leaf in space.leaves if leaf.kind not in ("const", "given")]
    yes_no = len(guessed) == 1 and guessed[0].kind == "boolean"
    for leaf in space.leaves:
        values = [get_path(i.get("answer") or {}, leaf.path) for i in mine]
        present = [v for ok, v in values if ok]
        if leaf.kind == "boolean" and yes_no and present:
            yes = sum(bool(v) for v in present) / len(present)
            out["yes_share"] = round(yes, 3)
            leaning = max(yes, 1 - yes)
            if leaning > YES_NO_LIMIT:
                lines.append(f"{'yes' if yes >= 0.5 else 'no'} holds {leaning:.0%} of the "
                             f"answers (limit {YES_NO_LIMIT:.0%})")
        elif leaf.kind in ("letter", "letters") and present:
            letters: Counter[str] = Counter()
            for v in present:
                letters.update(v if isinstance(v, list) else [v])
            keys = Counter(len(option_keys(i)) for i in mine).most_common(1)[0][0]
            # several correct letters per answer (MapIQ's multiple choice): a letter's
            # fair share is the mean number of letters per answer over the k options
            per_answer = sum(len(v) if isinstance(v, list) else 1
                             for v in present) / len(present)
            fair = min(1.0, per_answer / keys) if keys else None
            out["letter_share"] = _share(letters, len(present))
            out["fair_letter_share"] = round(fair, 3) if fair is not None else None
            if fair is not None:
                letter, count = max(letters.items(), key=lambda kv: (kv[1], kv[0]))
                share = count / len(present)
                if share > fair + LETTER_MARGIN:
                    lines.append(f"letter {letter} answers {share:.0%} (fair share "
                                 f"{fair:.0%}, limit {fair + LETTER_MARGIN:.0%})")
        elif leaf.kind == "integer" and present:
            hist = Counter(int(v) for v in present)
            out.setdefault("count_histogram", {}).update(
                {leaf.name: {str(k): hist[k] for k in sorted(hist)}})
    if mine:
        answers = Counter(canonical({k: v for k, v in (i.get("answer") or {}).items()
                                     if k not in ("type",)}) for i in mine)
        top, count = max(answers.items(), key=lambda kv: (kv[1], kv[0]))
        out["top_answer"] = top
        out["top_share"] = round(count / n, 3)
        judged_elsewhere = yes_no or any(leaf.kind in ("letter", "letters")
                                         for leaf in space.leaves)
        if not judged_elsewhere and count / n > TOP_ANSWER_LIMIT and len(answers) > 0:
            lines.append(f"one answer ({top[:60]}) holds {count / n:.0%} of the answers "
                         f"(limit {TOP_ANSWER_LIMIT:.0%})")
    out["unbalanced"] = lines if n >= MIN_ITEMS else []
    return out


def dataset_balance(items: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """:func:`request_balance` of every request, keyed ``"task/request"``."""
    return {f"{task}/{request}": request_balance(items, task, request)
            for task, request in requests_of(items)}


def balance_warnings(balance: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One line per unbalanced request, for the build log and the card.

    Examples
    --------
    >>> balance_warnings({"stmf/presence": {"unbalanced": ["yes holds 78%"]}})
    ['stmf/presence: yes holds 78%']
    """
    return [f"{key}: {line}" for key, entry in balance.items()
            for line in entry.get("unbalanced") or []]


def yes_no_quota(items: Sequence[Mapping[str, Any]],
                 limit: float = YES_NO_LIMIT) -> tuple[list[Mapping[str, Any]], dict[str, int]]:
    """Keep yes/no requests within the limit by leaving out the surplus of the leaning answer.

    Each request whose answer is one boolean and that has at least :data:`MIN_ITEMS`
    items keeps every item of the rarer answer and, of the other, as many as the limit
    allows (its first ones by id); the rest are left out. What is left out depends only
    on the items, so resumed and parallel builds agree.

    Parameters
    ----------
    items : sequence of mapping
        The items, sorted by id.
    limit : float
        Most either answer may hold.

    Returns
    -------
    kept : list of mapping
        The items kept, in their order.
    dropped : dict of str to int
        Items left out per ``"task/request"``.

    Examples
    --------
    >>> items = [{"id": f"stmf-{k}", "task": "stmf", "request": "presence",
    ...           "answer": {"present": k < 8}} for k in range(10)]
    >>> kept, dropped = yes_no_quota(items)
    >>> [i["answer"]["present"] for i in kept], dropped
    ([True, True, True, False, False], {'stmf/presence': 5})
    """
    drop: set[str] = set()
    dropped: dict[str, int] = {}
    for task, request in requests_of(items):
        mine = [i for i in items if i.get("task") == task and i.get("request") == request]
        space = answer_space(mine, task, request)
        guessed = [leaf for leaf in space.leaves if leaf.kind not in ("const", "given")]
        if len(mine) < MIN_ITEMS or len(guessed) != 1 or guessed[0].kind != "boolean":
            continue
        path = guessed[0].path
        yes = [i for i in mine if get_path(i.get("answer") or {}, path)[1] is True]
        no = [i for i in mine if i not in yes]
        big, small = (yes, no) if len(yes) >= len(no) else (no, yes)
        allowed = int(limit * len(small) / (1 - limit)) if limit < 1 else len(big)
        if len(big) <= max(allowed, 0) or not small:
            continue  # balanced already, or nothing of the other answer to balance with
        surplus = big[allowed:]
        drop.update(str(i.get("id")) for i in surplus)
        dropped[f"{task}/{request}"] = len(surplus)
    return [i for i in items if str(i.get("id")) not in drop], dropped


#: Key of the answer balance in ``manifest.json``.
BALANCE_KEY = "answer_balance"


def balance_record(items: Sequence[Mapping[str, Any]],
                   dropped: Mapping[str, int] | None = None) -> dict[str, Any]:
    """What the manifest records of the answers' balance (``manifest.json``'s
    ``answer_balance``).

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items.

    Returns
    -------
    dict
        ``limits`` (the stated limits), ``requests`` (:func:`dataset_balance`, the most
        common answer cut to 80 characters), ``warnings`` (:func:`balance_warnings`) and
        ``dropped`` (items left out by :func:`yes_no_quota`, per request).
    """
    balance = dataset_balance(items)
    for entry in balance.values():
        if isinstance(entry.get("top_answer"), str):
            entry["top_answer"] = entry["top_answer"][:80]
    return {"limits": {"yes_no": YES_NO_LIMIT, "letter_margin": LETTER_MARGIN,
                       "top_answer": TOP_ANSWER_LIMIT, "min_items": MIN_ITEMS},
            "requests": balance, "warnings": balance_warnings(balance),
            "dropped": dict(dropped or {})}


def balance_card(record: Mapping[str, Any]) -> str:
    """The dataset card's section on the answers' balance (Markdown).

    Examples
    --------
    >>> print(balance_card({"limits": {"yes_no": 0.65, "letter_margin": 0.15,
    ...     "top_answer": 0.5, "min_items": 8}, "requests": {"stmf/presence":
    ...     {"n": 9, "yes_share": 0.778, "top_share": 0.778}},
    ...     "warnings": ["stmf/presence: yes holds 78% of the answers (limit 65%)"]}))
    ... # doctest: +ELLIPSIS
    ## Answer balance
    <BLANKLINE>
    Limits: yes or no at most 65%; ... not judged. See docs/baselines.md.
    <BLANKLINE>
    - stmf/presence (9 items): yes 78%
    <BLANKLINE>
    Unbalanced:
    <BLANKLINE>
    - stmf/presence: yes holds 78% of the answers (limit 65%)
    <BLANKLINE>
    """
    limits = record.get("limits") or {}
    lines = ["## Answer balance", "",
             f"Limits: yes or no at most {limits.get('yes_no', 0):.0%}; one option letter "
             f"at most its fair share + {limits.get('letter_margin', 0):.0%}; one count or "
             f"answer at most {limits.get('top_answer', 0):.0%}; requests of fewer than "
             f"{limits.get('min_items')} items not judged. See docs/baselines.md.", ""]
    for key, entry in (record.get("requests") or {}).items():
        parts = []
        if "yes_share" in entry:
            parts.append(f"yes {entry['yes_share']:.0%}")
        if "letter_share" in entry:
            parts.append("letters " + ", ".join(f"{k} {v:.0%}"
                                                for k, v in entry["letter_share"].items()))
        if not parts and "top_share" in entry:
            parts.append(f"most common answer {entry['top_share']:.0%}")
        lines.append(f"- {key} ({entry.get('n')} items): " + "; ".join(parts))
    for key, n in (record.get("dropped") or {}).items():
        lines.append(f"- {key}: {n} items of the leaning answer left out (yes/no quota)")
    warnings = list(record.get("warnings") or [])
    lines += ["", "Unbalanced:" if warnings else "No request is unbalanced past the limits.",
              ""]
    lines += [f"- {w}" for w in warnings] + ([""] if warnings else [])
    return "\n".join(lines)
