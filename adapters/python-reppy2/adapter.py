"""Adapter for reppy2, the pure-Python fork of reppy (protocol in adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from reppy.parser import Rules

HELLO = {
    "name": "python-reppy2",
    "parser": "reppy2",
    "version": version("reppy2"),
    "language": "Python",
    "homepage": "https://pypi.org/project/reppy2/",
    "profile": "other",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # Given bytes, Rules decodes them itself: BOM sniffing, else UTF-8 with errors="ignore".
    # Status 200 means "parse this body"; the expiry time is never consulted here.
    rules = Rules("http://example.com/robots.txt", 200, body, 0)
    return [rules.allowed(url, agent) for agent, url in queries]


def main():
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but protocol lines on the real stdout
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        msg = json.loads(line)
        if msg["type"] == "hello":
            if msg.get("protocol") != 1:
                error = f"unsupported protocol {msg.get('protocol')}"
                print(json.dumps({"error": error}), file=out, flush=True)
                return
            answer = HELLO
        elif msg["type"] == "check":
            body = base64.b64decode(msg["robots_b64"], validate=True)
            queries = [(q["agent"], q["url"]) for q in msg["queries"]]
            try:
                allowed = check(body, queries)
            except Exception as e:  # the parser refusing the input
                answer = {"id": msg["id"], "error": f"{type(e).__name__}: {e}"}
            else:
                results = ["allowed" if a else "disallowed" for a in allowed]
                answer = {"id": msg["id"], "results": results}
        elif msg["type"] == "stop":
            return
        else:
            raise ValueError(f"unknown request type {msg['type']!r}")
        print(json.dumps(answer), file=out, flush=True)


if __name__ == "__main__":
    main()
