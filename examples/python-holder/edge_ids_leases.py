"""Snowflake IDs in a Python process on a worker ID leased from edge-ids; standard library only.

It follows docs/LEASES.md's checklist: it issues Snowflake IDs of a worker ID
leased from edge-ids, only with ticks inside the spans the service granted it,
on the service's clock (``serverNowMs`` plus ``time.monotonic``), renews in a
background thread a third of a span after each grant (each attempt bounded by a
tenth of the span), waits at most ``max_wait`` seconds at a span's end, acquires
anew (above its last ID) when the lease is lost, waits the ``Retry-After`` of a
refused acquire, and never renews nor releases a lease in a process other than
the one that acquired it (a forked child drops it: ``os.register_at_fork``).

Copy this one file into a project::

    from edge_ids_leases import LeasedGenerator, Service

    service = Service("https://ids.example.com", token=os.environ["API_TOKEN"])
    with LeasedGenerator(service, holder="worker-3") as ids:
        order_id = ids.next()[0]        # an int: up to 4,096 IDs per ms, no request per ID

``holder.py`` beside it runs a generator as a command (for load and chaos runs).
"""

import http.client
import json
import math
import os
import secrets
import threading
import time
import urllib.error
import urllib.request
import weakref

__version__ = "0.3.0"  # edge-ids' version: npm run check holds it to package.json's

DEFAULT_MAX_WAIT = 2.0  # seconds a call waits at a span's end for a renewal
BORROW_MS = 5  # how far an issued tick may lead the service's clock (its MAX_BORROW_MS)
MIN_SPAN_MS = 1000  # the shortest LEASE_SPAN_MS the service grants
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
    """The lease routes over HTTP (urllib); the lease ID goes in bodies, never in a URL. Every failure is a LeaseError."""

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
        return self._call("POST", f"/leases/{int(worker_id)}/renew", {"leaseId": lease_id}, timeout)

    def release(self, worker_id, lease_id):
        self._call("POST", f"/leases/{int(worker_id)}/release", {"leaseId": lease_id})

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
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as error:
            raise LeaseError("network_error", f"{method} {path}: {error}") from None


def _refusal(error):
    """The service's JSON error (code, message, Retry-After), or one named by the status."""
    retry_after = _seconds(error.headers.get("Retry-After"))
    try:
        detail = json.loads(error.read())["error"]
        return LeaseError(detail["code"], detail["message"], error.code, retry_after)
    except (ValueError, KeyError, TypeError):
        code = "unavailable" if error.code in (502, 503, 504) else "internal"
        return LeaseError(code, f"answer {error.code}", error.code, retry_after)


def _seconds(text):
    """A ``Retry-After`` in seconds (the service sends whole seconds), or None."""
    try:
        seconds = float(text)
    except (TypeError, ValueError):
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _checked_grant(answer, layout=None):
    """The grant and its layout (``layout``: the one in use) once the answer is one; else LeaseError
    ``internal`` naming the field (an answer that is not the service's: an empty 200, a proxy's page)."""

    def wrong(field):
        value = answer.get(field) if isinstance(answer, dict) else answer
        return LeaseError("internal", f"a lease answer's {field} is {value!r:.60}; the service answers integer ticks "
                          "with from < to within its layout, a worker ID, a lease ID and its clock reading")

    if not isinstance(answer, dict):
        raise wrong("body")
    try:
        layout = layout or Layout(answer["layout"])
    except (KeyError, TypeError, ValueError):
        raise wrong("layout") from None
    start, to, now = answer.get("from"), answer.get("to"), answer.get("serverNowMs")
    for field, good in (("workerId", type(answer.get("workerId")) is int and answer["workerId"] >= 0),
                        ("from", type(start) is int and start >= 0),
                        ("to", type(to) is int and type(start) is int and start < to <= layout.tick_limit),
                        ("leaseId", isinstance(answer.get("leaseId"), str) and answer["leaseId"] != ""),
                        ("serverNowMs", type(now) in (int, float) and math.isfinite(now))):  # else a clock fault
        if not good:
            raise wrong(field)
    return answer, layout


class _Lease:
    """One lease: its span ``[from, to)`` (``to`` only grows), the first tick this holder may use,
    the span it learned, when it was last granted, and the process that acquired it."""

    def __init__(self, grant, floor, layout):
        self.worker_id = grant["workerId"]
        self.lease_id = grant["leaseId"]
        self.floor = floor
        self.to = grant["to"]
        self.span_ms = _span_ms(layout, grant)
        self.granted_at = time.monotonic()  # the next renewal is due a third of a span after this
        self.pid = os.getpid()  # only this process renews or releases it (rule 5)
        self.lost = False


def _span_ms(layout, grant):
    """The span a grant that moved ``to`` tells: ``toMs - serverNowMs`` (LEASE_SPAN_MS, to a tick)."""
    return max(MIN_SPAN_MS, layout.ms_of(grant["to"]) - grant["serverNowMs"])


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
        self._offset_ms = None  # the service's ms minus monotonic ms: see _anchor
        self._lease = None
        self._refused = None  # (the refusal, until when): a refused acquire's Retry-After
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
        self._renewer_pid = None

    # -- the service's clock ------------------------------------------------------------

    def _now_ms(self):
        return time.monotonic() * 1000 + self._offset_ms

    def _anchor(self, server_now_ms, span_ms):
        """Anchors the clock on an answer: up only (an answer lags by its travel time), unless the answer is
        behind this reading by more than a span. A renewal travels at most its deadline, a tenth of the span,
        so such a lag is no delay: the service's clock stepped ahead and back, and this reading is wrong.
        Stepping down is safe: no tick at or below the last one issued is issued again (rule 3)."""
        offset = server_now_ms - time.monotonic() * 1000
        if self._offset_ms is None or offset > self._offset_ms or self._offset_ms - offset > span_ms:
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
        started = time.monotonic()  # one bound for the whole call, however many runs and waits it takes
        runs = []
        with self._cond:
            while count > 0:
                run = self._take(count, started)
                runs.append(run)
                count -= run[3]
        return runs

    def close(self):
        """Stops renewing and releases the lease (the worker ID is free at once); a copy releases nothing."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            lease, self._lease = self._lease, None
            self._cond.notify_all()
        self._wake.set()
        if lease and not lease.lost and lease.pid == os.getpid():
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

    def _take(self, wanted, started):
        """One run of up to ``wanted`` IDs, inside a span this holder holds."""
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
            if lead_ms > 0:  # ahead of the clock (a fresh span, or a clock stepped back): wait for it
                self._wait(lead_ms / 1000, started, "overloaded", tick)
                continue
            if tick >= lease.to:  # past the span: the renewal due comes, or the call fails
                self._keep_renewing(lease.pid)  # (a thread that died anyway shows here: it runs again)
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
        """The lease to issue in: acquired if there is none, it was lost, or it is another process's."""
        if self._closed:
            raise LeaseError("closed", "the generator was closed")
        pid = os.getpid()
        lease = self._lease
        if lease is not None and lease.pid != pid:  # a copy the fork hook did not see: never renewed nor released here
            lease = self._lease = None
        if lease is not None and not lease.lost:
            return lease
        if self._refused is not None:  # the last acquire's Retry-After: nothing is sent before it ends
            refusal, until = self._refused
            left = until - time.monotonic()
            if left > 0:
                message = f"{refusal}; the next acquire goes in {left:.1f} s, as the service's Retry-After asked"
                raise LeaseError(refusal.code, message, refusal.status, left)
            self._refused = None
        self.stats["acquires"] += 1
        try:
            grant, layout = _checked_grant(self.service.acquire(self.holder, self.wanted_worker_id))
        except LeaseError as error:
            if error.retry_after:
                self._refused = (error, time.monotonic() + error.retry_after)
            raise
        if self.layout is not None and self.layout.key() != layout.key():
            raise LeaseError("layout_mismatch", "the service's layout changed; make a new generator")
        self.layout = layout
        self._lease = _Lease(grant, max(grant["from"], self._last_tick + 1), layout)
        self._anchor(grant["serverNowMs"], self._lease.span_ms)
        self._keep_renewing(pid)
        self._wake.set()  # the renewal thread schedules the new lease
        if self.on_grant:
            self.on_grant(grant)
        return self._lease

    def _keep_renewing(self, pid):
        """Starts a renewal thread where this process has none running (the first lease, a fork, a thread gone)."""
        if self._renewer is not None and self._renewer_pid == pid and self._renewer.is_alive():
            return
        self._renewer = threading.Thread(target=self._renew_loop, name="edge-ids-lease-renewal", daemon=True)
        self._renewer_pid = pid
        self._renewer.start()

    # -- renewal (a daemon thread) ------------------------------------------------------

    def _renew_loop(self):
        """Renews a third of a span after each grant; after a failed attempt at once, but never sooner than a
        thirtieth of the span after the last attempt started. Never dies: any exception is a failed renewal."""
        last_start = float("-inf")
        failed = None  # the lease whose last attempt failed
        while True:
            lease = None
            try:
                with self._cond:
                    if self._closed:
                        return
                    lease = self._lease
                    due = None  # nothing to renew: wait to be woken
                    if lease is not None and not lease.lost and lease.pid == os.getpid():
                        span = lease.span_ms / 1000
                        due = max(last_start if lease is failed else lease.granted_at + span / 3, last_start + span / 30)
                if due is None or due > time.monotonic():
                    self._wake.wait(None if due is None else due - time.monotonic())
                    self._wake.clear()
                    continue
                last_start = time.monotonic()
                failed = None if self._renew(lease) else lease
            except Exception:  # not an attempt's failure (those are handled): counted, and tried again later
                with self._cond:
                    self.stats["renewals_failed"] += 1
                failed, last_start = lease, time.monotonic()
                time.sleep(0.05)

    def _renew(self, lease):
        """One attempt; its deadline (the HTTP timeout) a tenth of the span. True if granted; never raises."""
        self.stats["renewals"] += 1
        try:
            answer = self.service.renew(lease.worker_id, lease.lease_id, min(self.service.timeout, lease.span_ms / 10000))
            with self._cond:
                self._apply_renewal(lease, answer)
            return True
        except Exception as error:  # a refusal, the deadline, an answer that is no grant, a callback's error
            with self._cond:
                if isinstance(error, LeaseError) and error.code in ENDS_A_LEASE:
                    lease.lost = True
                    self.stats["leases_lost"] += 1
                else:
                    self.stats["renewals_failed"] += 1
                self._cond.notify_all()
            return False

    def _apply_renewal(self, lease, answer):
        """Applies a renewal's grant (the lock held): the largest ``to`` kept (rule 4)."""
        grant, _ = _checked_grant(answer, self.layout)
        if grant["workerId"] != lease.worker_id or grant["leaseId"] != lease.lease_id:
            raise LeaseError("internal", "a renewal answered another lease's grant")
        moved = grant["to"] > lease.to
        if moved:  # a grant that moves ``to`` tells the span (one that does not may lag a stepped clock)
            lease.to = grant["to"]
            lease.span_ms = _span_ms(self.layout, grant)
        self._anchor(grant["serverNowMs"], lease.span_ms)
        lease.granted_at = time.monotonic()
        if moved and self.on_grant:
            self.on_grant(grant)  # under the lock: the CLI writes a span before any ID issued in it
        self._cond.notify_all()


_live = weakref.WeakSet()


def _after_fork_in_child():
    """In a forked child every lease is the parent's: dropped, never renewed nor released from here."""
    for generator in list(_live):
        generator._fresh_state()
        generator._lease = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
