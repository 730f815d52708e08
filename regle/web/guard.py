"""What a request to ``regle serve`` must show before anything reads it: that it is addressed
to this server by a name it serves (no DNS rebinding), that it comes from this server's own
pages (no cross-site request), and that its body is JSON of a checked, bounded length. Each
check answers with the status and words a refused request gets, or None.
"""
from __future__ import annotations

import ipaddress
import json
import socket
import threading
import time
from http import HTTPStatus

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


class Refused(Exception):
    """A request refused before it reaches the game: its HTTP status and why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address) reaches this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host.strip("[]") in ("0.0.0.0", "::", "")


class Addresses:
    """The names a server answers to: loopback names, the ``--host`` it was given, and, when it
    listens on every interface, any IP address and this machine's own names (a DNS name chosen
    by a web page, as in DNS rebinding, is never among them)."""

    def __init__(self, host: str, port: int):
        self.port = port
        self.wildcard = is_wildcard(host)
        names = set(LOOPBACK_NAMES)
        if host and not self.wildcard:
            names.add(_bracketed(host).lower())
        if self.wildcard:
            for name in {socket.gethostname(), socket.getfqdn()}:
                if name:
                    names.add(name.lower())
        self.names = frozenset(names)

    def allows(self, authority: str | None) -> bool:
        """Whether ``host[:port]`` (a Host header, or an Origin without its scheme) is this
        server."""
        if not authority:
            return False
        host, port = _split_authority(authority.strip().lower())
        if host is None or (port is not None and port != self.port):
            return False
        if host in self.names:
            return True
        if self.wildcard:
            try:
                ipaddress.ip_address(host.strip("[]"))
                return True
            except ValueError:
                return False
        return False


def _bracketed(host: str) -> str:
    """An IPv6 address as a Host header writes it: [::1]."""
    try:
        if ipaddress.ip_address(host.strip("[]")).version == 6:
            return "[" + host.strip("[]") + "]"
    except ValueError:
        pass
    return host


def _split_authority(authority: str) -> tuple[str | None, int | None]:
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            return None, None
        host, rest = authority[:end + 1], authority[end + 1:]
    else:
        host, sep, rest = authority.partition(":")
        rest = sep + rest
    if not rest:
        return host, None
    if not rest.startswith(":") or not rest[1:].isdigit() or not rest[1:].isascii():
        return None, None
    return host, int(rest[1:])


def check_host(headers, addresses: Addresses) -> None:
    """Refuse a request addressed to a name this server does not serve (DNS rebinding)."""
    if not addresses.allows(headers.get("Host")):
        raise Refused(HTTPStatus.FORBIDDEN, "this server answers only to the names it serves "
                                            "(localhost, 127.0.0.1, [::1] or its --host)")


def check_origin(headers, addresses: Addresses) -> None:
    """Refuse a request that a page of another site made (its ``Origin`` or ``Sec-Fetch-Site``
    says so). A request with neither comes from no web page (a script, curl): it is let
    through, since no site can make a browser send one without them to another origin."""
    check_host(headers, addresses)
    host = headers.get("Host")
    origin = headers.get("Origin")
    if origin is not None:
        scheme, sep, authority = origin.partition("://")
        if not sep or scheme.lower() != "http" or not addresses.allows(authority) or authority.lower() != host.lower():
            raise Refused(HTTPStatus.FORBIDDEN, "requests come only from this server's own pages")
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        raise Refused(HTTPStatus.FORBIDDEN, "requests come only from this server's own pages")


def read_json_body(headers, stream, limit: int) -> dict:
    """The request's JSON object, read only after its Content-Type and Content-Length pass."""
    if headers.get("Transfer-Encoding"):
        raise Refused(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not in chunks")
    ctype = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
    length_text = headers.get("Content-Length")
    if length_text is None or length_text.strip() in ("", "0"):
        if ctype and ctype != "application/json":
            raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "request bodies are JSON (Content-Type: application/json)")
        return {}
    if ctype != "application/json":
        raise Refused(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "request bodies are JSON (Content-Type: application/json)")
    length_text = length_text.strip()
    if not (length_text.isascii() and length_text.isdigit()) or len(length_text) > 12:
        raise Refused(HTTPStatus.BAD_REQUEST, "Content-Length must be a whole number of bytes")
    length = int(length_text)
    if length > limit:
        raise Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"requests are at most {limit:,} bytes")
    raw = stream.read(length)
    if len(raw) != length:
        raise Refused(HTTPStatus.BAD_REQUEST, "the body is shorter than its Content-Length")
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(HTTPStatus.BAD_REQUEST, "the request body is not JSON (or is nested too deeply)") from None
    if not isinstance(body, dict):
        raise Refused(HTTPStatus.BAD_REQUEST, "the request body is a JSON object")
    return body


class RateLimit:
    """A token bucket: ``rate`` requests a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.at = time.monotonic()
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            now = time.monotonic()
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
            if self.tokens < 1:
                return False
            self.tokens -= 1
            return True
