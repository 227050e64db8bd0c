"""The figures of ``cartoqa score --plot``: every label legible, none over another."""

from __future__ import annotations

from cartoqa.scoring.plots import task_bars_figure
from cartoqa.scoring.sections import sections


def test_task_labels_never_overlap_with_every_section() -> None:
    report = {"sections": {s.key: {"metrics": {h: {"all": 0.5, "valid_only": 0.75}
                                                for h in s.headline}}
                           for s in sections()}}
    fig = task_bars_figure(report)
    assert fig is not None
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    fig.canvas.draw()
    ax = fig.axes[0]
    labels = [t for t in ax.get_yticklabels() if t.get_text()]
    n_headlines = sum(len(s.headline) for s in sections())
    assert len(labels) == n_headlines > 30
    boxes = [t.get_window_extent(renderer) for t in labels]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)
    # every label whole inside the figure
    width, height = fig.canvas.get_width_height()
    assert all(b.x0 >= 0 and b.y0 >= 0 and b.x1 <= width and b.y1 <= height for b in boxes)
