"""HTTP for one chat-completions request, with retries and backoff (standard library)."""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cartoqa import __version__
from cartoqa.errors import CartoqaError
from cartoqa.limits import (
    MAX_REFUSED_RETRIES,
    MAX_RESPONSE_BYTES,
    REFUSED_RETRY_WAIT_S,
    loads_json,
    redact,
)
from cartoqa.runner.backoff import (
    FATAL_STATUS,
    backoff_delay,
    is_retryable_status,
    parse_retry_after,
)
from cartoqa.runner.request import Completion, parse_completion


class EndpointError(CartoqaError):
    """The endpoint refused the whole run (bad key, unknown model or URL): stop."""


class ItemFailedError(Exception):
    """One item could not be answered (a non-retryable error or retries used up).

    Parameters
    ----------
    reason : str
        What went wrong, in one line.
    attempts : int
        How many requests were made.
    rejected : bool
        True when the server refused the request itself (a non-retryable 4xx).
    """

    def __init__(self, reason: str, attempts: int, *, rejected: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.attempts = attempts
        self.rejected = rejected


class CancelledError(Exception):
    """The run is stopping; the request was abandoned."""


@dataclass(frozen=True)
class Answer:
    """A completion plus how it was obtained.

    Attributes
    ----------
    completion : Completion
        Text, usage and finish reason.
    attempts : int
        Requests made, the successful one included.
    latency_s : float
        Seconds taken by the successful request.
    """

    completion: Completion
    attempts: int
    latency_s: float


@dataclass(frozen=True)
class RetryPolicy:
    """How failed requests are retried.

    Attributes
    ----------
    max_retries : int
        Retries after the first attempt.
    base_s : float
        Exponential backoff scale in seconds.
    cap_s : float
        Largest exponential delay in seconds.
    timeout_s : float
        Total time for one request, in seconds: connecting, sending and reading the
        whole answer (a server that trickles bytes does not extend it).
    """

    max_retries: int = 6
    base_s: float = 1.0
    cap_s: float = 60.0
    timeout_s: float = 120.0


class _RefusedError(Exception):
    """Nothing listens at the endpoint (connection refused, no such host)."""


class _RetryableError(Exception):
    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def _error_detail(exc: urllib.error.HTTPError, secret: str | None) -> str:
    try:
        raw = exc.read(2000)
    except (OSError, http.client.HTTPException):
        return ""
    text = raw.decode("utf-8", "replace").strip().replace("\n", " ")
    text = redact(text, secret)  # a 401 body may echo the key
    return f": {text[:200]}" if text else ""


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: the request (and its key) goes only to the URL given."""

    def redirect_request(self, req: urllib.request.Request, fp: Any, code: int, msg: str,
                         headers: Any, newurl: str) -> None:
        return None  # urllib then raises the 3xx as an HTTPError


class _Sockets:
    """The sockets of the requests in flight, per thread, so that a deadline or a stop
    can cut them (a blocked ``recv`` returns at once when its socket is shut down)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open: dict[int, socket.socket] = {}
        self._cut: set[int] = set()
        self.stopped = False

    def register(self, sock: socket.socket) -> None:
        key = threading.get_ident()
        with self._lock:
            self._open[key] = sock
            cut = self.stopped or key in self._cut
        if cut:
            _shutdown(sock)

    def begin(self) -> None:
        with self._lock:
            self._cut.discard(threading.get_ident())

    def end(self) -> None:
        with self._lock:
            self._open.pop(threading.get_ident(), None)

    def cut(self, key: int) -> None:
        with self._lock:
            self._cut.add(key)
            sock = self._open.get(key)
        if sock is not None:
            _shutdown(sock)

    def cut_all(self) -> None:
        with self._lock:
            self.stopped = True
            socks = list(self._open.values())
        for sock in socks:
            _shutdown(sock)


def _shutdown(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


_SOCKETS = threading.local()


def _registry() -> _Sockets | None:
    return getattr(_SOCKETS, "registry", None)


class _TrackedHTTPConnection(http.client.HTTPConnection):
    def connect(self) -> None:
        super().connect()
        registry = _registry()
        if registry is not None:
            registry.register(self.sock)


class _TrackedHTTPSConnection(http.client.HTTPSConnection):
    def connect(self) -> None:
        super().connect()
        registry = _registry()
        if registry is not None:
            registry.register(self.sock)


class _HTTPHandler(urllib.request.HTTPHandler):
    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_TrackedHTTPConnection, req)


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def https_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(_TrackedHTTPSConnection, req,
                            context=self._context)  # type: ignore[attr-defined]


#: An opener that never follows redirects (urllib's default follows 301/302/303
#: to any host and re-sends the Authorization header there), and whose sockets a
#: deadline or a stop can cut.
_OPENER = urllib.request.build_opener(_RefuseRedirects, _HTTPHandler, _HTTPSHandler)


def _refused(reason: object) -> bool:
    """Whether a URLError's reason means nothing listens (or the host does not exist)."""
    return isinstance(reason, ConnectionRefusedError | socket.gaierror) or (
        isinstance(reason, OSError) and reason.errno in (111, 113)
    )


class ChatClient:
    """Posts chat-completions requests to one URL, retrying transient failures.

    Retried: HTTP 408, 425, 429 and 5xx (honouring ``Retry-After``), timeouts,
    refused or dropped connections, and unreadable bodies. Not retried: 401, 403 and
    404 (:class:`EndpointError`, the run stops) and other 4xx (:class:`ItemFailedError`).

    Parameters
    ----------
    url : str
        The chat-completions URL.
    api_key : str, optional
        Sent as ``Authorization: Bearer <key>`` when given.
    policy : RetryPolicy
        Retries, backoff and timeout.
    wait : callable, optional
        ``wait(seconds) -> bool`` sleeps and returns True when the run is stopping
        (e.g. ``threading.Event().wait``); plain sleep when omitted.
    rng : random.Random, optional
        Jitter source.
    """

    def __init__(
        self,
        url: str,
        *,
        api_key: str | None = None,
        policy: RetryPolicy | None = None,
        wait: Callable[[float], bool] | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.url = url
        self._api_key = api_key
        parts = urllib.parse.urlsplit(url)
        #: The URL as messages show it: without a ``user:password@`` part.
        self.shown_url = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        self.policy = policy or RetryPolicy()
        self._wait = wait or self._sleep
        self._rng = rng or random.Random()
        self._sockets = _Sockets()

    @staticmethod
    def _sleep(seconds: float) -> bool:
        time.sleep(seconds)
        return False

    def _headers(self) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"cartoqa/{__version__}",
        }
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def stop(self) -> None:
        """Cut every request in flight: a stopping run does not wait for the server."""
        self._sockets.cut_all()

    def _post_once(self, data: bytes) -> Any:
        """One request within the total deadline ``policy.timeout_s``; the decoded body."""
        request = urllib.request.Request(self.url, data=data, headers=self._headers(),
                                         method="POST")
        registry = self._sockets
        _SOCKETS.registry = registry
        registry.begin()
        expired = threading.Event()
        key = threading.get_ident()

        def expire() -> None:
            expired.set()
            registry.cut(key)

        timer = threading.Timer(self.policy.timeout_s, expire)
        timer.daemon = True
        timer.start()
        try:
            return self._exchange(request, expired)
        finally:
            timer.cancel()
            registry.end()
            _SOCKETS.registry = None

    def _exchange(self, request: urllib.request.Request, expired: threading.Event) -> Any:
        timeout = self.policy.timeout_s
        late = f"no complete answer within {timeout:g} s"
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                length = response.headers.get("Content-Length")
                if length and length.strip().isdigit() and int(length) > MAX_RESPONSE_BYTES:
                    raise ItemFailedError(
                        f"the response is {int(length)} bytes, more than the limit of "
                        f"{MAX_RESPONSE_BYTES} bytes", attempts=0)
                chunks: list[bytes] = []
                size = 0
                while True:
                    chunk = response.read(65536)
                    if not chunk:
                        break
                    size += len(chunk)
                    if size > MAX_RESPONSE_BYTES:
                        raise ItemFailedError(
                            f"the response is longer than the limit of {MAX_RESPONSE_BYTES} "
                            "bytes", attempts=0)
                    chunks.append(chunk)
                raw = b"".join(chunks)
                if expired.is_set():
                    raise _RetryableError(late)
        except urllib.error.HTTPError as exc:
            status = exc.code
            if 300 <= status < 400:
                location = exc.headers.get("Location") if exc.headers else None
                exc.close()
                target = urllib.parse.urljoin(self.url, location) if location else "nowhere"
                raise EndpointError(
                    f"the endpoint answered HTTP {status}, a redirect to "
                    f"{redact(target, self._api_key)}; cartoqa follows no redirect, so that "
                    "the key is only sent where you said",
                    fix="check that URL and pass it as --endpoint if you trust it",
                ) from None
            retry_after = parse_retry_after(exc.headers.get("Retry-After") if exc.headers
                                            else None, now=time.time())
            detail = _error_detail(exc, self._api_key)
            exc.close()
            if status in FATAL_STATUS:
                fixes = {
                    401: "set CARTOQA_API_KEY (or OPENAI_API_KEY) to a valid key",
                    403: "check that the key may use this model",
                    404: "check --endpoint (the server's /v1 URL) and --model",
                }
                raise EndpointError(f"the endpoint answered HTTP {status}{detail}",
                                    fix=fixes[status]) from None
            if is_retryable_status(status):
                raise _RetryableError(f"HTTP {status}{detail}", retry_after) from None
            raise ItemFailedError(f"HTTP {status}{detail}", attempts=0, rejected=True) from None
        except urllib.error.URLError as exc:
            if self._sockets.stopped:
                raise CancelledError() from None
            if expired.is_set():
                raise _RetryableError(late) from None
            if _refused(exc.reason):
                raise _RefusedError(f"cannot connect to {self.shown_url}: {exc.reason}") from None
            raise _RetryableError(f"connection failed: {exc.reason}") from None
        except TimeoutError:
            raise _RetryableError(late) from None
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if self._sockets.stopped:
                raise CancelledError() from None
            if expired.is_set():
                raise _RetryableError(late) from None
            raise _RetryableError(f"connection dropped: {type(exc).__name__}: {exc}") from None
        try:
            return loads_json(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise _RetryableError("the response body is not JSON") from None
        except ValueError as exc:  # JsonTooDeepError
            raise ItemFailedError(f"the response is not usable: {exc}", attempts=0) from None

    def complete(self, payload: dict[str, Any]) -> Answer:
        """Send one request, retrying transient failures.

        Parameters
        ----------
        payload : dict
            The request body (see :func:`cartoqa.runner.request.build_payload`).

        Returns
        -------
        Answer
            The completion and how many attempts it took.

        Raises
        ------
        EndpointError
            HTTP 401, 403 or 404: the run cannot work.
        ItemFailedError
            A non-retryable error, or every retry failed.
        CancelledError
            The ``wait`` callable reported that the run is stopping.
        """
        try:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ItemFailedError("the item's text holds a lone surrogate, which cannot be "
                                  "sent as UTF-8", attempts=0, rejected=True) from None
        attempts = 0
        refused = 0
        while True:
            attempts += 1
            started = time.monotonic()
            try:
                body = self._post_once(data)
                completion = parse_completion(body)
                return Answer(completion, attempts, time.monotonic() - started)
            except ItemFailedError as exc:
                raise ItemFailedError(exc.reason, attempts, rejected=exc.rejected) from None
            except _RefusedError as exc:
                refused += 1
                if refused > MAX_REFUSED_RETRIES:
                    raise EndpointError(
                        f"{exc} ({refused} attempts); nothing listens there",
                        fix="start the server, or check --endpoint") from None
                if self._wait(REFUSED_RETRY_WAIT_S):
                    raise CancelledError() from None
                continue
            except (_RetryableError, ValueError) as exc:
                reason = exc.reason if isinstance(exc, _RetryableError) else f"bad response: {exc}"
                retry_after = exc.retry_after if isinstance(exc, _RetryableError) else None
                if attempts > self.policy.max_retries:
                    message = f"{reason} (after {attempts} attempts)"
                    raise ItemFailedError(message, attempts) from None
                delay = backoff_delay(attempts - 1, base=self.policy.base_s,
                                      cap=self.policy.cap_s, jitter=self._rng.random(),
                                      retry_after=retry_after)
                if self._wait(delay):
                    raise CancelledError() from None
