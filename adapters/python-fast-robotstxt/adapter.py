"""Adapter for fast-robotstxt, ctypes bindings to a build of Google's C++ parser (protocol in
adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from robotstxt import RobotsMatcher

HELLO = {
    "name": "python-fast-robotstxt",
    "parser": "fast-robotstxt",
    "version": version("fast-robotstxt"),
    "language": "C++",
    "homepage": "https://github.com/nzrsky/robotstxt",
    "profile": "rfc9309",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # is_allowed() takes str and encodes it to UTF-8 for the C library, so bytes that are not
    # UTF-8 cannot reach it: the body is decoded as UTF-8 with errors="replace", as a caller
    # holding an HTTP response's text has it. The C library parses the body again per query.
    text = body.decode("utf-8", errors="replace")
    matcher = RobotsMatcher()
    return [matcher.is_allowed(text, agent, url) for agent, url in queries]


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
            queries = [(q["product_token"], q["url"]) for q in msg["queries"]]
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
