"""The front door of ``regle serve`` and ``regle studio``: connections wait here, read by one
thread, until a whole request has arrived; only then does a worker thread handle it.

A thread per connection (the standard library's ThreadingHTTPServer) lets anyone who opens
connections and sends nothing hold a thread each, for ever: at a few hundred, new clients are
dropped. Here an idle or half-sent connection costs a socket and its few bytes, and:

- a request's head and body must arrive within ``REQUEST_SECONDS`` of its first byte (408);
- a kept-alive connection with no request is closed after ``IDLE_SECONDS``;
- a client (an address) holds at most ``PER_CLIENT`` connections, and all clients together
  ``CONNECTIONS``: past either bound the oldest connection without a request being handled is
  shed, so a newcomer always gets in and the slow clients are the ones that go;
- a head is at most ``HEAD_BYTES`` (431), a request with two Content-Length headers, or one
  and a Transfer-Encoding, is refused (400): no part of a body is ever read as a new request;
- a reply must be taken within ``WRITE_SECONDS``.

The handler is the server's own ``BaseHTTPRequestHandler`` class, given the request's bytes.
"""
from __future__ import annotations

import io
import json
import selectors
import socket
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus

REQUEST_SECONDS = 10.0
IDLE_SECONDS = 60.0
WRITE_SECONDS = 30.0
PER_CLIENT = 128
CONNECTIONS = 1024
HEAD_BYTES = 64 * 1024
WORKERS = 128  # requests handled at once (beyond the 64 long polls that may wait for changes)


class _Conn:
    """One connection: its socket, who it is from, the bytes read and not yet handled."""

    __slots__ = ("sock", "client", "address", "buf", "since", "busy", "opened")

    def __init__(self, sock: socket.socket, address):
        self.sock = sock
        self.address = address
        self.client = address[0] if isinstance(address, tuple) else str(address)
        self.buf = b""
        self.opened = time.monotonic()
        self.since = self.opened  # when its request began, or when it became idle
        self.busy = False  # a worker is handling a request of it


class _Writer(io.RawIOBase):
    """What the handler writes its reply to: the socket, written whole."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.sock.sendall(data)
        return len(data)


class Gate:
    """Reads connections on one thread; hands each complete request to a pool of workers."""

    def __init__(self, server, max_body: int):
        self.server = server
        self.max_body = max_body
        self.selector = selectors.DefaultSelector()
        self.conns: dict[socket.socket, _Conn] = {}
        self.lock = threading.Lock()  # conns and the queue below, shared with the workers
        self.returning: deque[tuple[str, _Conn]] = deque()  # ("add" | "back", conn), for the gate's thread
        self.wake_r, self.wake_w = socket.socketpair()
        self.wake_r.setblocking(False)
        self.selector.register(self.wake_r, selectors.EVENT_READ, None)
        self.workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="regle-request")
        self.stopped = False
        self.thread = threading.Thread(target=self._run, name="regle-gate", daemon=True)
        self.thread.start()

    # -- from other threads ---------------------------------------------------------------------
    def add(self, sock: socket.socket, address) -> None:
        """A connection just accepted (the server's own thread)."""
        conn = _Conn(sock, address)
        with self.lock:
            self.returning.append(("add", conn))
        self._wake()

    def stop(self) -> None:
        self.stopped = True
        self._wake()
        self.thread.join(timeout=5)
        self.workers.shutdown(wait=False, cancel_futures=True)
        for conn in list(self.conns.values()):
            if not conn.busy:  # a worker closes its own when its reply is written
                self._close(conn)
        self.selector.close()
        self.wake_r.close()
        self.wake_w.close()

    def count(self) -> int:
        """Connections open now (for tests and the curious)."""
        return len(self.conns)

    def _wake(self) -> None:
        try:
            self.wake_w.send(b"\0")
        except OSError:  # full (the gate is awake anyway) or closed (stopping)
            pass

    # -- the gate's thread ----------------------------------------------------------------------
    def _run(self) -> None:
        while not self.stopped:
            try:
                events = self.selector.select(timeout=1.0)
            except OSError:
                return
            for key, _mask in events:
                if key.data is None:
                    try:
                        while self.wake_r.recv(4096):
                            pass
                    except OSError:
                        pass
                    continue
                self._read(key.data)
            self._take_returning()
            self._sweep(time.monotonic())

    def _take_returning(self) -> None:
        with self.lock:
            returning, self.returning = self.returning, deque()
        for what, conn in returning:
            if self.stopped or what == "close":
                self._close(conn)
            elif what == "add":
                self._admit(conn)
            else:  # back from a worker, kept alive: its next request may already be here
                conn.busy = False
                conn.since = time.monotonic()
                try:
                    conn.sock.setblocking(False)
                except OSError:
                    self._close(conn)
                    continue
                if conn.buf and self._dispatch(conn):
                    continue
                if conn.sock in self.conns:
                    self._watch(conn)

    def _admit(self, conn: _Conn) -> None:
        mine = [c for c in self.conns.values() if c.client == conn.client]
        if len(mine) >= PER_CLIENT:
            shed = self._shed(mine)
            if shed is not None:
                mine.remove(shed)
        if len(self.conns) >= CONNECTIONS:
            self._shed(list(self.conns.values()))
        if len(self.conns) >= CONNECTIONS or len(mine) >= PER_CLIENT:  # every one is being handled
            self._reply(conn, 503, "this server is busy: too many connections are being handled")
            return
        conn.sock.setblocking(False)
        self.conns[conn.sock] = conn
        self._watch(conn)

    def _shed(self, among: list[_Conn]) -> _Conn | None:
        """Close the oldest connection of ``among`` that no worker is handling (None: all are
        being handled)."""
        idle = [c for c in among if not c.busy]
        if not idle:
            return None
        oldest = min(idle, key=lambda c: c.since)
        self._close(oldest)
        return oldest

    def _watch(self, conn: _Conn) -> None:
        try:
            self.selector.register(conn.sock, selectors.EVENT_READ, conn)
        except (KeyError, ValueError, OSError):
            self._close(conn)

    def _read(self, conn: _Conn) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            self._close(conn)
            return
        if not data:
            self._close(conn)
            return
        if not conn.buf:
            conn.since = time.monotonic()  # a request begins: it has REQUEST_SECONDS to arrive
        conn.buf += data
        self._dispatch(conn)

    def _dispatch(self, conn: _Conn) -> bool:
        """Hand the connection's first request to a worker if it has arrived whole (True), or
        refuse it; False while more of it is awaited."""
        end = _head_end(conn.buf)
        if end < 0:
            if len(conn.buf) > HEAD_BYTES:
                self._reply(conn, 431, "the request's head is too large")
            return False
        if end > HEAD_BYTES:
            self._reply(conn, 431, "the request's head is too large")
            return False
        lengths, chunked = _framing(conn.buf[:end])
        if len(lengths) > 1 or (lengths and chunked):
            self._reply(conn, 400, "a request has one Content-Length, or a Transfer-Encoding, not both or two")
            return False
        body = 0
        if lengths:
            text = lengths[0]
            if not (text.isdigit() and len(text) <= 12):
                self._reply(conn, 400, "Content-Length must be a whole number of bytes")
                return False
            body = int(text) if int(text) <= self.max_body else 0  # too long: refused by the handler
        if len(conn.buf) < end + body:
            return False
        request, conn.buf = conn.buf[:end + body], conn.buf[end + body:]
        conn.busy = True
        try:
            self.selector.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        # a body left unread (chunked, or over the limit) is refused and the connection closed
        close_after = chunked or (lengths and body == 0 and lengths[0] not in ("0", ""))
        try:
            self.workers.submit(self._handle, conn, request, bool(close_after))
        except RuntimeError:  # stopping
            self._close(conn)
        return True

    def _sweep(self, now: float) -> None:
        for conn in list(self.conns.values()):
            if conn.busy:
                continue
            if conn.buf and now - conn.since > REQUEST_SECONDS:
                self._reply(conn, 408, f"the request did not arrive within {REQUEST_SECONDS:.0f} s")
            elif not conn.buf and now - conn.since > IDLE_SECONDS:
                self._close(conn)

    def _reply(self, conn: _Conn, status: int, message: str) -> None:
        """A short refusal, then the connection closed (from the gate's thread: never blocks)."""
        payload = json.dumps({"error": message}).encode()
        head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\nConnection: close\r\n\r\n").encode()
        try:
            conn.sock.setblocking(False)
            conn.sock.send(head + payload)
        except OSError:
            pass
        self._close(conn)

    def _close(self, conn: _Conn) -> None:
        self.conns.pop(conn.sock, None)
        try:
            self.selector.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        try:
            conn.sock.close()
        except OSError:
            pass

    # -- a worker's thread ----------------------------------------------------------------------
    def _handle(self, conn: _Conn, request: bytes, close_after: bool) -> None:
        handler_class = self.server.RequestHandlerClass
        sock = conn.sock
        keep = False
        try:
            sock.settimeout(WRITE_SECONDS)
            handler = handler_class.__new__(handler_class)
            handler.server, handler.client_address = self.server, conn.address
            handler.request = handler.connection = sock
            handler.rfile = io.BytesIO(request)
            handler.wfile = _Writer(sock)
            handler.close_connection = True
            handler.handle_one_request()
            keep = not handler.close_connection and not close_after
        except Exception:  # noqa: BLE001 - a connection gone wrong is closed; the server goes on
            keep = False
        if self.stopped:  # the gate's thread is gone: close it here
            self.conns.pop(sock, None)
            try:
                sock.close()
            except OSError:
                pass
            return
        with self.lock:
            self.returning.append(("back" if keep else "close", conn))
        self._wake()


def _head_end(buf: bytes) -> int:
    """Where a request's head ends (just after its blank line), or -1 while it has not."""
    ends = [i + len(mark) for mark in (b"\r\n\r\n", b"\n\n") if (i := buf.find(mark)) >= 0]
    return min(ends) if ends else -1


def _framing(head: bytes) -> tuple[list[str], bool]:
    """The Content-Length values of a request's head, and whether it names a Transfer-Encoding."""
    lengths, chunked = [], False
    for line in head.split(b"\n")[1:]:
        name, sep, value = line.partition(b":")
        if not sep:
            continue
        name = name.strip().lower()
        if name == b"content-length":
            lengths.append(value.strip().decode("latin-1"))
        elif name == b"transfer-encoding":
            chunked = True
    return lengths, chunked
