"""An adapter that says what a JSON script tells it, for the harness's planted-escapes tests.

Usage: scripted.py SCRIPT. SCRIPT is a JSON object:

  hello    the handshake line, sent as it is
  answer   the reply to every check: "$ID" in any string becomes the check's id, and a
           "results" list is cut or stretched (its last item repeated) to the number of queries
  stderr   written to stderr before each reply
  exit     when true, exit with status 3 instead of replying to a check
"""
import json
import sys

script = json.load(open(sys.argv[1]))


def filled(value, check):
    if isinstance(value, str):
        return value.replace("$ID", check["id"])
    if isinstance(value, list):
        return [filled(v, check) for v in value]
    if isinstance(value, dict):
        out = {k: filled(v, check) for k, v in value.items()}
        results = out.get("results")
        if isinstance(results, list) and results:
            n = len(check["queries"])
            out["results"] = (results + [results[-1]] * n)[:n]
        return out
    return value


for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        reply = script["hello"]
    elif kind == "check":
        sys.stderr.write(script.get("stderr", ""))
        sys.stderr.flush()
        if script.get("exit"):
            sys.exit(3)
        reply = filled(script["answer"], message)
    else:
        break
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
