"""Adapter for gpyrobotstxt, a pure-Python port of Google's C++ parser (protocol in
adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from gpyrobotstxt.robots_cc import RobotsMatcher

HELLO = {
    "name": "python-gpyrobotstxt",
    "parser": "gpyrobotstxt",
    "version": version("gpyrobotstxt"),
    "language": "Python",
    "homepage": "https://github.com/Cocon-Se/gpyrobotstxt",
    "profile": "rfc9309",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # The matcher takes the body as bytes and a full URL, like the C++ library it ports, and
    # parses the body again for every query.
    return [RobotsMatcher().one_agent_allowed_by_robots(body, agent, url) for agent, url in queries]


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
