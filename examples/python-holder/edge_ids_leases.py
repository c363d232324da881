"""Snowflake IDs in a Python process on a worker ID leased from edge-ids; standard library only.

It follows docs/LEASES.md's checklist: it issues Snowflake IDs of a worker ID
leased from edge-ids, only with ticks inside the spans the service granted it,
on the service's clock (``serverNowMs`` plus ``time.monotonic``), renews in a
background thread at a third of the span, waits at most ``max_wait`` seconds at
a span's end, acquires anew (above its last ID) when the lease is lost, and drops
the lease in a forked child (``os.register_at_fork``) without releasing it.

Copy this one file into a project::

    from edge_ids_leases import LeasedGenerator, Service

    service = Service("https://ids.example.com", token=os.environ["API_TOKEN"])
    with LeasedGenerator(service, holder="worker-3") as ids:
        order_id = ids.next()[0]        # an int: up to 4,096 IDs per ms, no request per ID

``holder.py`` beside it runs a generator as a command (for load and chaos runs).
"""

import json
import os
import secrets
import threading
import time
import urllib.error
import urllib.request
import weakref

DEFAULT_MAX_WAIT = 2.0  # seconds a call waits at a span's end for a renewal
BORROW_MS = 5  # how far an issued tick may lead the service's clock (its MAX_BORROW_MS)
# Renewal refusals no retry turns into a grant: the holder moves to a new lease.
ENDS_A_LEASE = {"lease_lost", "invalid_worker_id", "invalid_lease_id", "leases_disabled"}


class LeaseError(Exception):
    """A refusal: the service's error code (``lease_lost``, ``no_free_worker_id``, ...) or the
    holder's own (``lease_expired``, ``overloaded``, ``network_error``, ``closed``)."""

    def __init__(self, code, message, status=None, retry_after=None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.status = status
        self.retry_after = retry_after


class Layout:
    """The Snowflake layout a grant names: ticks of ``timeUnitMs`` from ``epoch``."""

    def __init__(self, info):
        self.epoch = int(info["epoch"])
        self.time_bits = int(info["timeBits"])
        self.worker_bits = int(info["workerBits"])
        self.sequence_bits = int(info["sequenceBits"])
        self.unit_ms = int(info["timeUnitMs"])
        if self.time_bits + self.worker_bits + self.sequence_bits != 63:
            raise LeaseError("internal", "the grant's layout does not have 63 bits")
        self.max_sequence = (1 << self.sequence_bits) - 1
        self.tick_limit = 1 << self.time_bits
        # Leaf's fix for all-even IDs at low load: a small random first sequence per tick.
        self.start_limit = 1 << (self.sequence_bits // 2)

    def key(self):
        return (self.epoch, self.time_bits, self.worker_bits, self.sequence_bits, self.unit_ms)

    def tick_of(self, ms):
        return int((ms - self.epoch) // self.unit_ms)

    def ms_of(self, tick):
        return self.epoch + tick * self.unit_ms

    def compose(self, tick, worker_id, sequence):
        return (tick << (self.worker_bits + self.sequence_bits)) | (worker_id << self.sequence_bits) | sequence


class Service:
    """The four lease routes over HTTP (urllib). Every failure is a LeaseError."""

    def __init__(self, url, token=None, timeout=10.0):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def acquire(self, holder=None, worker_id=None):
        body = {}
        if holder is not None:
            body["holder"] = holder
        if worker_id is not None:
            body["workerId"] = worker_id
        return self._call("POST", "/leases", body)

    def renew(self, worker_id, lease_id, timeout=None):
        return self._call("POST", f"/leases/{int(worker_id)}/{lease_id}/renew", timeout=timeout)

    def release(self, worker_id, lease_id):
        self._call("DELETE", f"/leases/{int(worker_id)}/{lease_id}")

    def _call(self, method, path, body=None, timeout=None):
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                text = response.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise _refusal(error) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise LeaseError("network_error", f"{method} {path}: {error}") from None


def _refusal(error):
    """The service's JSON error (code, message, Retry-After), or one named by the status."""
    retry_after = error.headers.get("Retry-After")
    retry_after = float(retry_after) if retry_after and retry_after.isdigit() else None
    try:
        detail = json.loads(error.read())["error"]
        return LeaseError(detail["code"], detail["message"], error.code, retry_after)
    except (ValueError, KeyError, TypeError):
        code = "unavailable" if error.code in (502, 503, 504) else "internal"
        return LeaseError(code, f"answer {error.code}", error.code, retry_after)


class _Lease:
    """One lease: its span ``[from, to)`` (``to`` only grows), and the first tick this holder may use."""

    def __init__(self, grant, floor, layout):
        self.worker_id = grant["workerId"]
        self.lease_id = grant["leaseId"]
        self.floor = floor
        self.to = grant["to"]
        self.span_ms = layout.ms_of(grant["to"]) - grant["serverNowMs"]
        self.lost = False


class LeasedGenerator:
    """Snowflake IDs (ints) of a worker ID leased from edge-ids; thread-safe."""

    def __init__(self, service, holder=None, worker_id=None, max_wait=DEFAULT_MAX_WAIT, on_grant=None):
        self.service = service
        self.holder = holder
        self.wanted_worker_id = worker_id
        self.max_wait = max_wait
        self.on_grant = on_grant  # called with each grant applied (the CLI records spans)
        self.layout = None
        self.stats = {"acquires": 0, "renewals": 0, "renewals_failed": 0, "leases_lost": 0, "releases": 0}
        self._offset_ms = None  # the service's ms minus monotonic ms: never decreases
        self._lease = None
        self._last_tick = -1  # the last tick issued, under any lease
        self._last_worker = None
        self._sequence = 0
        self._closed = False
        self._fresh_state()
        _live.add(self)

    def _fresh_state(self):
        """Locks and the renewal thread: made anew in a forked child (a lock may be held by a thread that did not come along)."""
        self._cond = threading.Condition(threading.Lock())
        self._wake = threading.Event()
        self._renewer = None
        self._pid = os.getpid()

    # -- the service's clock ------------------------------------------------------------

    def _now_ms(self):
        return time.monotonic() * 1000 + self._offset_ms

    def _anchor(self, server_now_ms):
        offset = server_now_ms - time.monotonic() * 1000
        if self._offset_ms is None or offset > self._offset_ms:
            self._offset_ms = offset

    # -- public -------------------------------------------------------------------------

    @property
    def worker_id(self):
        return self._lease.worker_id if self._lease else None

    def start(self):
        with self._cond:
            self._current()
        return self

    def next(self, count=1):
        """``count`` IDs as ints, strictly increasing across calls."""
        ids = []
        for worker_id, tick, first, n in self.runs(count):
            base = self.layout.compose(tick, worker_id, first)
            ids.extend(range(base, base + n))
        return ids

    def runs(self, count=1):
        """``count`` IDs as runs ``(worker_id, tick, first_sequence, count)`` of consecutive IDs."""
        if count < 1:
            raise LeaseError("invalid_count", f"count must be a positive integer; got {count}")
        runs = []
        with self._cond:
            while count > 0:
                run = self._take(count)
                runs.append(run)
                count -= run[3]
        return runs

    def close(self):
        """Stops renewing and releases the lease (the worker ID is free at once)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            lease, self._lease = self._lease, None
            self._cond.notify_all()
        self._wake.set()
        if lease and not lease.lost and self._pid == os.getpid():
            self.stats["releases"] += 1
            try:
                self.service.release(lease.worker_id, lease.lease_id)
            except LeaseError:
                pass  # it lapses by itself: its span plus the service's grace

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    # -- issuing (the lock held) --------------------------------------------------------

    def _take(self, wanted):
        """One run of up to ``wanted`` IDs, inside a span this holder holds."""
        started = time.monotonic()
        while True:
            lease = self._current()
            now = self._now_ms()
            layout = self.layout
            tick = max(layout.tick_of(now), lease.floor, self._last_tick)
            same = tick == self._last_tick and self._last_worker == lease.worker_id
            if same and self._sequence >= layout.max_sequence:
                tick += 1  # the tick is full: the next one
                same = False
            elif tick == self._last_tick and not same:
                tick += 1  # cannot happen (a new lease starts above the last tick): kept safe anyway
            lead_ms = layout.ms_of(tick) - now - BORROW_MS
            if lead_ms > 0:  # ahead of the clock: wait for it
                self._wait(lead_ms / 1000, started, "overloaded", tick)
                continue
            if tick >= lease.to:  # past the span: a renewal must come
                self._wake.set()
                self._wait(None, started, "lease_expired", tick)
                continue
            first = self._sequence + 1 if same else secrets.randbelow(layout.start_limit)
            n = min(wanted, layout.max_sequence - first + 1)
            self._last_tick, self._last_worker, self._sequence = tick, lease.worker_id, first + n - 1
            return (lease.worker_id, tick, first, n)

    def _wait(self, seconds, started, code, tick):
        """Waits (the lock released) up to ``seconds`` or a change, within ``max_wait`` of ``started``."""
        left = self.max_wait - (time.monotonic() - started)
        if left <= 0 or (seconds is not None and seconds > left):
            lease = self._lease
            if code == "lease_expired":
                raise LeaseError(code, f"worker ID {lease.worker_id}'s span ended and no renewal came within {self.max_wait} s", retry_after=1)
            raise LeaseError(code, f"tick {tick} starts more than {self.max_wait} s ahead of the service's clock", retry_after=1)
        self._cond.wait(left if seconds is None else seconds)

    def _current(self):
        """The lease to issue in: acquired if there is none, lost, or another process's."""
        if self._closed:
            raise LeaseError("closed", "the generator was closed")
        if self._pid != os.getpid():  # a fork the hook did not see (a C extension's fork())
            self._lease, self._renewer, self._pid = None, None, os.getpid()
        lease = self._lease
        if lease is not None and not lease.lost:
            return lease
        self.stats["acquires"] += 1
        grant = self.service.acquire(self.holder, self.wanted_worker_id)
        layout = Layout(grant["layout"])
        if self.layout is not None and self.layout.key() != layout.key():
            raise LeaseError("layout_mismatch", "the service's layout changed; make a new generator")
        self.layout = layout
        self._anchor(grant["serverNowMs"])
        self._lease = _Lease(grant, max(grant["from"], self._last_tick + 1), layout)
        if self.on_grant:
            self.on_grant(grant)
        if self._renewer is None:
            self._renewer = threading.Thread(target=self._renew_loop, name="edge-ids-lease-renewal", daemon=True)
            self._renewer.start()
        self._wake.set()
        return self._lease

    # -- renewal (a daemon thread) ------------------------------------------------------

    def _renew_loop(self):
        last_sent = float("-inf")
        while True:
            with self._cond:
                if self._closed or self._pid != os.getpid():
                    return
                lease = self._lease
                delay = None  # no lease: wait to be woken
                if lease is not None and not lease.lost:
                    # A third of the time left in the span.
                    delay = max(0.0, (self.layout.ms_of(lease.to) - self._now_ms()) / 3000)
            self._wake.wait(delay)
            self._wake.clear()
            with self._cond:
                lease = self._lease
                if self._closed or lease is None or lease.lost:
                    continue
            # At least a thirtieth of the span between renewals: no flood while answers fail.
            gap = max(0.01, lease.span_ms / 30000)
            time.sleep(max(0.0, last_sent + gap - time.monotonic()))
            last_sent = time.monotonic()
            self._renew(lease, timeout=max(0.2, min(self.service.timeout, lease.span_ms / 3000)))

    def _renew(self, lease, timeout):
        self.stats["renewals"] += 1
        try:
            grant = self.service.renew(lease.worker_id, lease.lease_id, timeout)
        except LeaseError as error:
            with self._cond:
                if error.code in ENDS_A_LEASE:
                    lease.lost = True
                    self.stats["leases_lost"] += 1
                else:
                    self.stats["renewals_failed"] += 1
                self._cond.notify_all()
            return
        with self._cond:
            self._anchor(grant["serverNowMs"])
            if grant["workerId"] == lease.worker_id and grant["leaseId"] == lease.lease_id:
                lease.span_ms = self.layout.ms_of(grant["to"]) - grant["serverNowMs"]
                if grant["to"] > lease.to:
                    lease.to = grant["to"]
                    if self.on_grant:
                        self.on_grant(grant)
            self._cond.notify_all()


_live = weakref.WeakSet()


def _drop_in_child(generator):
    """In a forked child the lease is the parent's: dropped, never renewed nor released from here."""
    generator._fresh_state()
    generator._lease = None


def _after_fork_in_child():
    for generator in list(_live):
        _drop_in_child(generator)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
