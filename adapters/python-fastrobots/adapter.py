"""Adapter for fastrobots, a Rust parser with Python bindings (protocol in adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from fastrobots import Robots

HELLO = {
    "name": "python-fastrobots",
    "parser": "fastrobots",
    "version": version("fastrobots"),
    "language": "Rust",
    "homepage": "https://github.com/sekinal/fastrobots",
    "profile": "rfc9309",
}


def check(body, queries):
    """Answers each (agent, path) query about one robots.txt body, as booleans."""
    # Robots.parse() takes str. The library's own fetch() hands it httpx's response.text,
    # which decodes a body served without a charset as UTF-8 with errors="replace".
    robots = Robots.parse(body.decode("utf-8", errors="replace"))
    return [robots.allowed(path, agent) for agent, path in queries]


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
            queries = [(q["agent"], q["path"]) for q in msg["queries"]]
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
