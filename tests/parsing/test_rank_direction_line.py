"""A "From lowest to highest:" line with its own list does not flip a separate cued list
(issue 24, grade24e class: fresh7#69). Hand-written expectations, with near cases."""

from __future__ import annotations

from cartoqa.declarations.dispatch import parse_response

RANK = {"task": "mapwise_rank", "request": "rank", "provenance": {"country": "china"}}
HIGH_FIRST = {"GD": 1, "SC": 2, "JS": 3, "TJ": 4}


def ranks(text: str) -> dict[str, int]:
    return dict(parse_response(RANK, text).value["ranks"])


def test_direction_line_with_its_own_list_does_not_flip_the_answer() -> None:
    assert ranks("From lowest to highest: Tianjin, Jiangsu, Sichuan, Guangdong.\n\n"
                 "My answer is [Guangdong, Sichuan, Jiangsu, Tianjin]") == HIGH_FIRST


def test_direction_words_introducing_the_answer_still_flip_it() -> None:
    assert ranks("Ranked from lowest to highest:\n"
                 "My answer is [Tianjin, Jiangsu, Sichuan, Guangdong]") == HIGH_FIRST
    assert ranks("From lowest to highest:\nTianjin\nJiangsu\nSichuan\nGuangdong") == HIGH_FIRST
