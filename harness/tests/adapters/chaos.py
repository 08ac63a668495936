"""A misbehaving adapter for the harness's own tests: one mode per fault.

Usage: chaos.py MODE [always], or chaos.py alternate STATE-FILE. Mode `typo-profile` claims the profile `rfc-9309` in its hello. It speaks the protocol correctly (answering "allowed" to every
query) until a check's robots.txt body contains the word FAULT (or, with `always`, on every check);
then it commits the fault of its mode.

Modes that depend on the environment rather than on the body:
- `debug-print`: when CHAOS_FAULTS=1, prints a debug line on stdout before answering a body that
  holds FAULT (a parser's leftover print); without it, it behaves.
- `slow`: answers a body that holds FAULT after CHAOS_SLOW seconds (default 1.5).
- `flip`: answers `allowed`, except that each answer is flipped to `disallowed` with the chance
  CHAOS_FLIP (default 0.01), drawn afresh in every process (a parser with a flaky bug).
"""
import random
import base64
import json
import os
import sys
import time

MODE = sys.argv[1]
ALWAYS = sys.argv[2:] == ["always"]

if MODE == "slow-start":
    time.sleep(1.5)
if MODE == "alternate":
    # An answer that depends on the process, as one on a hash seed does: the n-th start (counted
    # in the file named by the second argument) answers "disallowed" when n is even.
    STATE = sys.argv[2]
    STARTS = int(open(STATE).read()) if os.path.exists(STATE) else 0
    with open(STATE, "w") as f:
        f.write(str(STARTS + 1))


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        answer({"name": "chaos-" + MODE, "parser": "chaos", "version": "1", "language": "Python",
                "homepage": "",
                "profile": "rfc-9309" if MODE == "typo-profile" else "norobots-1994"})
        continue
    if request["type"] == "stop":
        break
    body = base64.b64decode(request["robots_b64"])
    queries = request["queries"]
    if MODE == "alternate":
        verdict = "disallowed" if STARTS % 2 == 0 else "allowed"
        answer({"id": request["id"], "results": [verdict] * len(queries)})
        continue
    if MODE == "flip":
        rate = float(os.environ.get("CHAOS_FLIP", "0.01"))
        verdicts = ["disallowed" if random.random() < rate else "allowed" for _ in queries]
        answer({"id": request["id"], "results": verdicts})
        continue
    if MODE == "slow" and b"FAULT" in body:
        time.sleep(float(os.environ.get("CHAOS_SLOW", "1.5")))
    if MODE == "debug-print" and b"FAULT" in body and os.environ.get("CHAOS_FAULTS") == "1":
        sys.stdout.write("debug: parsing %d bytes\n" % len(body))
        sys.stdout.flush()
    if b"FAULT" in body or ALWAYS:
        sys.stderr.write("chaos: committing fault %s\n" % MODE)
        sys.stderr.flush()
        if MODE == "hang":
            time.sleep(3600)
        elif MODE == "crash":
            sys.stdout.write('{"id": "%s", "resu' % request["id"])
            sys.stdout.flush()
            os._exit(3)
        elif MODE == "garbage":
            answer("this is not an answer")
            continue
        elif MODE == "wrong-count":
            answer({"id": request["id"], "results": ["allowed"] * (len(queries) + 1)})
            continue
        elif MODE == "flood":
            chunk = "x" * (1 << 20)
            while True:
                sys.stdout.write(chunk)
        elif MODE == "exit0":
            sys.exit(0)
        elif MODE == "reject":
            answer({"id": request["id"], "error": "ValueError: refused"})
            continue
        elif MODE == "refuse-query":
            rest = ["allowed"] * (len(queries) - 1)
            answer({"id": request["id"], "results": [{"error": "InvalidURI: bad URI"}] + rest})
            continue
    answer({"id": request["id"], "results": ["allowed"] * len(queries)})
