"""Adapter for jwm.robotstxt, Python bindings of Google's C++ parser (protocol in
adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from jwm.robotstxt.googlebot import RobotsMatcher

HELLO = {
    "name": "python-google",
    "parser": "jwm.robotstxt",
    "version": version("jwm.robotstxt"),
    "language": "C++",
    "homepage": "https://github.com/jwmorley73/jwm.robotstxt",
    "profile": "rfc9309",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # The binding takes std::string, so the raw bytes go through untouched. Like the C++
    # library, it parses the body again for every query.
    return [RobotsMatcher().OneAgentAllowedByRobots(body, agent, url) for agent, url in queries]


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
