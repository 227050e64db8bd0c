"""The OCR baseline: the words Tesseract reads on the image, with no map reasoning.

For every request whose answer holds names or labels (a leaf of kind ``free`` with
letters in it: MML's roads, STMF's and MTMF's names, MapWise and MapIQ regions and
legend ranges, FRIEDA's feature names, SRN's roads), the image is read with Tesseract
(Debian ``tesseract-ocr``, sparse-text mode). The candidates are the names and labels
that other items answer (never the item's own truth alone) which it reads as
consecutive words: those nearest the item's first marker when it has one, else in
reading order (legends included), leaving out the names the question itself gives. A
text leaf takes the first candidate, a list the first ones (as many as the answers seen
usually hold); the other leaves take the text-only prior's guess. Requests without
names are not answered: this baseline does not apply to them.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cartoqa.baselines.blind import (
    Items,
    assemble,
    own_answers,
    spaces_of,
    text_prior_choice,
    twins_of,
    write_response,
)
from cartoqa.baselines.question import mentioned, normalise, question_body
from cartoqa.dataset.reader import item_images
from cartoqa.declarations.answer_space import Leaf
from cartoqa.errors import CartoqaError


@dataclass(frozen=True)
class Word:
    """One word Tesseract read: its text and the centre of its box in image pixels."""

    text: str
    x: float
    y: float


#: ``read(image_path) -> words`` in reading order.
Reader = Callable[[Path], list[Word]]


def parse_tsv(tsv: str, min_confidence: float = 30.0) -> list[Word]:
    """Words of Tesseract's TSV output, in its reading order.

    Examples
    --------
    >>> head = "level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\t"
    >>> head += "width\\theight\\tconf\\ttext\\n"
    >>> row = "5\\t1\\t1\\t1\\t1\\t1\\t10\\t20\\t30\\t10\\t91.5\\tMannerheimintie\\n"
    >>> parse_tsv(head + row)
    [Word(text='Mannerheimintie', x=25.0, y=25.0)]
    """
    lines = tsv.splitlines()
    if not lines:
        return []
    header = lines[0].split("\t")
    at = {name: i for i, name in enumerate(header)}
    words = []
    for line in lines[1:]:
        cells = line.split("\t")
        if len(cells) < len(header) or cells[at["level"]] != "5":
            continue
        text = cells[at["text"]].strip()
        if not text or float(cells[at["conf"]]) < min_confidence:
            continue
        left, top = float(cells[at["left"]]), float(cells[at["top"]])
        width, height = float(cells[at["width"]]), float(cells[at["height"]])
        words.append(Word(text, left + width / 2, top + height / 2))
    return words


def tesseract_reader(executable: str | None = None) -> Reader:
    """A reader that runs Tesseract on each image once (``--psm 11``, English).

    Raises
    ------
    CartoqaError
        Tesseract is not installed.
    """
    exe = executable or shutil.which("tesseract")
    if exe is None:
        raise CartoqaError("the OCR baseline needs Tesseract, which is not installed",
                           fix="apt-get install tesseract-ocr (scripts/install.sh does), "
                               "or leave it out with --baselines")
    cache: dict[Path, list[Word]] = {}

    def read(path: Path) -> list[Word]:
        if path not in cache:
            done = subprocess.run([exe, str(path), "stdout", "--psm", "11", "-l", "eng",
                                   "tsv"], capture_output=True, text=True, check=False,
                                  timeout=300)
            cache[path] = parse_tsv(done.stdout) if done.returncode == 0 else []
        return cache[path]

    return read


def found_in(words: Sequence[Word], candidates: Sequence[str]) -> list[tuple[str, Word]]:
    """The candidates read as consecutive words, each with its first word, in reading
    order.

    Examples
    --------
    >>> words = [Word("Annan-", 0, 0), Word("katu", 5, 0), Word("TX", 9, 9)]
    >>> [(c, w.x) for c, w in found_in(words, ["Annankatu", "Annan katu", "TX", "CA"])]
    [('Annan katu', 0), ('TX', 9)]
    """
    tokens: list[tuple[str, int]] = []
    for index, word in enumerate(words):
        for token in normalise(word.text).split():
            tokens.append((token, index))
    stream = [t for t, _ in tokens]
    hits = []
    for candidate in candidates:
        wanted = normalise(candidate).split()
        if not wanted:
            continue
        for start in range(len(stream) - len(wanted) + 1):
            if stream[start:start + len(wanted)] == wanted:
                hits.append((start, candidate, words[tokens[start][1]]))
                break
    hits.sort(key=lambda hit: hit[0])
    return [(candidate, word) for _, candidate, word in hits]


def _marker(item: Mapping[str, Any]) -> tuple[float, float] | None:
    for marker in (item.get("provenance") or {}).get("markers") or []:
        px = marker.get("px") if isinstance(marker, Mapping) else None
        if isinstance(px, list | tuple) and len(px) == 2:
            return float(px[0]), float(px[1])
    return None


def ocr_candidates(item: Mapping[str, Any], words: Sequence[Word], leaf: Leaf,
                   twins: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """The leaf's vocabulary read on the image, best first: nearest the marker when the
    item has one, else in reading order; the question's own names left out.

    The vocabulary is the names and labels the *other* items answer (a name only this
    item answers, nor its ``twins`` (the same question in another setting), is not in
    it): OCR must read a name some other question also uses, so the item's own truth
    never steers the match.
    """
    vocabulary = leaf.strings(without=own_answers(leaf, item, twins))
    named = set(mentioned(question_body(item), vocabulary))
    hits = [(c, w) for c, w in found_in(words, vocabulary) if c not in named]
    marker = _marker(item)
    if marker is not None:
        hits.sort(key=lambda hit: (hit[1].x - marker[0]) ** 2 + (hit[1].y - marker[1]) ** 2)
    out: list[str] = []
    for candidate, _ in hits:
        if candidate not in out:
            out.append(candidate)
    return out


def ocr_baseline(items: Items, dataset: Path, *, reader: Reader | None = None,
                 extra: Items = ()) -> dict[str, str]:
    """Answers read off the image by OCR, for the requests with names or labels.

    Parameters
    ----------
    items : sequence of mapping
        The dataset's items.
    dataset : pathlib.Path
        The dataset folder (its images).
    reader : callable, optional
        ``read(path) -> words``; default :func:`tesseract_reader`.
    extra : sequence of mapping
        Items whose answers add to the spaces (a ``--train`` build).

    Returns
    -------
    dict of str to str
        Response per item id, for the items whose request has names or labels only.
    """
    spaces = spaces_of(items, extra)
    todo = [i for i in items
            if (s := spaces.get((str(i.get("task")), str(i.get("request"))))) is not None
            and s.has_text()]
    if not todo:
        return {}
    read = reader or tesseract_reader()
    twins = twins_of(items)
    out = {}
    for item in todo:
        space = spaces[(str(item.get("task")), str(item.get("request")))]
        words = [w for rel in item_images(item) for w in read(dataset / rel)]
        mine = twins[str(item["id"])]

        def choose(leaf: Leaf, it: Mapping[str, Any], words: list[Word] = words,
                   mine: list[Mapping[str, Any]] = mine) -> Any:
            if not leaf.is_text():
                return text_prior_choice(leaf, it, mine)
            found = ocr_candidates(it, words, leaf, mine)
            example = leaf.values[0] if leaf.values else ""
            if isinstance(example, list):
                lengths = sorted(len(v) for v in leaf.values if isinstance(v, list))
                return found[:max(1, lengths[len(lengths) // 2])]
            return found[0] if found else ""

        out[str(item["id"])] = write_response(item, assemble(space, item, choose))
    return out
