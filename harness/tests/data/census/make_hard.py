#!/usr/bin/env python3
"""Builds hard.warc.gz: a small WARC file in Common Crawl's robotstxt layout (one gzip member per
record, a warcinfo record first, a request and a response per fetch) holding the records a
census reader must get right. Run it from anywhere; it writes next to itself. The output is
committed, so a reader sees here how every record was made; harness/tests/census.rs says what
each record becomes.

Deterministic: fixed dates, record IDs and gzip headers (mtime 0), so running it again gives the
same bytes.
"""

import gzip
import hashlib
import base64
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "hard.warc.gz")

serial = 0


def record_id():
    global serial
    serial += 1
    return "<urn:uuid:00000000-0000-4000-8000-%012d>" % serial


def sha1_b32(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def record(kind, content, headers, version="1.0"):
    """One WARC record: version line, header fields, blank line, content, CR LF CR LF."""
    fields = [("WARC-Type", kind)] + headers + [
        ("WARC-Block-Digest", sha1_b32(content)),
        ("Content-Length", str(len(content))),
    ]
    head = "WARC/%s\r\n" % version + "".join("%s: %s\r\n" % f for f in fields) + "\r\n"
    return head.encode() + content + b"\r\n\r\n"


def member(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


WARCINFO = record_id()


def fetch(url, date, http, version="1.0"):
    """A request record and its response record, as two members."""
    host = url.split("/")[2]
    request_id = record_id()
    request = record(
        "request",
        ("GET /robots.txt HTTP/1.1\r\nHost: %s\r\nUser-Agent: CCBot/2.0\r\n\r\n" % host).encode(),
        [
            ("WARC-Date", date),
            ("WARC-Record-ID", request_id),
            ("Content-Type", "application/http; msgtype=request"),
            ("WARC-Warcinfo-ID", WARCINFO),
            ("WARC-Target-URI", url),
        ],
        version,
    )
    response = record(
        "response",
        http,
        [
            ("WARC-Date", date),
            ("WARC-Record-ID", record_id()),
            ("Content-Type", "application/http; msgtype=response"),
            ("WARC-Warcinfo-ID", WARCINFO),
            ("WARC-Concurrent-To", request_id),
            ("WARC-IP-Address", "192.0.2.1"),
            ("WARC-Target-URI", url),
            ("WARC-Payload-Digest", sha1_b32(http.split(b"\r\n\r\n", 1)[-1])),
        ],
        version,
    )
    return [member(request), member(response)]


def http(status, body, headers=()):
    reason = {200: "OK", 301: "Moved Permanently", 404: "Not Found", 503: "Service Unavailable"}
    head = "HTTP/1.1 %d %s\r\n" % (status, reason[status])
    head += "".join("%s: %s\r\n" % h for h in headers)
    return head.encode() + b"\r\n" + body


def chunked(body, size):
    out = b""
    for i in range(0, len(body), size):
        part = body[i : i + size]
        out += b"%x\r\n" % len(part) + part + b"\r\n"
    return out + b"0\r\n\r\n"


PLAIN = b"User-agent: *\nDisallow: /private/\n"
PLAIN_LATER = b"User-agent: *\nDisallow: /private/\nDisallow: /tmp/\n"
CHUNKED = b"User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
GZIPPED = b"User-agent: *\nDisallow: /search\nAllow: /search/about\n"
BOTH = b"User-agent: *\nDisallow: /*.pdf$\n"
LATIN1 = "User-agent: *\nDisallow: /caf\u00e9/\n# \u00e9t\u00e9\n".encode("latin-1")
# Longer than RFC 9309's 500 KiB parse limit: the survey keeps the first 500 KiB.
BIG = b"User-agent: *\n" + b"Disallow: /private-area/\n" * 25000


def main():
    members = []
    info = b"software: make_hard.py\r\nformat: WARC File Format 1.0\r\n"
    members.append(
        member(
            record(
                "warcinfo",
                info,
                [
                    ("WARC-Date", "2024-03-01T00:00:00Z"),
                    ("WARC-Record-ID", WARCINFO),
                    ("WARC-Filename", "hard.warc.gz"),
                    ("Content-Type", "application/warc-fields"),
                ],
            )
        )
    )
    # 1. A plain 200, fetched twice: the later capture (the second) is the host's last.
    members += fetch("https://plain.example/robots.txt", "2024-03-01T00:00:01Z",
                     http(200, PLAIN, [("Content-Type", "text/plain")]))
    # 2. Chunked transfer coding.
    members += fetch("https://chunked.example/robots.txt", "2024-03-01T00:00:02Z",
                     http(200, chunked(CHUNKED, 10), [("Transfer-Encoding", "chunked")]))
    # 3. Content-Encoding: gzip, in WARC 1.1 with a date to the microsecond.
    members += fetch("https://gzip.example/robots.txt", "2024-03-01T00:00:03.250000Z",
                     http(200, gzip.compress(GZIPPED, mtime=0), [("Content-Encoding", "gzip")]),
                     version="1.1")
    # 4. Both: gzip data sent in chunks.
    members += fetch("https://both.example/robots.txt", "2024-03-01T00:00:04Z",
                     http(200, chunked(gzip.compress(BOTH, mtime=0), 16),
                          [("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]))
    # 5. 404: unavailable.
    members += fetch("https://missing.example/robots.txt", "2024-03-01T00:00:05Z",
                     http(404, b"<html>Not Found</html>", [("Content-Type", "text/html")]))
    # 6. 503: unreachable.
    members += fetch("https://down.example/robots.txt", "2024-03-01T00:00:06Z",
                     http(503, b"<html>Try later</html>"))
    # 7. 301: a redirect, http to https.
    members += fetch("http://moved.example/robots.txt", "2024-03-01T00:00:07Z",
                     http(301, b"", [("Location", "https://moved.example/robots.txt")]))
    # 8. A truncated member: the response's member cut in half (its request is whole).
    request, response = fetch("https://truncated.example/robots.txt", "2024-03-01T00:00:08Z",
                              http(200, PLAIN))
    members += [request, response[: len(response) // 2]]
    # 9. An oversized body, 600 KiB and more.
    members += fetch("https://big.example/robots.txt", "2024-03-01T00:00:09Z", http(200, BIG))
    # 10. A body that is not UTF-8 (Latin-1).
    members += fetch("https://latin1.example/robots.txt", "2024-03-01T00:00:10Z",
                     http(200, LATIN1, [("Content-Type", "text/plain; charset=iso-8859-1")]))
    # 11. A lying Content-Length: the record says 40 bytes fewer than its content holds.
    request, response = fetch("https://liar.example/robots.txt", "2024-03-01T00:00:11Z",
                              http(200, PLAIN))
    raw = gzip.decompress(response)
    head, rest = raw.split(b"\r\n\r\n", 1)
    length = int([l for l in head.split(b"\r\n") if l.startswith(b"Content-Length: ")][0][16:])
    head = head.replace(b"Content-Length: %d" % length, b"Content-Length: %d" % (length - 40))
    members += [request, member(head + b"\r\n\r\n" + rest)]
    # 12. A metadata record, as Common Crawl writes after some fetches.
    members.append(member(record("metadata", b"fetchTimeMs: 120\r\n", [
        ("WARC-Date", "2024-03-01T00:00:12Z"),
        ("WARC-Record-ID", record_id()),
        ("WARC-Target-URI", "https://latin1.example/robots.txt"),
        ("Content-Type", "application/warc-fields"),
    ])))
    # 13. The same host over http: another robots.txt (RFC 9309 scopes by scheme), same body.
    members += fetch("http://plain.example/robots.txt", "2024-03-01T00:00:13Z", http(200, PLAIN))
    # 14. Another host serving that body too: one body, three hosts.
    members += fetch("https://shared.example/robots.txt", "2024-03-01T00:00:14Z", http(200, PLAIN))
    # 15. plain.example again over https, later, with a new body: this capture counts for it.
    members += fetch("https://plain.example/robots.txt", "2024-03-01T00:00:15Z",
                     http(200, PLAIN_LATER))
    with open(OUT, "wb") as out:
        out.write(b"".join(members))
    print("wrote %s (%d members)" % (OUT, len(members)), file=sys.stderr)


if __name__ == "__main__":
    main()
