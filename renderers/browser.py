"""One long-lived headless Chromium, driven by Selenium, that screenshots local pages.

Starting Chromium costs about a second; loading a local page and taking a screenshot
costs a fraction of that. A :class:`Browser` starts Chromium once, sizes the viewport
exactly with DevTools (``Emulation.setDeviceMetricsOverride``), and is reused for every
capture. If Chromium dies, the next capture starts a new one and retries once.
Waiting is on a JavaScript predicate, never a fixed sleep.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import shutil
import signal
from pathlib import Path
from types import TracebackType
from typing import Any

from PIL import Image
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
from urllib3.exceptions import HTTPError as Urllib3Error

from renderers.errors import RenderError

#: Where Debian's ``chromium`` and ``chromium-driver`` packages put the binaries.
CHROMIUM_PATH = Path("/usr/bin/chromium")
CHROMEDRIVER_PATH = Path("/usr/bin/chromedriver")

#: Chromium flags: headless, no sandbox (root in containers), no GPU, no network chatter.
CHROMIUM_FLAGS: tuple[str, ...] = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)

#: What a dead Chromium or chromedriver raises through Selenium.
_CRASHES: tuple[type[Exception], ...] = (WebDriverException, Urllib3Error, ConnectionError)

_MISSING_FIX = (
    "install the Debian packages chromium and chromium-driver "
    "(sudo apt-get install chromium chromium-driver, or run scripts/install.sh)"
)


def _require_binary(path: Path, package: str) -> Path:
    """Return the resolved binary, or raise a RenderError naming the Debian package."""
    found = path if path.is_file() else None
    if found is None:
        on_path = shutil.which(path.name)
        found = Path(on_path) if on_path else None
    if found is None:
        raise RenderError(f"{path} not found: the {package} package is not installed",
                          _MISSING_FIX)
    return found


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


def _is_chromium(pid: int) -> bool:
    try:
        return b"chrom" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


class Browser:
    """A headless Chromium whose viewport is exactly ``width`` x ``height`` CSS pixels.

    Parameters
    ----------
    width, height : int, optional
        Viewport (and screenshot) size in pixels; the device scale factor is 1.
    chromium, chromedriver : pathlib.Path, optional
        The binaries (default: :data:`CHROMIUM_PATH` and :data:`CHROMEDRIVER_PATH`, read
        when the browser starts). A missing one raises :class:`RenderError` then.
    timeout_s : float, optional
        Longest wait for a page to become ready.
    fast_png : bool, optional
        Have Chromium encode screenshots for speed (about twice as fast, files about
        20% larger, the same pixels); ``False`` compresses harder.
    record_requests : bool, optional
        Record every request the pages make (DevTools ``Network`` events, through
        Chromium's performance log); read them with :meth:`requests`.

    Notes
    -----
    Chromium starts lazily on the first capture (or :meth:`start`); use the browser
    as a context manager or call :meth:`close`.
    """

    def __init__(
        self,
        *,
        width: int = 1366,
        height: int = 768,
        chromium: Path | None = None,
        chromedriver: Path | None = None,
        timeout_s: float = 30.0,
        fast_png: bool = True,
        record_requests: bool = False,
    ) -> None:
        self.width = width
        self.height = height
        self.chromium = Path(chromium) if chromium is not None else None
        self.chromedriver = Path(chromedriver) if chromedriver is not None else None
        self.timeout_s = timeout_s
        self.fast_png = fast_png
        self.record_requests = record_requests
        self._driver: webdriver.Chrome | None = None
        self._chromium_pids: list[int] = []
        #: How many times Chromium was started (1 after the first capture).
        self.starts = 0

    # -- lifecycle -------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether a Chromium session is open."""
        return self._driver is not None

    def start(self) -> None:
        """Start Chromium if it is not running.

        Raises
        ------
        RenderError
            If chromium or chromedriver is missing or does not start.
        """
        if self._driver is not None:
            return
        chromium = _require_binary(self.chromium or CHROMIUM_PATH, "chromium")
        chromedriver = _require_binary(self.chromedriver or CHROMEDRIVER_PATH, "chromium-driver")
        options = webdriver.ChromeOptions()
        options.binary_location = str(chromium)
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--window-size={self.width},{self.height}")
        if self.record_requests:
            options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
        try:
            driver = webdriver.Chrome(service=Service(str(chromedriver)), options=options)
        except WebDriverException as exc:
            first = (exc.msg or str(exc)).strip().splitlines()[0] if (exc.msg or str(exc)) else ""
            raise RenderError(f"chromium did not start: {first}", _MISSING_FIX) from exc
        try:
            driver.set_page_load_timeout(self.timeout_s)
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {"width": self.width, "height": self.height, "deviceScaleFactor": 1,
                 "mobile": False},
            )
        except WebDriverException:
            driver.quit()
            raise
        self._driver = driver
        self._chromium_pids = child_pids(driver.service.process.pid)
        self.starts += 1

    def close(self) -> None:
        """Quit Chromium (safe to call twice)."""
        driver, self._driver = self._driver, None
        if driver is not None:
            # If chromedriver is dead, quitting fails and its Chromium may be orphaned.
            with contextlib.suppress(*_CRASHES):
                driver.quit()
        pids, self._chromium_pids = self._chromium_pids, []
        for pid in pids:  # the Chromium this browser started, if it outlived chromedriver
            if _is_chromium(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

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

    def requests(self) -> list[str]:
        """URLs requested since the last call (needs ``record_requests=True``).

        Returns
        -------
        list of str
            The URL of every DevTools ``Network.requestWillBeSent`` event, in order;
            empty when the browser is not running or does not record requests.
        """
        if self._driver is None or not self.record_requests:
            return []
        urls = []
        for entry in self._driver.get_log("performance"):
            try:
                message = json.loads(entry["message"])["message"]
            except (KeyError, TypeError, ValueError):
                continue
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(str(message.get("params", {}).get("request", {}).get("url", "")))
        return urls

    # -- capture ---------------------------------------------------------------------

    def capture(
        self, url: str, *, ready_js: str, probe_js: str | None = None
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
            return self._capture_once(url, ready_js=ready_js, probe_js=probe_js)
        except RenderError:
            raise
        except _CRASHES:
            # Chromium crashed or the session was lost: start a fresh one and retry once.
            self.close()
            try:
                return self._capture_once(url, ready_js=ready_js, probe_js=probe_js)
            except _CRASHES as exc:
                self.close()
                raise RenderError(
                    f"chromium failed twice while rendering {url}: {exc}",
                    "check that chromium runs: chromium --headless=new --dump-dom about:blank",
                ) from exc

    def _capture_once(
        self, url: str, *, ready_js: str, probe_js: str | None
    ) -> tuple[bytes, Any]:
        self.start()
        driver = self._driver
        assert driver is not None
        driver.get(url)
        try:
            WebDriverWait(driver, self.timeout_s, poll_frequency=0.02).until(
                lambda d: bool(d.execute_script(ready_js))
            )
        except TimeoutException as exc:
            raise RenderError(
                f"the map page was not ready after {self.timeout_s:g} s: {url}",
                "check that the tile files exist and are readable",
            ) from exc
        probe = driver.execute_script(probe_js) if probe_js else None
        shot = driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {"format": "png", "optimizeForSpeed": self.fast_png, "captureBeyondViewport": False},
        )
        png = base64.b64decode(shot["data"])
        size = Image.open(io.BytesIO(png)).size
        if size != (self.width, self.height):
            raise RenderError(
                f"the screenshot is {size[0]}x{size[1]}, not {self.width}x{self.height}",
                "report this as a bug in renderers.browser",
            )
        return png, probe
