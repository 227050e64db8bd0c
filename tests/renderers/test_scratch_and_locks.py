"""Temporary folders and lock files in shared places: no symlink followed, nothing left."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from renderers.errors import RenderError
from renderers.postgis import PostgisCluster
from renderers.scratch import ensure_private_folder, private_tempdir, reap_stale
from renderers.waiting import exclusive_lock


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_reap_removes_only_folders_of_dead_owners(tmp_path: Path) -> None:
    mine = private_tempdir("page", folder=tmp_path)  # this process: alive
    dead = tmp_path / f"cartoqa-page-{_dead_pid()}.12345-abcd"
    dead.mkdir()
    (dead / "view-0.html").write_text("x")
    reused = tmp_path / f"cartoqa-page-{os.getpid()}.1-abcd"  # our pid, another start time
    reused.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep")
    link = tmp_path / f"cartoqa-page-{_dead_pid()}.1-link"
    link.symlink_to(victim)
    other_kind = tmp_path / f"cartoqa-browser-{_dead_pid()}.1-x"
    other_kind.mkdir()
    removed = reap_stale("page", folder=tmp_path)
    assert sorted(removed) == sorted([dead, reused])
    assert mine.is_dir() and other_kind.is_dir() and link.is_symlink()
    assert (victim / "keep.txt").read_text() == "keep"


def test_private_folder_refuses_links_and_foreign_folders(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir(mode=0o755)
    planted = tmp_path / "planted"
    planted.symlink_to(target)
    with pytest.raises(PermissionError, match="symbolic link"):
        ensure_private_folder(planted, mode=0o711)
    assert target.stat().st_mode & 0o777 == 0o755  # not chmod-ed through the link
    open_folder = tmp_path / "open"
    open_folder.mkdir()
    open_folder.chmod(0o777)
    with pytest.raises(PermissionError, match="writable by other users"):
        ensure_private_folder(open_folder)
    made = ensure_private_folder(tmp_path / "new", mode=0o711)
    assert made.stat().st_mode & 0o777 == 0o711
    if os.geteuid() == 0:
        foreign = tmp_path / "foreign"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 65534, 65534)
        with pytest.raises(PermissionError, match="belongs to user id 65534"):
            ensure_private_folder(foreign)


@pytest.mark.skipif(os.geteuid() != 0, reason="the /tmp fallback is used only as root")
def test_cluster_fallback_refuses_a_planted_symlink(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    victim = tmp_path / "victim"
    victim.mkdir(mode=0o755)
    (tmp_path / f"cartoqa-{os.geteuid()}").symlink_to(victim)
    cluster = PostgisCluster(tmp_path / "cache")
    monkeypatch.setattr(cluster, "_service_user_can_reach", lambda folder: False)
    with pytest.raises(RenderError, match="symbolic link"):
        _ = cluster.root
    info = victim.stat()
    assert (info.st_uid, info.st_mode & 0o777) == (0, 0o755)  # neither chown-ed nor chmod-ed
    assert list(victim.iterdir()) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="the /tmp fallback is used only as root")
def test_cluster_fallback_lives_in_a_private_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    cluster = PostgisCluster(tmp_path / "cache")
    monkeypatch.setattr(cluster, "_service_user_can_reach", lambda folder: False)
    base = tmp_path / f"cartoqa-{os.geteuid()}"
    assert cluster.root == base / "postgis"
    assert base.stat().st_mode & 0o777 == 0o711 and base.stat().st_uid == os.geteuid()
    # Lock files sit in that folder, not loose in /tmp.
    assert cluster.lock_path.parent == base and cluster.lock_file("x").parent == base


def test_removed_lock_files_keep_holders_apart(tmp_path: Path) -> None:
    lock = tmp_path / "import-x.lock"
    inside = 0
    overlaps = 0
    guard = threading.Lock()

    def hold() -> None:
        nonlocal inside, overlaps
        for _ in range(30):
            with exclusive_lock(lock, timeout_s=30.0, remove=True):
                with guard:
                    inside += 1
                    overlaps += inside > 1
                with guard:
                    inside -= 1

    threads = [threading.Thread(target=hold) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == 0
    assert not lock.exists()  # no lock file left behind


def test_temp_folders_are_not_shared_with_others() -> None:
    folder = private_tempdir("probe")
    try:
        assert folder.stat().st_mode & 0o777 == 0o700
    finally:
        shutil.rmtree(folder)


def _write_assets_after(barrier: Any, folder: str) -> None:
    from renderers.style import write_style_assets

    barrier.wait()
    write_style_assets(Path(folder))


def test_processes_writing_one_style_folder_at_once_do_not_collide(tmp_path: Path) -> None:
    """Build workers and Dask workers share the style-assets cache: each must write its
    own temporary file (a shared ``name.tmp`` made one worker rename another's file away)."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    for round_ in range(3):
        folder = tmp_path / f"assets-{round_}"
        barrier = ctx.Barrier(4)
        workers = [ctx.Process(target=_write_assets_after, args=(barrier, str(folder)))
                   for _ in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(60)
        assert [w.exitcode for w in workers] == [0, 0, 0, 0], f"round {round_}"
        assert not [p for p in folder.rglob("*") if p.name.endswith(".tmp")]
        assert len(list((folder / "shields").glob("*.svg"))) > 100
