"""Blind baselines: answers given without looking at the image, and what they score.

A question that can be answered without the map measures nothing. The baselines here
answer every item from what is not the map (chance, the training answers, the prompt's
own example, the question text) or from the words a plain OCR reads on the image
without any map reasoning, and write ordinary predictions files that ``cartoqa score``
and ``cartoqa report`` read like any model's. :mod:`cartoqa.baselines.shortcuts` turns
their scores into the shortcut table: chance level, each baseline and the answer
distribution per task and request, flagged where a blind baseline beats chance.

Every answer space is derived from the task declarations (each request's JSON schema of
the answer) and the answers a dataset holds, never from per-task code: see
:mod:`cartoqa.declarations.answer_space`.
"""

from __future__ import annotations

#: The baselines, in report order: name -> one line saying what it answers.
BASELINES: dict[str, str] = {
    "random": "uniform random over each request's answer space (seeded)",
    "majority": "the most frequent answer per task, request and template of the --train "
                "build (leave-one-out on the dataset itself without --train)",
    "prompt_example": "the prompt's own example answer, copied",
    "text_prior": "a guess from the question text alone (first candidate named, the "
                  "option with the most words, yes)",
    "ocr": "Tesseract's words near the marker or anywhere on the image (legend), matched "
           "to the answer space; name and label requests only",
}
