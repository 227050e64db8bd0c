"""The MFS selection rules on hand-made data with known answers."""

from __future__ import annotations

import io
import random
from collections import Counter

import numpy as np
import pytest
from PIL import Image

from cartoqa.tasks.mfs import (
    LETTERS,
    answer_for_slot,
    answer_order,
    arrange_options,
    choose_distractors,
    interchangeable,
    letter_for_slot,
)


def _emb(*xs: float) -> np.ndarray:
    return np.array([[x, 0.0] for x in xs])


def test_distractors_follow_the_rule() -> None:
    # answer 0 at x=0; class a: 1 (x=5), 2 (x=1), 3 (x=2); class b: 4 (x=3), 5 (x=0.5)
    emb = _emb(0, 5, 1, 2, 3, 0.5, 9)
    classes = ["a", "a", "a", "a", "b", "b", "c"]
    labels = ["ans", "a1", "a2", "a3", "b4", "b5", "c6"]
    picks = choose_distractors(
        0, embeddings=emb, classes=classes, labels=labels, candidates=range(7), rng=random.Random(3)
    )
    assert [(d.index, d.role) for d in picks[:3]] == [
        (2, "same_class"),
        (3, "same_class"),
        (5, "other_class"),
    ]
    assert [d.distance for d in picks[:3]] == [1.0, 2.0, 0.5]
    assert picks[3].role == "random" and picks[3].index in {1, 4, 6}


def test_random_distractor_is_seeded_and_uses_every_leftover() -> None:
    emb = _emb(0, 1, 2, 3, 4, 5, 6, 7)
    classes = ["a"] * 4 + ["b"] * 4
    labels = [f"l{i}" for i in range(8)]
    seen = set()
    for seed in range(60):
        pick = choose_distractors(
            0,
            embeddings=emb,
            classes=classes,
            labels=labels,
            candidates=range(8),
            rng=random.Random(seed),
        )[3].index
        again = choose_distractors(
            0,
            embeddings=emb,
            classes=classes,
            labels=labels,
            candidates=range(8),
            rng=random.Random(seed),
        )[3].index
        assert pick == again
        seen.add(pick)
    assert seen == {3, 5, 6, 7}  # 1, 2 same class and 4 nearest other class are taken


def test_duplicate_labels_and_excluded_candidates_are_skipped() -> None:
    emb = _emb(0, 1, 2, 3, 4, 5, 6, 7)
    classes = ["a", "a", "a", "a", "b", "b", "b", "b"]
    labels = ["park", "park", "lawn", "grass", "lake", "lake", "sea", "pond"]
    # entry 1 repeats the answer's label; entry 2 is excluded (looks the same);
    # class a then has one usable entry, so the nearest of any class fills in
    picks = choose_distractors(
        0,
        embeddings=emb,
        classes=classes,
        labels=labels,
        candidates=[1, 3, 4, 5, 6, 7],
        rng=random.Random(0),
    )
    assert [(labels[d.index], d.role) for d in picks] == [
        ("grass", "same_class"),
        ("lake", "nearest"),
        ("sea", "other_class"),
        ("pond", "random"),
    ]


def test_too_few_candidates_is_an_error() -> None:
    emb = _emb(0, 1, 2, 3)
    with pytest.raises(ValueError, match="fewer than four"):
        choose_distractors(
            0,
            embeddings=emb,
            classes="aaaa",
            labels="wxyz",
            candidates=range(4),
            rng=random.Random(0),
        )


def test_letters_are_exactly_balanced_per_block_and_seeded() -> None:
    for seed in (0, 1, 99):
        letters = [letter_for_slot(seed, s) for s in range(50)]
        for block in range(10):
            assert sorted(letters[5 * block : 5 * block + 5]) == list(LETTERS)
        assert Counter(letters) == dict.fromkeys(LETTERS, 10)
    assert [letter_for_slot(0, s) for s in range(20)] != [letter_for_slot(1, s) for s in range(20)]


def test_options_place_the_answer_at_its_letter() -> None:
    for letter in LETTERS:
        opts = arrange_options(
            "river", ["canal", "stream", "ditch", "drain"], letter, random.Random(5)
        )
        assert list(opts) == list(LETTERS)
        assert opts[letter] == "river"
        assert sorted(opts.values()) == ["canal", "ditch", "drain", "river", "stream"]
    with pytest.raises(ValueError):
        arrange_options("x", ["a"], "A", random.Random(0))


def test_answers_take_categories_in_turn() -> None:
    order = answer_order(["area", "symbol", "symbol", "line", "area"], seed=4)
    assert [sorted(o) for o in order] == [[1, 2], [3], [0, 4]]
    slots = [answer_for_slot(order, s) for s in range(6)]
    assert slots[1] == slots[4] == 3
    assert sorted(slots[0::3]) == [1, 2] and sorted(slots[2::3]) == [0, 4]


def _png(colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> bytes:
    im = Image.new("RGB", (50, 50), (242, 239, 233))
    if box:
        im.paste(colour, box)
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def test_interchangeable_images() -> None:
    red = _png((200, 0, 0), (10, 10, 30, 30))
    red_again = _png((201, 1, 1), (10, 10, 30, 30))  # same colour cell
    blue = _png((0, 0, 200), (10, 10, 30, 30))
    dot = _png((200, 0, 0), (10, 10, 12, 12))
    assert interchangeable([red, red_again, blue, dot]) == [{1}, {0}, set(), set()]


def test_textures_compare_by_colour_histogram() -> None:
    # the same stripes shifted by one pixel: different pixels, same colours
    def stripes(offset: int) -> bytes:
        im = Image.new("RGB", (50, 50), (170, 211, 223))
        for x in range(offset, 50, 5):
            im.paste((0, 90, 0), (x, 0, x + 1, 50))
        buf = io.BytesIO()
        im.save(buf, "PNG")
        return buf.getvalue()

    a, b = stripes(0), stripes(1)
    assert interchangeable([a, b]) == [set(), set()]
    assert interchangeable([a, b], texture=True) == [{1}, {0}]
    assert interchangeable([a, _png((0, 90, 0), (0, 0, 50, 50))], texture=True) == [set(), set()]
