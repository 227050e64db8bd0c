"""Pure functions for OpenAI-compatible chat-completion requests and responses."""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cartoqa.limits import without_surrogates


def chat_completions_url(endpoint: str) -> str:
    """Return the ``/chat/completions`` URL for an endpoint given in any usual form.

    ``http://host:8000``, ``http://host:8000/v1`` and
    ``http://host:8000/v1/chat/completions`` all give the last form.

    Parameters
    ----------
    endpoint : str
        The server's base URL, its ``/v1`` URL, or the full chat-completions URL.

    Returns
    -------
    str
        The chat-completions URL.

    Raises
    ------
    ValueError
        The endpoint is not an ``http://`` or ``https://`` URL.

    Examples
    --------
    >>> chat_completions_url("http://127.0.0.1:8000/v1/")
    'http://127.0.0.1:8000/v1/chat/completions'
    >>> chat_completions_url("https://api.example.com")
    'https://api.example.com/v1/chat/completions'
    >>> chat_completions_url("http://[::1")
    Traceback (most recent call last):
    ...
    ValueError: endpoint 'http://[::1' is not a valid URL (Invalid IPv6 URL)
    """
    url = endpoint.strip()
    if not url.lower().startswith(("http://", "https://")):
        raise ValueError(f"endpoint must start with http:// or https://, got {endpoint!r}")
    import urllib.parse

    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError as exc:
        raise ValueError(f"endpoint {endpoint!r} is not a valid URL ({exc})") from None
    if not parts.hostname or any(c in url for c in "\0\r\n\t "):
        raise ValueError(f"endpoint {endpoint!r} is not a valid URL (no host, or a "
                         "space or control character)")
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1") or "/v1/" in url.split("://", 1)[1]:
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


def image_data_url(data: bytes, mime: str = "image/png") -> str:
    """Encode image bytes as a base64 ``data:`` URL.

    Parameters
    ----------
    data : bytes
        The image file's bytes.
    mime : str
        Its MIME type.

    Returns
    -------
    str
        ``data:<mime>;base64,<...>``.

    Examples
    --------
    >>> image_data_url(b"abc")
    'data:image/png;base64,YWJj'
    """
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def build_payload(
    item: dict[str, Any],
    *,
    model: str,
    image_url: str | Sequence[str],
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """Build the chat-completions request body for one item.

    The item's ``system_prompt`` (when not empty) is the system message; the user
    message holds the image and then the item's ``question``. Temperature is 0.
    Several images (a multi-map item) go in one message, in order, each after a
    ``Map k:`` text part so that the question can refer to them.

    Parameters
    ----------
    item : dict
        One dataset item.
    model : str
        The model name the server knows.
    image_url : str or sequence of str
        The image as a data URL (see :func:`image_data_url`), or the images in order.
    max_tokens : int, optional
        A cap on the answer length; omitted from the request when None.

    Returns
    -------
    dict
        The JSON body.
    """
    messages: list[dict[str, Any]] = []
    system = item.get("system_prompt")
    if system:
        messages.append({"role": "system", "content": str(system)})
    urls = [image_url] if isinstance(image_url, str) else list(image_url)
    content: list[dict[str, Any]] = []
    for k, url in enumerate(urls, start=1):
        if len(urls) > 1:
            content.append({"type": "text", "text": f"Map {k}:"})
        content.append({"type": "image_url", "image_url": {"url": url}})
    content.append({"type": "text", "text": str(item["question"])})
    messages.append({"role": "user", "content": content})
    payload: dict[str, Any] = {"model": model, "messages": messages, "temperature": 0}
    if max_tokens is not None:
        payload["max_tokens"] = int(max_tokens)
    return payload


@dataclass(frozen=True)
class Completion:
    """The useful part of one chat-completions response.

    Attributes
    ----------
    text : str
        The first choice's message content ("" when the server sent none).
    usage : dict or None
        The server's token counts, when it reported them.
    finish_reason : str or None
        Why generation stopped, when reported.
    """

    text: str
    usage: dict[str, Any] | None
    finish_reason: str | None


def parse_completion(body: Any) -> Completion:
    """Extract the answer text from a chat-completions response body.

    Parameters
    ----------
    body : Any
        The decoded JSON response.

    Returns
    -------
    Completion
        Text, usage and finish reason. Content given as a list of parts is joined.

    Raises
    ------
    ValueError
        The body has no ``choices[0].message``.
    """
    if not isinstance(body, dict):
        raise ValueError("response is not a JSON object")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("response has no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise ValueError("response choice has no message")
    content = message.get("content")
    if content is None:
        text = ""
    elif isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(
            str(part.get("text", "")) for part in content if isinstance(part, dict)
        )
    else:
        raise ValueError("response message content is neither text nor a list of parts")
    text = without_surrogates(text)  # "\ud800" in JSON: kept as U+FFFD, writable as UTF-8
    usage = body.get("usage")
    if isinstance(usage, dict):
        try:  # NaN, Infinity or lone surrogates would make the predictions file not JSON
            json.dumps(usage, allow_nan=False).encode("utf-8")
        except (ValueError, UnicodeEncodeError):
            usage = None
    finish = choices[0].get("finish_reason")
    return Completion(
        text=text,
        usage=usage if isinstance(usage, dict) else None,
        finish_reason=without_surrogates(finish) if isinstance(finish, str) else None,
    )
