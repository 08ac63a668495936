"""Adapter for protego (protocol in adapters/PROTOCOL.md)."""
import base64
import json
import sys
from importlib.metadata import version

from protego import Protego

HELLO = {
    # The manifest runs this one program for every version it lists, each under its own name.
    "name": sys.argv[1] if len(sys.argv) > 1 else "python-protego",
    "parser": "protego",
    "version": version("protego"),
    "language": "Python",
    "homepage": "https://github.com/scrapy/protego",
    "profile": "rfc9309",
}


def check(body, queries):
    """Answers each (agent, url) query about one robots.txt body, as booleans."""
    # Protego.parse() takes str only; Scrapy, its main user, decodes the body as UTF-8
    # with errors="ignore" before handing it over.
    parser = Protego.parse(body.decode("utf-8", errors="ignore"))
    return [parser.can_fetch(url, agent) for agent, url in queries]


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
