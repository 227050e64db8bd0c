"""The browser is private to the build: no port, no socket, no DNS query, nothing left behind.

A hostile local user (``nobody``) must not be able to drive the build's Chromium (and
through it read files such as ``/etc/shadow``); Chromium must make no DNS query; its
profile and temporary files must go when it closes, or with the next browser after a
kill.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from renderers.browser import (
    BROWSER_USER,
    LOCAL_ORIGIN,
    Browser,
    browser_account,
    default_chromium,
    descendant_pids,
)
from renderers.errors import RenderError
from renderers.scratch import private_tempdir, process_start_ticks, reap_stale
from renderers.waiting import wait_for_exit

pytestmark = pytest.mark.slow

READY = "return document.readyState === 'complete'"


def _page(tmp_path: Path, body: str = "<h1>cartoqa</h1>", browser: Browser | None = None,
          ) -> str:
    page = tmp_path / "page.html"
    page.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    page.chmod(0o644)
    if browser is not None:  # as root the browser user cannot read it: serve it
        browser.allow(tmp_path)
    return page.as_uri()


def _ids(pid: int) -> tuple[list[int], list[int], list[int]]:
    """Real/effective/saved/fs user ids, group ids and supplementary groups of a process."""
    fields = dict(line.split(":", 1) for line in
                  Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return ([int(x) for x in fields["Uid"].split()], [int(x) for x in fields["Gid"].split()],
            [int(x) for x in fields["Groups"].split()])


def _socket_inodes(pids: list[int]) -> set[str]:
    inodes = set()
    for pid in pids:
        fd_dir = Path(f"/proc/{pid}/fd")
        try:
            names = os.listdir(fd_dir)
        except OSError:
            continue
        for name in names:
            try:
                target = os.readlink(fd_dir / name)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[len("socket:["):-1])
    return inodes


def _listening(inodes: set[str]) -> list[str]:
    """Lines of /proc/net/{tcp,tcp6,unix} for listening sockets among ``inodes``."""
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(f"{table}: {line.strip()}")
    for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
        fields = line.split()
        # Flags 00010000: accepting connections; a path (not @abstract) anyone may open.
        if fields[6] in inodes and int(fields[3], 16) & 0x10000:
            found.append(f"unix: {line.strip()}")
    return found


#: Run as ``nobody``: every way in that the old chromedriver set-up offered.
_INTRUDER = textwrap.dedent("""
    import json, os, socket, sys
    pid = int(sys.argv[1])
    reached = []
    try:  # the intruder cannot read the file itself (else this test would prove nothing)
        open("/etc/shadow", "rb").close()
        reached.append("/etc/shadow directly")
    except OSError:
        pass
    for fd in (3, 4):
        try:
            open(f"/proc/{pid}/fd/{fd}", "rb").close()
            reached.append(f"pipe fd {fd}")
        except OSError:
            pass
    try:
        os.listdir(f"/proc/{pid}/fd")
        reached.append("fd list")
    except OSError:
        pass
    for path in sys.argv[2:]:
        try:
            with socket.socket(socket.AF_UNIX) as s:
                s.connect(path)
                reached.append(path)
        except OSError:
            pass
    print(json.dumps(reached))
""")


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None,
                    reason="needs root to act as another local user")
def test_another_local_user_cannot_drive_the_browser(tmp_path: Path) -> None:
    with Browser() as browser:
        browser.capture(_page(tmp_path, browser=browser), ready_js=READY)
        assert browser.pid is not None
        family = [browser.pid, *descendant_pids(browser.pid)]
        # No TCP port (no chromedriver, no DevTools port). The only listening socket is
        # Chromium's SingletonSocket, inside the private mode-0700 folder.
        scratch = browser.scratch_dir
        assert scratch is not None and scratch.stat().st_mode & 0o777 == 0o700
        listening = _listening(_socket_inodes(family))
        tcp = [line for line in listening if not line.startswith("unix")]
        sockets = [line.split()[-1] for line in listening if line.startswith("unix")]
        assert tcp == []
        assert all(Path(s).is_relative_to(scratch) for s in sockets), sockets
        cmdlines = [Path(f"/proc/{p}/cmdline").read_bytes() for p in family
                    if Path(f"/proc/{p}/cmdline").exists()]
        assert not any(b"--remote-debugging-port" in c for c in cmdlines)
        assert not any(b"chromedriver" in c for c in cmdlines)
        # The DevTools pipe (Chromium's fds 3 and 4) is out of reach of another user.
        result = subprocess.run(
            ["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", _INTRUDER,
             str(browser.pid), *sockets],
            capture_output=True, text=True, timeout=60, check=True, cwd="/",
        )
        assert result.stdout.strip() == "[]", result.stdout
        # And this browser, driven by its owner, works: the pipe is the only way in.
        png, title = browser.capture(_page(tmp_path, "<title>t</title>", browser),
                                     ready_js=READY,
                                     probe_js="return document.title")
        assert title == "t" and png.startswith(b"\x89PNG")


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_chromium_makes_no_dns_query(tmp_path: Path) -> None:
    account = browser_account()
    # As root Chromium runs as the browser user: the wrapper and its log must be its.
    traced = private_tempdir("stracetest", owner=account[0] if account else None)
    log = traced / "strace.log"
    # the binary a build starts, traced; the wrapper is named like it (its flags too)
    binary = default_chromium()
    wrapper = traced / binary.name
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec strace -f -qq -e trace=connect,sendto,sendmsg,sendmmsg -o {log} "
        f'{binary} "$@"\n'
    )
    wrapper.chmod(0o755)
    # A page that asks for a remote image: its host name must not be looked up either.
    with Browser(chromium=wrapper) as browser:
        uri = _page(tmp_path, "<img src='http://tile.example.org/1/2/3.png'><h1>x</h1>",
                    browser)
        browser.capture(uri, ready_js=READY)
        time.sleep(5)  # background services (updates, accounts) start within seconds
        browser.capture(uri, ready_js=READY)
    calls = log.read_text()
    shutil.rmtree(traced)
    # the trace saw Chromium talk (its processes connect over unix sockets), so an empty
    # answer below is not a trace that missed everything
    assert "AF_UNIX" in calls or "sendmsg(" in calls, calls[:500]
    dns = [line for line in calls.splitlines() if "htons(53)" in line]
    ipv4 = [line for line in calls.splitlines() if "sa_family=AF_INET," in line]
    assert dns == [] and ipv4 == [], (dns + ipv4)[:5]


def test_close_leaves_no_temporary_files(tmp_path: Path) -> None:
    before = {p.name for p in Path("/tmp").iterdir() if "chromium" in p.name.lower()}
    browser = Browser()
    browser.capture(_page(tmp_path, browser=browser), ready_js=READY)
    scratch = browser.scratch_dir
    assert scratch is not None and oct(scratch.stat().st_mode & 0o777) == "0o700"
    browser.close()
    assert not scratch.exists()
    after = {p.name for p in Path("/tmp").iterdir() if "chromium" in p.name.lower()}
    assert after - before == set()


_KILLED_OWNER = textwrap.dedent("""
    import sys
    from pathlib import Path
    from renderers.browser import Browser
    b = Browser()
    b.allow(Path(sys.argv[1]).parent)
    b.capture(Path(sys.argv[1]).as_uri(), ready_js="return true")
    print(b.pid, b.scratch_dir, flush=True)
    sys.stdin.read()
""")


def test_browser_dies_with_a_killed_owner_and_its_folder_is_reaped(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text("<html><body>x</body></html>")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    owner = subprocess.Popen([sys.executable, "-c", _KILLED_OWNER, str(page)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    assert owner.stdout is not None
    pid_text, scratch_text = owner.stdout.readline().split()
    chromium = int(pid_text)
    family = [chromium, *descendant_pids(chromium)]
    start = process_start_ticks(chromium)
    owner.send_signal(signal.SIGKILL)
    owner.wait()
    # The kernel kills Chromium with its owner (PR_SET_PDEATHSIG); its helpers follow.
    assert wait_for_exit(family, 20.0), [p for p in family if process_start_ticks(p) == start]
    scratch = Path(scratch_text)
    assert scratch.exists()  # SIGKILL leaves the folder ...
    account = browser_account()
    # ... and the next browser removes it (as root: a folder of the browser user)
    assert scratch in reap_stale("browser", owner=account[0] if account else None)
    assert not scratch.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="the browser changes user only for root")
def test_as_root_chromium_runs_as_an_unprivileged_user_with_its_sandbox(
    tmp_path: Path,
) -> None:
    account = browser_account()
    assert account is not None and account[0] != 0
    uid, gid = account
    with Browser() as browser:
        browser.capture(_page(tmp_path, browser=browser), ready_js=READY)
        assert browser.pid is not None
        family = [browser.pid, *descendant_pids(browser.pid)]
        assert len(family) > 1  # helpers (zygotes, renderer) are checked too
        for pid in family:
            uids, gids, groups = _ids(pid)
            assert set(uids) == {uid}, (pid, uids)
            assert set(gids) == {gid}, (pid, gids)
            assert not set(groups) - {gid}, (pid, groups)  # root's groups are dropped
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            assert b"--no-sandbox" not in cmdline
        # Chromium's sandbox is on: the renderers run in their own user namespace.
        renderers = [p for p in family
                     if b"--type=renderer" in Path(f"/proc/{p}/cmdline").read_bytes()]
        assert renderers
        own_ns = os.readlink("/proc/self/ns/user")
        assert all(os.readlink(f"/proc/{p}/ns/user") != own_ns for p in renderers)
        # Its private folder belongs to that user, mode 0700.
        scratch = browser.scratch_dir
        assert scratch is not None
        info = scratch.stat()
        assert (info.st_uid, info.st_mode & 0o777) == (uid, 0o700)
        assert BROWSER_USER == "cartoqa-browser"


_TRY_READ = """
return Promise.all(%s.map(function (url) {
  return fetch(url).then(function (r) { return r.text(); })
                   .then(function (t) { return 'read ' + t.length; },
                         function (e) { return 'failed'; });
}));
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the browser changes user only for root")
def test_a_page_cannot_read_root_files(tmp_path: Path) -> None:
    secret = Path("/root/.cartoqa-test-secret")
    secret.write_text("root only")
    try:
        with Browser() as browser:
            uri = _page(tmp_path, "<h1>x</h1><iframe src='file:///etc/shadow'></iframe>",
                        browser)
            (tmp_path / "ok.js").write_text("var fine = 1;")
            urls = ["file:///etc/shadow", f"file://{secret}", LOCAL_ORIGIN + "/etc/shadow",
                    LOCAL_ORIGIN + str(secret), LOCAL_ORIGIN + "/etc/passwd.js",
                    LOCAL_ORIGIN + str(tmp_path) + "/../../../etc/shadow",
                    LOCAL_ORIGIN + str(tmp_path / "ok.js")]
            browser.capture(uri, ready_js=READY)
            got = browser._evaluate("(function () {" + _TRY_READ % json.dumps(urls) + "})()",
                                    await_promise=True)
            # Only the allowed file is read: the test can tell reading from failing.
            assert got == ["failed"] * 6 + ["read 13"], got
            _, frame = browser.capture(uri, ready_js=READY, probe_js=(
                "var d = null; try { d = document.querySelector('iframe')"
                ".contentDocument.body.innerText; } catch (e) { d = 'blocked'; }"
                "return d;"))
            assert frame in (None, "", "blocked"), frame
            # Navigating the page itself to a root file fails too.
            with pytest.raises(RenderError):
                browser.capture("file:///etc/shadow", ready_js=READY)
    finally:
        secret.unlink()
