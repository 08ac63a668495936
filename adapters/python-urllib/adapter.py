"""Adapter for urllib.robotparser (protocol in adapters/PROTOCOL.md)."""
import base64
import json
import platform
import sys
from urllib.robotparser import RobotFileParser

HELLO = {
    "name": "python-urllib",
    "parser": "urllib.robotparser",
    "version": platform.python_version(),  # the module ships with CPython
    "language": "Python",
    "homepage": "https://docs.python.org/3/library/urllib.robotparser.html",
    "profile": "norobots-1994",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    parser = RobotFileParser("http://example.com/robots.txt")
    # RobotFileParser.read() decodes the fetched body as strict UTF-8 and splits it with
    # str.splitlines(); do the same, so a non-UTF-8 body raises UnicodeDecodeError as it does there.
    parser.parse(body.decode("utf-8").splitlines())
    return [parser.can_fetch(agent, url) for agent, url in queries]


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
