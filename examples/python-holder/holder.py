#!/usr/bin/env python3
"""A worker-ID lease holder for edge-ids as a command, for load and chaos runs::

    python3 holder.py --url http://127.0.0.1:8787 --count 1000000 --out issued.txt

issues IDs with ``edge_ids_leases.LeasedGenerator`` (the module beside it), writes
what it issued compactly (see ``RunWriter``), and a JSON summary on stderr.
Standard library only.
"""

import argparse
import json
import os
import signal
import sys
import threading
import time

from edge_ids_leases import DEFAULT_MAX_WAIT, LeasedGenerator, LeaseError, Service


class RunWriter:
    """What the command issued, one line per event, for an interval ledger per worker ID:

    ``L <workerId> <from> <to>``: a span granted (an acquire, or a renewal that moved ``to``);
    ``T <wallMs - serverNowMs>``: after each ``L`` line, this process's wall clock against the service's;
    ``R <workerId> <tick> <firstSequence> <count>``: IDs issued, consecutive sequences of one tick,
    in the order they were issued (a line is written only after its IDs were issued);
    ``X <code>``: a call refused (it issued nothing).
    The first line is ``# edge-ids holder layout=<epoch>,<timeBits>,<workerBits>,<sequenceBits>,<timeUnitMs> pid=<pid>``
    once the first grant names the layout.
    """

    def __init__(self, out):
        self.out = out
        self.pending = None  # a run still growing: consecutive runs are merged
        self.headed = False
        self.lock = threading.Lock()  # grants come from the renewal thread
        self.flushed = time.monotonic()

    def grant(self, grant):
        layout = grant["layout"]
        with self.lock:
            if not self.headed:
                keys = ("epoch", "timeBits", "workerBits", "sequenceBits", "timeUnitMs")
                fields = ",".join(str(layout[k]) for k in keys)
                self.out.write(f"# edge-ids holder layout={fields} pid={os.getpid()}\n")
                self.headed = True
            self._flush_run()
            self.out.write(f"L {grant['workerId']} {grant['from']} {grant['to']}\n")
            # This process's wall clock against the service's: the holder never reads the former.
            self.out.write(f"T {round(time.time() * 1000 - grant['serverNowMs'])}\n")

    def run(self, worker_id, tick, first, count):
        with self.lock:
            p = self.pending
            if p and p[0] == worker_id and p[1] == tick and p[2] + p[3] == first:
                p[3] += count
                return
            self._flush_run()
            self.pending = [worker_id, tick, first, count]

    def refused(self, code):
        with self.lock:
            self._flush_run()
            self.out.write(f"X {code}\n")

    def flush(self, every=0.2):
        """Hands what was written to the OS at most every ``every`` seconds (0: now, the run too)."""
        with self.lock:
            if every == 0:
                self._flush_run()
            elif time.monotonic() - self.flushed < every:
                return
            self.out.flush()
            self.flushed = time.monotonic()

    def _flush_run(self):
        if self.pending:
            self.out.write("R {} {} {} {}\n".format(*self.pending))
            self.pending = None


def _skew_wall_clock(offset_ms, step_ms):
    """``time.time`` (and ``time_ns``) ``offset_ms`` off, stepped back by ``step_ms`` at each SIGUSR2."""
    if not offset_ms and not step_ms:
        return
    real_time, real_time_ns = time.time, time.time_ns
    skew = {"ms": offset_ms}
    time.time = lambda: real_time() + skew["ms"] / 1000
    time.time_ns = lambda: real_time_ns() + int(skew["ms"] * 1_000_000)

    def step(*_):
        skew["ms"] -= step_ms

    signal.signal(signal.SIGUSR2, step)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Issue Snowflake IDs on a worker ID leased from edge-ids.")
    parser.add_argument("--url", required=True, help="the service's base URL, e.g. http://127.0.0.1:8787")
    parser.add_argument("--token", default=os.environ.get("API_TOKEN"), help="API_TOKEN (default: $API_TOKEN)")
    parser.add_argument("--holder", default=f"python-{os.getpid()}", help="a label the service shows")
    parser.add_argument("--worker-id", type=int, help="lease this worker ID (default: any free one)")
    parser.add_argument("--count", type=int, default=0, help="IDs to issue, then release and exit (0: until --seconds or SIGTERM)")
    parser.add_argument("--seconds", type=float, default=0, help="stop after this long (0: no limit)")
    parser.add_argument("--batch", type=int, default=1000, help="IDs per call (default 1000)")
    parser.add_argument(
        "--batch-gap-ms", type=float, default=0, metavar="MS",
        help="for tests: pause MS after each call, leaving the machine's CPU to the service",
    )
    parser.add_argument("--out", default="-", help="where to write what was issued (default: stdout)")
    parser.add_argument("--max-wait", type=float, default=DEFAULT_MAX_WAIT, help="seconds a call waits for a renewal")
    parser.add_argument(
        "--fork-after", type=int, default=0, metavar="N",
        help="fork once after issuing N IDs; the child writes to OUT.child (a copy never issues under the parent's lease)",
    )
    parser.add_argument(
        "--wall-clock-offset", type=float, default=0, metavar="MS",
        help="for tests: set this process's wall clock (time.time) MS off; the holder never reads it",
    )
    parser.add_argument(
        "--wall-clock-step", type=float, default=0, metavar="MS",
        help="for tests: step the wall clock back by MS at every SIGUSR2",
    )
    args = parser.parse_args(argv)
    _skew_wall_clock(args.wall_clock_offset, args.wall_clock_step)

    out = sys.stdout if args.out == "-" else open(args.out, "w", buffering=1 << 16)
    writer = RunWriter(out)
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    service = Service(args.url, args.token)
    ids = LeasedGenerator(service, args.holder, args.worker_id, args.max_wait, on_grant=writer.grant)
    issued, refused, until = 0, {}, time.monotonic() + args.seconds if args.seconds else None
    try:
        while not stopping.is_set() and (args.count == 0 or issued < args.count):
            if until is not None and time.monotonic() >= until:
                break
            want = args.batch if args.count == 0 else min(args.batch, args.count - issued)
            try:
                for run in ids.runs(want):
                    writer.run(*run)
                    issued += run[3]
            except LeaseError as error:
                writer.refused(error.code)
                refused[error.code] = refused.get(error.code, 0) + 1
                stopping.wait(min(error.retry_after or 0.05, 1.0))
            writer.flush()
            if args.batch_gap_ms:
                stopping.wait(args.batch_gap_ms / 1000)
            if args.fork_after and issued >= args.fork_after and args.out != "-":
                args.fork_after = 0
                writer.flush(every=0)
                if os.fork() == 0:  # the child: its own output; the lease it copied is dropped
                    out = open(args.out + ".child", "w", buffering=1 << 16)
                    writer = RunWriter(out)
                    ids.on_grant = writer.grant
                    issued, refused = 0, {}
    finally:
        ids.close()
        writer.flush(every=0)
        if out is not sys.stdout:
            out.close()
    summary = {"issued": issued, "refused": refused, **ids.stats}
    print(json.dumps(summary), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
