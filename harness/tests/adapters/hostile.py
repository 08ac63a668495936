"""A hostile adapter for the harness's own tests: one mode per attack.

Usage: hostile.py MODE STATE_DIR. It writes its own pid to STATE_DIR/pids (one line per start),
and the pid of anything it starts too, so that a test can check nothing is left running.

Modes:
  huge-error     answers every check with a 1 MB error string
  error-object   answers every check with a 2 MB JSON error object
  escapes        answers every check with an error holding ESC sequences and U+202E
  escape-name    says its name is ../../../fuzzescape
  named-survey   says its name is `survey`, the name of a page kept in the reports folder
  escape-hello   says its name and version with ESC sequences, BEL and U+202E in them
  stderr-escapes writes ESC sequences and U+202E to stderr, then exits on every check
  runner-error   answers every check with an error whose lines are CI runner commands (`::error`,
                 `::add-mask::`, `::stop-commands::`, `##[error]`) and terminal escapes (ESC,
                 BEL, U+202E), and writes them to stderr
  runner-crash   writes those lines to stderr, then exits on every check
  runner-name    says its name is `p##[error]X` and its version `::error::v`
  disagree-then-break
                 answers "disallowed" to everything (so fuzzing finds disagreements), and once it
                 has answered 60 checks in all (counted across restarts), exits on every check
  detach         on a body holding FAULT, starts a helper in a new session that keeps stdout open,
                 then exits
  slow           answers each check after 0.3 s, with a helper process in its group busy meanwhile
  spin           answers the first check, then spins on the CPU forever on the next one
  flaky          answers the first two checks after each start, then spins 50 ms and exits on
                 the next, so that it is restarted every third check and never given up on;
                 from its third start on, it writes its pid to STATE_DIR/restarted too
"""
import base64
import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1]
STATE = sys.argv[2]


def note_pid(pid):
    with open(os.path.join(STATE, "pids"), "a") as f:
        f.write("%d\n" % pid)


def answer(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def count():
    path = os.path.join(STATE, "count")
    n = int(open(path).read()) if os.path.exists(path) else 0
    with open(path, "w") as f:
        f.write(str(n + 1))
    return n


note_pid(os.getpid())
if MODE == "flaky" and len(open(os.path.join(STATE, "pids")).readlines()) >= 3:
    # Restarted twice already: a test waiting for restarts may interrupt now.
    with open(os.path.join(STATE, "restarted"), "a") as f:
        f.write("%d\n" % os.getpid())
if MODE == "slow":
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    note_pid(busy.pid)

RUNNER = ("x\n::error::forged\n  ::add-mask::secret\n::stop-commands::tok\n##[error]legacy"
          " p##[warning]X\n\x1b]0;owned\x07 \u202egnp.exe \x1b[2J\n")

answered = 0
for line in sys.stdin:
    request = json.loads(line)
    if request["type"] == "hello":
        name = "../../../fuzzescape" if MODE == "escape-name" else "hostile-" + MODE
        version = "1"
        if MODE == "named-survey":
            name = "survey"
        if MODE == "runner-name":
            name = "p##[error]X"
            version = "::error::v"
        if MODE == "escape-hello":
            name = "x\x1b]0;owned\x07\r\x1b[K"
            version = "1\u202egnp.exe"
        answer({"name": name, "parser": "hostile", "version": version, "language": "Python",
                "homepage": "", "profile": "norobots-1994"})
        continue
    if request["type"] == "stop":
        break
    body = base64.b64decode(request["robots_b64"])
    queries = request["queries"]
    rid = request["id"]
    if MODE == "huge-error":
        answer({"id": rid, "error": "E" * (1 << 20)})
    elif MODE == "error-object":
        answer({"id": rid, "error": {"trace": ["x" * 1000] * 2000}})
    elif MODE == "escapes":
        answer({"id": rid, "error": "bad \x1b[2J\x1b]0;owned\x07 \u202egnp.exe"})
    elif MODE == "runner-error":
        sys.stderr.write(RUNNER)
        sys.stderr.flush()
        answer({"id": rid, "error": RUNNER})
    elif MODE == "runner-crash":
        sys.stderr.write(RUNNER)
        sys.stderr.flush()
        os._exit(3)
    elif MODE == "stderr-escapes":
        sys.stderr.write("boom \x1b[2J\x1b]0;owned\x07\r\x1b[K \u202egnp.exe\n")
        sys.stderr.flush()
        os._exit(3)
    elif MODE == "disagree-then-break":
        if count() >= 60:
            os._exit(1)
        answer({"id": rid, "results": ["disallowed"] * len(queries)})
    elif MODE == "detach" and b"FAULT" in body:
        helper = subprocess.Popen(["sleep", "300"], stdout=sys.stdout, start_new_session=True)
        note_pid(helper.pid)
        os._exit(0)
    elif MODE == "flaky" and answered >= 2:
        until = time.time() + 0.05
        while time.time() < until:
            pass
        os._exit(1)
    elif MODE == "spin" and count() >= 1:
        while True:
            pass
    else:
        if MODE == "slow":
            time.sleep(0.3)
        answer({"id": rid, "results": ["allowed"] * len(queries)})
        answered += 1
