"""Small hand-made items for the baseline tests (the answers are what the tests count)."""

from __future__ import annotations

from typing import Any

PRESENCE_Q = ("Look at the map. Is at least one pharmacy shown on this map?\n\nAnswer "
              "format: reply with exactly one word, yes or no, on the last line, like "
              "this:\nAnswer: yes")
COUNT_Q = ("Look at the map. How many cafes are shown on this map?\n\nAnswer format: reply "
           "with one whole number (0 if there are none) on the last line, like this:\n"
           "Answer: 3")
MFS_Q = "Which feature is it?\n\nAnswer format: the letter, like this:\nAnswer: C"
MML_Q = ("Look at the map. A blue marker points at a road intersection. What are the names "
         "of the two roads that meet at the marker?\n\nAnswer format: the two road names, "
         "like this:\nAnswer: First Street; Second Avenue")
ORIENT_Q = ("In which direction is Kaisaniemi from Senate Square?\n\nAnswer format: one of "
            "the eight compass directions, on the last line, like this:\nAnswer: north-east")
OPTIONS = {"A": "bank", "B": "park", "C": "bus stop", "D": "pharmacy", "E": "fast food"}


def item(item_id: str, task: str, request: str, answer: dict[str, Any], question: str,
         **extra: Any) -> dict[str, Any]:
    """One item in the dataset format (no image needed unless OCR reads it)."""
    return {"id": item_id, "task": task, "request": request, "question": question,
            "system_prompt": "You are an expert map reader.", "answer": answer,
            "image": f"images/{item_id}.png", "options": extra.pop("options", None),
            "strata": extra.pop("strata", {}), "provenance": extra.pop("provenance", {}),
            **extra}


def presence(answers: list[bool], prefix: str = "p") -> list[dict[str, Any]]:
    """STMF presence items with these answers."""
    return [item(f"stmf-{prefix}{k}", "stmf", "presence", {"present": a}, PRESENCE_Q)
            for k, a in enumerate(answers)]


def counts(answers: list[int], prefix: str = "c") -> list[dict[str, Any]]:
    """STMF count items with these answers."""
    return [item(f"stmf-{prefix}{k}", "stmf", "count", {"count": a}, COUNT_Q)
            for k, a in enumerate(answers)]


def mfs(labels: list[str], prefix: str = "m") -> list[dict[str, Any]]:
    """MFS items whose answer is the option with this text (options :data:`OPTIONS`)."""
    letter = {v: k for k, v in OPTIONS.items()}
    return [item(f"mfs-{prefix}{k}", "mfs", "choice",
                 {"letter": letter[label], "label": label}, MFS_Q, options=dict(OPTIONS))
            for k, label in enumerate(labels)]
