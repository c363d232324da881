"""Runs examples/python-holder/edge_ids_leases.py for test/client/python-holder.test.ts::

    python3 -B python-holder-driver.py MODULE_DIR '{"url": "http://127.0.0.1:4711", "mode": "issue", "seconds": 1}'

prints one JSON line per call (``t``: ms since the start; ``ids`` as strings, or the refusal's
``code``, ``message`` and ``retryAfter``), then ``{"stats": ...}``. Modes: ``issue`` (calls every
``interval`` s from ``threads`` threads, then close), ``fork`` (acquire, fork by ``os.fork`` or by
libc's ``fork`` that skips Python's fork hooks; the parent exits, the child waits ``seconds``,
issues if ``issue``, then closes).
"""

import ctypes
import json
import os
import sys
import threading
import time

sys.path.insert(0, sys.argv[1])
from edge_ids_leases import LeasedGenerator, LeaseError, Service  # noqa: E402

config = json.loads(sys.argv[2])
begun = time.monotonic()
printing = threading.Lock()


def say(line):
    with printing:
        print(json.dumps(line), flush=True)


def call(ids, count):
    start = time.monotonic()
    line = {"t": round((start - begun) * 1000)}
    try:
        line["ids"] = [str(i) for i in ids.next(count)]
    except LeaseError as error:
        line.update(code=error.code, message=str(error), retryAfter=error.retry_after)
    line["ms"] = round((time.monotonic() - start) * 1000)
    say(line)


def on_grant(grant, raised=[]):  # noqa: B006 (raises once when asked: a callback's error in the renewal thread)
    kind = config.get("grantRaisesOnce")  # "RuntimeError", or "SystemExit", which ends a thread
    if kind and threading.current_thread().name == "edge-ids-lease-renewal" and not raised:
        raised.append(True)
        raise {"RuntimeError": RuntimeError, "SystemExit": SystemExit}[kind]("a callback that fails")


ids = LeasedGenerator(Service(config["url"]), "driver", max_wait=config.get("maxWait", 0.1), on_grant=on_grant)

if config["mode"] == "issue":

    def issue():
        while time.monotonic() - begun < config["seconds"]:
            call(ids, config.get("count", 1))
            time.sleep(config.get("interval", 0.02))

    threads = [threading.Thread(target=issue) for _ in range(config.get("threads", 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
elif config["mode"] == "fork":
    ids.start()
    time.sleep(0.1)  # the renewal thread now waits, holding no lock a fork without hooks would copy held
    pid = ctypes.CDLL(None).fork() if config["fork"] == "libc" else os.fork()
    if pid != 0:
        os._exit(0)  # the original leaves without a word: only the copy talks to the service
    time.sleep(config["seconds"])
    if config.get("issue"):
        call(ids, 1)
ids.close()
say({"stats": ids.stats})
