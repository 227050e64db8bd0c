"""One long-lived headless Chromium, driven over a private pipe, that screenshots local pages.

Starting Chromium costs about a second; loading a local page and taking a screenshot
costs a fraction of that. A :class:`Browser` starts Chromium once, sizes the viewport
exactly with DevTools (``Emulation.setDeviceMetricsOverride``), and is reused for every
capture. If Chromium dies, the next capture starts a new one and retries once.
Waiting is on a JavaScript predicate evaluated inside the page, never a fixed sleep.
A capture may also show its page in place (:class:`InPlaceUpdate`): when the browser
already holds a page of the same kind, a script swaps in the new content instead of a
navigation, which saves Chromium about half its CPU per map view; every
:data:`RELOAD_AFTER` updates, and after any failure, the page is loaded afresh.

Nobody else can drive it. Chromium is started with ``--remote-debugging-pipe``: the
DevTools protocol runs over two anonymous pipes (file descriptors 3 and 4 of Chromium)
that only this process holds. There is no chromedriver, no TCP port and no socket
file, so another local user has nothing to connect to. The browser's profile and
temporary files live in a private mode-0700 folder
(:func:`renderers.scratch.private_tempdir`) that :meth:`Browser.close` removes; the
kernel kills Chromium when the process that started it dies, even by ``SIGKILL``
(:func:`renderers.children.die_with_parent`), and the next browser removes the folder
such a death left behind.

As root, Chromium does not run as root. It runs as the unprivileged system user
:data:`BROWSER_USER` (created by ``scripts/install.sh``, or by the first browser that
finds it missing) with its own sandbox on, in a profile folder owned by that user
(:func:`browser_account`). That user cannot read the root-only page folder, tile
cache or Leaflet files, so this process serves them over the DevTools pipe: the
``Fetch`` domain pauses every request the page makes, and only URLs of the private
origin :data:`LOCAL_ORIGIN` that name a file inside a folder given to
:meth:`Browser.allow` are answered (read by this process); every other request
(``file://`` included) is failed. Chromium's own network traffic (component updates, sync,
safe browsing, metrics, DNS prefetching) is switched off and every host name resolves
to nothing (``--host-resolver-rules``), so a capture makes no DNS query.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import pwd
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from PIL import Image

from renderers.children import die_with_parent
from renderers.errors import RenderError
from renderers.scratch import private_tempdir
from renderers.waiting import wait_for_exit

#: Where Debian's ``chromium-headless-shell`` package puts Chromium's headless shell
#: (``chrome-headless-shell``: the old headless mode, the same Blink, Skia and version as
#: the full browser without its windowing and profile layers), the binary a
#: :class:`Browser` starts when it is installed. It draws the same PNGs byte for byte
#: as the full browser (tests/renderers/test_render_e2e.py) for about a sixth of the
#: CPU to start (0.3 against 1.7 CPU s to a blank page) and less per fresh page
#: (docs/rendering.md). The ``/usr/bin`` wrapper is not used: it does not ``exec``.
HEADLESS_SHELL_PATH = Path("/usr/lib/chromium/chromium-headless-shell")
#: Where Debian's ``chromium`` package puts the full browser: started (with
#: ``--headless=new``) where the headless shell is not installed.
CHROMIUM_PATH = Path("/usr/bin/chromium")

#: Chromium features that talk to Google's servers or otherwise reach the network.
_NETWORK_FEATURES = (
    "AutofillServerCommunication",
    "CertificateTransparencyComponentUpdater",
    "DialMediaRouteProvider",
    "InterestFeedContentSuggestions",
    "MediaRouter",
    "OptimizationHints",
    "Translate",
)

#: Chromium flags: no GPU, no network chatter, no host name resolution (the full
#: browser also gets :data:`FULL_BROWSER_FLAGS`; the headless shell is headless anyway).
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--disable-breakpad",
    "--disable-quic",
    "--dns-prefetch-disable",
    "--no-pings",
    "--no-proxy-server",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--disable-features=" + ",".join(_NETWORK_FEATURES),
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--no-first-run",
    "--no-default-browser-check",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)
#: What the full browser needs besides :data:`CHROMIUM_FLAGS` to run without a display.
FULL_BROWSER_FLAGS: tuple[str, ...] = ("--headless=new",)

#: The unprivileged system user Chromium runs as when cartoqa runs as root.
BROWSER_USER = "cartoqa-browser"
#: The private origin under which a root build serves pages, tiles and Leaflet files.
LOCAL_ORIGIN = "http://cartoqa.invalid"
#: File types served under :data:`LOCAL_ORIGIN`; any other file is refused.
SERVED_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript",
                ".css": "text/css", ".png": "image/png", ".svg": "image/svg+xml",
                ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".webp": "image/webp"}

#: Longest temporary-folder path under which Chromium's socket path stays short enough.
MAX_TMPDIR = 18
#: Seconds allowed for Chromium to start and answer its first command.
START_TIMEOUT_S = 30.0
#: Seconds allowed for Chromium to exit after ``Browser.close`` before it is killed.
QUIT_TIMEOUT_S = 5.0
#: In-place updates of one document before the next capture loads its page afresh
#: (bounds what one document accumulates: decoded tiles, Leaflet's object ids).
RELOAD_AFTER = 100
#: Every this many in-place updates, Chromium is told memory is short, so that the
#: renderer drops decoded tiles it keeps for the document (it grew to about 760 MB over
#: 100 views without this, and stays near 250 MB with it; the CPU cost is not
#: measurable).
PURGE_EVERY = 20

_MISSING_FIX = (
    "install the Debian package chromium-headless-shell "
    "(sudo apt-get install chromium-headless-shell, or run scripts/install.sh)"
)


class InPlaceUpdate(Protocol):
    """How a capture can show its page without loading it (e.g. ``renderers.page.ViewUpdate``).

    Attributes
    ----------
    key : str
        The kind of page the script needs: it runs only in a document loaded from a
        page whose capture gave the same key.
    script : str
        A JavaScript expression that makes that document show what the page shows.
    """

    @property
    def key(self) -> str: ...

    @property
    def script(self) -> str: ...


class BrowserGoneError(ConnectionError):
    """Chromium exited or closed its DevTools pipe."""


class DevToolsError(RuntimeError):
    """Chromium answered a DevTools command with an error."""


#: DevTools events that say the page's renderer process died (a renderer killed
#: outright is reported only as ``Inspector.detached``, "Render process gone.").
_CRASH_EVENTS = frozenset({"Inspector.targetCrashed", "Target.targetCrashed",
                           "Target.detachedFromTarget", "Inspector.detached"})

#: What a dead Chromium raises.
_CRASHES: tuple[type[Exception], ...] = (BrowserGoneError, BrokenPipeError)
#: What a browser that does not start properly raises.
_START_FAILURES: tuple[type[Exception], ...] = (*_CRASHES, TimeoutError, DevToolsError,
                                                ValueError)


def default_chromium() -> Path:
    """The binary a :class:`Browser` starts unless it is given one: the headless shell
    (:data:`HEADLESS_SHELL_PATH`) where it is installed, else the full browser
    (:data:`CHROMIUM_PATH`), whether or not that one is installed."""
    return HEADLESS_SHELL_PATH if HEADLESS_SHELL_PATH.is_file() else CHROMIUM_PATH


def is_headless_shell(binary: Path) -> bool:
    """Whether ``binary`` is Chromium's headless shell (by its file name), which takes
    no ``--headless`` flag: it has no other mode."""
    return "headless-shell" in binary.name


def _require_binary(path: Path) -> Path:
    """Return the resolved binary, or raise a RenderError naming the Debian package."""
    found = path if path.is_file() else None
    if found is None:
        on_path = shutil.which(path.name)
        found = Path(on_path) if on_path else None
    if found is None:
        raise RenderError(f"no Chromium at {path}: the Debian package "
                          "chromium-headless-shell is not installed", _MISSING_FIX)
    return found


def browser_account() -> tuple[int, int] | None:
    """Return the (uid, gid) Chromium runs as, or ``None`` to run it as this user.

    Only a root process changes user: it runs Chromium as :data:`BROWSER_USER`,
    creating that system user (no home, no login shell, its own group) if it is
    missing. Falling back to a shared account such as ``nobody`` is deliberately not
    done: any other ``nobody`` process could then signal or trace the browser.

    Returns
    -------
    tuple of int or None
        The user's id and primary group id; ``None`` when not running as root.

    Raises
    ------
    RenderError
        If the user is missing and cannot be created.
    """
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(BROWSER_USER)
    except KeyError:
        useradd = shutil.which("useradd") or "/usr/sbin/useradd"
        made = subprocess.run(
            [useradd, "--system", "--user-group", "--no-create-home",
             "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", BROWSER_USER],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False,
        ) if Path(useradd).is_file() else None
        try:
            entry = pwd.getpwnam(BROWSER_USER)
        except KeyError:
            said = made.stderr.strip() if made is not None else "useradd not found"
            raise RenderError(
                f"cannot create the system user {BROWSER_USER} for Chromium ({said})",
                "run scripts/install.sh as root, or run cartoqa as an ordinary user",
            ) from None
    if entry.pw_uid == 0:
        raise RenderError(f"the user {BROWSER_USER} has user id 0",
                          f"give {BROWSER_USER} an unprivileged user id")
    return entry.pw_uid, entry.pw_gid


def child_pids(pid: int) -> list[int]:
    """Return the ids of the processes whose parent is ``pid`` (Linux ``/proc``).

    Parameters
    ----------
    pid : int
        The parent process.

    Returns
    -------
    list of int
        Child process ids; empty where ``/proc`` is unavailable.
    """
    children = []
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else ():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Field 4 is the parent id; field 2 (the name) may hold spaces inside parentheses.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(pid):
            children.append(int(entry.name))
    return sorted(children)


def descendant_pids(pid: int) -> list[int]:
    """Return every process below ``pid`` (children, their children, ...).

    Parameters
    ----------
    pid : int
        The ancestor.

    Returns
    -------
    list of int
        Process ids, sorted.
    """
    found: list[int] = []
    todo = [pid]
    while todo:
        kids = child_pids(todo.pop())
        found.extend(kids)
        todo.extend(kids)
    return sorted(found)


class DevToolsPipe:
    """The DevTools protocol over Chromium's ``--remote-debugging-pipe``.

    Messages are JSON texts ended by a NUL byte; Chromium reads commands on its file
    descriptor 3 and writes replies and events on its descriptor 4.

    Parameters
    ----------
    process : subprocess.Popen
        The Chromium process (to tell a dead browser from a slow one).
    to_browser, from_browser : int
        This side's ends of the two pipes.
    """

    def __init__(self, process: subprocess.Popen[bytes], to_browser: int,
                 from_browser: int) -> None:
        self.process = process
        self._out = to_browser
        self._in = from_browser
        self._buffer = b""
        self._next_id = 0
        self._replies: dict[int, dict[str, Any]] = {}
        self._events: list[dict[str, Any]] = []
        #: Called with the parameters of each ``Fetch.requestPaused`` event.
        self.on_request: Any = None
        #: Called with the parameters of each ``Network.requestWillBeSent`` event.
        self.on_network_request: Any = None
        self._unawaited: set[int] = set()

    def close(self) -> None:
        """Close this side of both pipes (Chromium then exits)."""
        for fd in (self._out, self._in):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._out = self._in = -1

    def send(self, method: str, params: dict[str, Any] | None = None, *,
             session: str | None = None) -> int:
        """Send a command without waiting; return its id."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method,
                                   "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                data = data[os.write(self._out, data):]
        except OSError as exc:
            raise BrowserGoneError(f"chromium closed its DevTools pipe ({exc})") from None
        return self._next_id

    def send_unawaited(self, method: str, params: dict[str, Any], *,
                       session: str | None = None) -> None:
        """Send a command whose reply (success or error) is dropped when it arrives."""
        self._unawaited.add(self.send(method, params, session=session))

    def _read_some(self, deadline: float) -> bool:
        """Read what Chromium wrote, waiting until ``deadline``; False on time out."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([self._in], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(self._in, 1 << 20)
        except OSError as exc:
            raise BrowserGoneError(f"chromium's DevTools pipe failed ({exc})") from None
        if not chunk:
            raise BrowserGoneError("chromium exited")
        self._buffer += chunk
        if b"\0" not in chunk:  # a long message (a screenshot) still arriving
            return True
        *messages, self._buffer = self._buffer.split(b"\0")
        for raw in messages:
            message = json.loads(raw)
            if "id" in message:
                if int(message["id"]) in self._unawaited:
                    self._unawaited.discard(int(message["id"]))
                else:
                    self._replies[int(message["id"])] = message
            elif message.get("method") == "Fetch.requestPaused" and self.on_request:
                self.on_request(message.get("params", {}))
            elif (message.get("method") == "Network.requestWillBeSent"
                  and self.on_network_request):
                self.on_network_request(message.get("params", {}))
            elif message.get("method") in _CRASH_EVENTS:
                raise BrowserGoneError(f"the page crashed ({message['method']})")
            else:
                self._events.append(message)
        return True

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             session: str | None = None, timeout_s: float = 30.0) -> dict[str, Any]:
        """Send a command and wait for its result.

        Raises
        ------
        DevToolsError
            Chromium answered with an error.
        TimeoutError
            No answer within ``timeout_s``.
        BrowserGoneError
            Chromium exited.
        """
        command_id = self.send(method, params, session=session)
        deadline = time.monotonic() + timeout_s
        while command_id not in self._replies:
            if not self._read_some(deadline):
                raise TimeoutError(f"chromium did not answer {method} within {timeout_s:g} s")
        reply = self._replies.pop(command_id)
        if "error" in reply:
            raise DevToolsError(f"{method}: {reply['error'].get('message', reply['error'])}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def wait_event(self, method: str, *, session: str | None = None,
                   timeout_s: float = 30.0) -> dict[str, Any]:
        """Wait for an event (ones seen earlier count); return its parameters."""
        deadline = time.monotonic() + timeout_s
        while True:
            for index, event in enumerate(self._events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self._events[: index + 1]
                    params: dict[str, Any] = event.get("params", {})
                    return params
            self._events.clear()
            if not self._read_some(deadline):
                raise TimeoutError(f"no {method} within {timeout_s:g} s")

    def drop_events(self) -> None:
        """Forget the events received so far."""
        self._events.clear()


def _wrap_body(body: str) -> str:
    """Turn a JavaScript function body into an expression that calls it."""
    return f"(function () {{\n{body}\n}})()"


def _ready_promise(ready_js: str) -> str:
    """A promise that resolves once ``ready_js`` returns true, checking every 20 ms."""
    return (
        "new Promise(function (resolve) {\n"
        "  function check() {\n"
        "    var ok = false;\n"
        f"    try {{ ok = !!{_wrap_body(ready_js)}; }} catch (e) {{ ok = false; }}\n"
        "    if (ok) { resolve(true); } else { setTimeout(check, 20); }\n"
        "  }\n"
        "  check();\n"
        "})"
    )


class Browser:
    """A headless Chromium whose viewport is exactly ``width`` x ``height`` CSS pixels.

    Parameters
    ----------
    width, height : int, optional
        Viewport (and screenshot) size in pixels; the device scale factor is 1.
    chromium : pathlib.Path, optional
        The binary (default: :func:`default_chromium`, read when the browser starts:
        the headless shell where installed, else the full browser). A missing one
        raises :class:`RenderError` then.
    timeout_s : float, optional
        Longest wait for a page to become ready.
    fast_png : bool, optional
        Have Chromium encode screenshots for speed (about twice as fast, files about
        20% larger, the same pixels); ``False`` compresses harder.
    extra_flags : sequence of str, optional
        More Chromium flags (tests use ``--log-net-log=FILE``).
    record_requests : bool, optional
        Record the URL of every request the pages make, read with :meth:`requests`:
        where files are served (:attr:`serves_files`) from the ``Fetch`` interception
        that every request passes through (refused ones included), else from DevTools
        ``Network.requestWillBeSent`` events on the pipe.

    Notes
    -----
    Chromium starts lazily on the first capture (or :meth:`start`); use the browser
    as a context manager or call :meth:`close`. Start it from the thread that will
    outlive it (the kernel kills it when that thread exits).
    """

    def __init__(
        self,
        *,
        width: int = 1366,
        height: int = 768,
        chromium: Path | None = None,
        timeout_s: float = 30.0,
        fast_png: bool = True,
        extra_flags: tuple[str, ...] = (),
        record_requests: bool = False,
    ) -> None:
        self.width = width
        self.height = height
        self.chromium = Path(chromium) if chromium is not None else None
        self.timeout_s = timeout_s
        self.fast_png = fast_png
        self.extra_flags = tuple(extra_flags)
        self._pipe: DevToolsPipe | None = None
        self._session: str | None = None
        self._scratch: Path | None = None
        self._allowed: list[Path] = []
        self._account: tuple[int, int] | None = None
        self.record_requests = record_requests
        self._requests: list[str] = []
        #: How many times Chromium was started (1 after the first capture).
        self.starts = 0
        #: The binary it was last started from (None before its first start).
        self.binary: Path | None = None
        #: The key of the page the document was loaded from, while updates may run in it.
        self._page_key: str | None = None
        self._updates = 0
        #: Captures that loaded their page, and captures shown by an in-place update.
        self.loads = 0
        self.updates = 0

    # -- lifecycle -------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a Chromium session is open."""
        return self._pipe is not None

    @property
    def pid(self) -> int | None:
        """Chromium's main process id while it runs."""
        return self._pipe.process.pid if self._pipe is not None else None

    @property
    def scratch_dir(self) -> Path | None:
        """The private folder with Chromium's profile and temporary files, while running."""
        return self._scratch

    @property
    def serves_files(self) -> bool:
        """Whether pages load from :data:`LOCAL_ORIGIN` (cartoqa runs as root)."""
        return os.geteuid() == 0

    @property
    def allowed(self) -> tuple[Path, ...]:
        """The folders whose files are served under :data:`LOCAL_ORIGIN`."""
        return tuple(self._allowed)

    def allow(self, *folders: Path) -> None:
        """Let pages load the files inside ``folders`` (used when serving files).

        Parameters
        ----------
        *folders : pathlib.Path
            Folders (links resolved) whose files, and their sub-folders' files, of
            the types in :data:`SERVED_TYPES` the page may load.
        """
        for folder in folders:
            resolved = Path(folder).resolve()
            if resolved == Path(resolved.anchor):
                raise ValueError("refusing to serve the whole file system")
            if resolved not in self._allowed:
                self._allowed.append(resolved)

    def url_for(self, uri: str) -> str:
        """The URL under which the browser loads a ``file://`` URI (or URL template).

        Parameters
        ----------
        uri : str
            A ``file:///...`` URI, or a Leaflet template such as ``file:///t/{z}/{x}/{y}.png``.

        Returns
        -------
        str
            ``uri`` itself when Chromium runs as this user; else the same path under
            :data:`LOCAL_ORIGIN`.
        """
        if self.serves_files and uri.startswith("file:///"):
            return LOCAL_ORIGIN + uri[len("file://"):]
        return uri

    def _served_file(self, url: str) -> Path | None:
        """The allowed file a :data:`LOCAL_ORIGIN` URL names, else ``None``."""
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" != LOCAL_ORIGIN or parts.query:
            return None
        wanted = Path(unquote(parts.path))
        if not wanted.is_absolute() or wanted.suffix.lower() not in SERVED_TYPES:
            return None
        path = wanted.resolve()
        if not any(path.is_relative_to(folder) for folder in self._allowed):
            return None
        return path

    def _answer_request(self, params: dict[str, Any]) -> None:
        """Answer one paused request: an allowed file's bytes, or a failure."""
        assert self._pipe is not None
        request_id = params.get("requestId")
        url = str(params.get("request", {}).get("url", ""))
        if self.record_requests:
            self._requests.append(url)
        path = self._served_file(url)
        body: bytes | None = None
        if path is not None:
            try:
                body = path.read_bytes()
            except OSError:
                body = None
        if body is None:
            self._pipe.send_unawaited(
                "Fetch.failRequest",
                {"requestId": request_id,
                 "errorReason": "Failed" if path is not None else "AccessDenied"},
                session=self._session)
            return
        assert path is not None
        self._pipe.send_unawaited(
            "Fetch.fulfillRequest",
            {"requestId": request_id, "responseCode": 200,
             "responseHeaders": [
                 {"name": "Content-Type", "value": SERVED_TYPES[path.suffix.lower()]},
                 {"name": "Cache-Control", "value": "no-store"}],
             "body": base64.b64encode(body).decode("ascii")},
            session=self._session)

    def _note_request(self, params: dict[str, Any]) -> None:
        """Record the URL of a ``Network.requestWillBeSent`` event."""
        self._requests.append(str(params.get("request", {}).get("url", "")))

    def requests(self) -> list[str]:
        """URLs requested since the last call (needs ``record_requests=True``).

        Returns
        -------
        list of str
            Every URL the pages asked for, in order (``data:`` URLs only where files
            are not served); empty when the browser does not record requests.
        """
        urls, self._requests = self._requests, []
        return urls

    def flags(self, binary: Path | None = None) -> list[str]:
        """The command-line flags Chromium is started with (profile folder excluded).

        Parameters
        ----------
        binary : pathlib.Path, optional
            The binary they are for (default: the one this browser starts): the full
            browser also gets :data:`FULL_BROWSER_FLAGS`.
        """
        binary = binary or self.chromium or default_chromium()
        flags = list(CHROMIUM_FLAGS)
        if not is_headless_shell(binary):
            flags.extend(FULL_BROWSER_FLAGS)
        flags.append(f"--window-size={self.width},{self.height}")
        flags.extend(self.extra_flags)
        return flags

    def start(self) -> None:
        """Start Chromium if it is not running.

        Raises
        ------
        RenderError
            If chromium is missing or does not start.
        """
        if self._pipe is not None:
            return
        chromium = _require_binary(self.chromium or default_chromium())
        self.binary = chromium
        account = browser_account()
        # Chromium's SingletonSocket lands at <scratch>/org.chromium.Chromium.XXXXXX/
        # SingletonSocket, and a unix socket path has at most 107 characters.
        base = Path(tempfile.gettempdir())
        scratch = private_tempdir("browser", folder=None if len(str(base)) <= MAX_TMPDIR
                                  else Path("/tmp"),
                                  owner=account[0] if account else None)
        argv = [str(chromium), *self.flags(chromium), f"--user-data-dir={scratch / 'profile'}",
                "--remote-debugging-pipe", "about:blank"]
        # Pipe 1: commands, read by Chromium on fd 3. Pipe 2: replies, written on fd 4.
        cmd_read, cmd_write = os.pipe()
        reply_read, reply_write = os.pipe()
        parent = os.getpid()

        def in_child() -> None:
            die_with_parent(parent)
            # Move the two ends out of the way first so that no dup2 clobbers the other;
            # dup2 makes 3 and 4 inheritable, every other descriptor is close-on-exec.
            high_read = os.dup2(cmd_read, 1000)
            high_write = os.dup2(reply_write, 1001)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)
            os.close(high_read)
            os.close(high_write)

        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CHROME", "GOOGLE_"))}
        # Chromium's shared-memory files and its SingletonSocket go here (the socket's
        # path must stay under the 107 characters a unix socket allows: no subfolder).
        env["TMPDIR"] = str(scratch)
        env["HOME"] = str(scratch)
        log = open(scratch / "chromium.log", "wb")  # noqa: SIM115 - closed just below
        try:
            # As root: drop to the browser user (groups cleared) before in_child runs,
            # so the parent-death signal, which a change of user clears, is set after.
            process = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=log, env=env, cwd=scratch, close_fds=False,
                preexec_fn=in_child,
                user=account[0] if account else None,
                group=account[1] if account else None,
                extra_groups=[] if account else None,
            )
        except OSError as exc:
            shutil.rmtree(scratch, ignore_errors=True)
            raise RenderError(f"chromium did not start: {exc}", _MISSING_FIX) from exc
        finally:
            log.close()
            os.close(cmd_read)
            os.close(reply_write)
        pipe = DevToolsPipe(process, cmd_write, reply_read)
        self._pipe, self._scratch, self._account = pipe, scratch, account
        try:
            target = pipe.call("Target.createTarget", {"url": "about:blank"},
                               timeout_s=START_TIMEOUT_S)
            attached = pipe.call("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True})
            session = str(attached["sessionId"])
            pipe.call("Target.setDiscoverTargets", {"discover": True})
            pipe.call("Inspector.enable", session=session)
            pipe.call("Page.enable", session=session)
            if self.record_requests and account is None:
                pipe.on_network_request = self._note_request
                pipe.call("Network.enable", session=session)
            if account is not None:
                # Every request of the page pauses here; _answer_request decides.
                self._session = session
                pipe.on_request = self._answer_request
                pipe.call("Fetch.enable", {"patterns": [{"urlPattern": "*"}]},
                          session=session)
            pipe.call("Emulation.setDeviceMetricsOverride",
                      {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                       "mobile": False}, session=session)
        except _START_FAILURES as exc:
            said = _last_error(scratch / "chromium.log")
            self.close()
            raise RenderError(
                f"chromium did not start: {exc}" + (f" ({said})" if said else ""),
                "check that chromium runs: chromium --headless=new --dump-dom about:blank",
            ) from exc
        self._session = session
        self.starts += 1

    def close(self) -> None:
        """Quit Chromium and remove its private folder (safe to call twice)."""
        pipe, self._pipe, self._session = self._pipe, None, None
        scratch, self._scratch = self._scratch, None
        self._page_key = None
        if pipe is not None:
            process = pipe.process
            family = [process.pid, *descendant_pids(process.pid)]
            with contextlib.suppress(*_START_FAILURES):
                pipe.send("Browser.close")
            pipe.close()  # Chromium also exits when its pipe closes
            try:
                process.wait(QUIT_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            # Helper processes (renderer, GPU, zygote) follow; kill any that lingers.
            if not wait_for_exit(family[1:], QUIT_TIMEOUT_S):
                for pid in family[1:]:
                    if _is_chromium(pid):
                        with contextlib.suppress(OSError):
                            os.kill(pid, signal.SIGKILL)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter exit
        with contextlib.suppress(Exception):
            self.close()

    # -- capture ---------------------------------------------------------------------

    def capture(
        self, url: str, *, ready_js: str, probe_js: str | None = None,
        update: InPlaceUpdate | None = None,
    ) -> tuple[bytes, Any]:
        """Load a page, wait until it is ready, then screenshot it and run a probe script.

        Parameters
        ----------
        url : str
            The page (a ``file://`` URL).
        ready_js : str
            JavaScript body returning true once the page is ready to shoot.
        probe_js : str, optional
            JavaScript body whose return value (JSON-like) is returned with the image.
        update : InPlaceUpdate, optional
            Show the page by running ``update.script`` in the current document instead
            of loading ``url``, when that document was loaded from a page of the same
            ``update.key`` (and fewer than :data:`RELOAD_AFTER` updates ago); the
            caller vouches that both ways give the same pixels. Otherwise ``url`` is
            loaded as without it.

        Returns
        -------
        tuple
            ``(png_bytes, probe_result)``; the PNG is exactly ``width`` x ``height``.

        Raises
        ------
        RenderError
            If the page is not ready within ``timeout_s`` or Chromium fails twice.
        """
        try:
            return self._capture_once(url, ready_js=ready_js, probe_js=probe_js,
                                      update=update)
        except RenderError:
            raise
        except _CRASHES:
            # Chromium crashed: start a fresh one and retry once.
            self.close()
            try:
                return self._capture_once(url, ready_js=ready_js, probe_js=probe_js,
                                          update=update)
            except _CRASHES as exc:
                self.close()
                raise RenderError(
                    f"chromium failed twice while rendering {url}: {exc}",
                    "check that chromium runs: chromium --headless=new --dump-dom about:blank",
                ) from exc

    def _evaluate(self, expression: str, *, await_promise: bool = False,
                  timeout_s: float = 30.0) -> Any:
        assert self._pipe is not None
        result = self._pipe.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": await_promise},
            session=self._session, timeout_s=timeout_s,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise RenderError(f"a script on the map page failed: {text}",
                              "report this as a bug in renderers")
        return result.get("result", {}).get("value")

    def _navigate(self, url: str) -> None:
        """Load ``url`` in the page and wait for its load event."""
        pipe = self._pipe
        assert pipe is not None
        pipe.drop_events()
        navigated = pipe.call("Page.navigate", {"url": url}, session=self._session,
                              timeout_s=self.timeout_s)
        if navigated.get("errorText") == "net::ERR_ABORTED":
            # The renderer or its zygote died (seen with the sandbox on): a new
            # browser is the way out.
            raise BrowserGoneError(f"chromium aborted loading {url}")
        if navigated.get("errorText"):
            raise RenderError(f"chromium could not open {url}: {navigated['errorText']}",
                              "check that the page file exists")
        pipe.wait_event("Page.loadEventFired", session=self._session,
                        timeout_s=self.timeout_s)

    def _capture_once(
        self, url: str, *, ready_js: str, probe_js: str | None,
        update: InPlaceUpdate | None = None,
    ) -> tuple[bytes, Any]:
        self.start()
        pipe = self._pipe
        assert pipe is not None
        in_place = (update is not None and self._page_key == update.key
                    and self._updates < RELOAD_AFTER)
        # Until this capture is ready, the document is of no known kind: a failure below
        # (a script error, a time-out, a crash) makes the next capture load its page.
        self._page_key = None
        try:
            if in_place:
                assert update is not None
                if self._updates % PURGE_EVERY == PURGE_EVERY - 1:
                    pipe.send_unawaited("Memory.simulatePressureNotification",
                                        {"level": "critical"}, session=self._session)
                self._evaluate(update.script, timeout_s=self.timeout_s)
            else:
                self._navigate(self.url_for(url))
            self._evaluate(_ready_promise(ready_js), await_promise=True,
                           timeout_s=self.timeout_s)
        except TimeoutError as exc:
            self.close()  # the page may still run its wait: start afresh next time
            raise RenderError(
                f"the map page was not ready after {self.timeout_s:g} s: {url}",
                "check that the tile files exist and are readable",
            ) from exc
        if update is not None:
            self._page_key = update.key
        if in_place:
            self._updates += 1
            self.updates += 1
        else:
            self._updates = 0
            self.loads += 1
        probe = self._evaluate(_wrap_body(probe_js)) if probe_js else None
        shot = pipe.call(
            "Page.captureScreenshot",
            {"format": "png", "optimizeForSpeed": self.fast_png, "captureBeyondViewport": False},
            session=self._session, timeout_s=self.timeout_s,
        )
        png = base64.b64decode(shot["data"])
        size = Image.open(io.BytesIO(png)).size
        if size != (self.width, self.height):
            raise RenderError(
                f"the screenshot is {size[0]}x{size[1]}, not {self.width}x{self.height}",
                "report this as a bug in renderers.browser",
            )
        return png, probe


def _last_error(log: Path) -> str:
    """The last FATAL or ERROR line Chromium wrote, without its prefix."""
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return ""
    for marker in (":FATAL:", ":ERROR:"):
        found = [line for line in lines if marker in line]
        if found:
            return found[-1].split("] ", 1)[-1][:200]
    return ""


def _is_chromium(pid: int) -> bool:
    try:
        return b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
