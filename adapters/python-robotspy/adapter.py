"""Adapter for robotspy, the `robots` module (protocol in adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

import robots

HELLO = {
    "name": "python-robotspy",
    "parser": "robotspy",
    "version": version("robotspy"),
    "language": "Python",
    "homepage": "https://github.com/andreburgaud/robotspy",
    "profile": "rfc9309",
}

def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # from_uri() is how the library gets a robots.txt itself: it reads the response line by
    # line and decodes each as "utf-8-sig", giving up (allow all) on bytes that are not UTF-8.
    # A data: URL holding the exact bytes takes that same path, with no network.
    uri = "data:text/plain;base64," + base64.b64encode(body).decode("ascii")
    parser = robots.RobotsParser.from_uri(uri)
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
