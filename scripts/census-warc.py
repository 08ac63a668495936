#!/usr/bin/env python3
"""Builds WARC files in Common Crawl's robotstxt layout from the real-world corpus, for
`robotstxt-test survey --warc`, the Spark job's test and the census figures.

    scripts/census-warc.py ARCHIVE --out DIR [--files 4] [--bodies N] [--seed 1]

ARCHIVE is the real-world corpus (`realworld-robots.tar.xz`: one robots.txt body per host,
`realworld/files/<host>`). Each output file is one segment's `robotstxt/` WARC file, as Common
Crawl writes them: gzip with one member per record, a `warcinfo` record first, then for every
fetch a `request` and a `response` record (`application/http; msgtype=response`, WARC-Target-URI
`http(s)://host/robots.txt`), and now and then a `metadata` record.

What is synthesised around the real bodies, from a seeded random generator (the same arguments
give the same bytes):

- hosts: each corpus file's name is its host; about a third are fetched over http, the rest over
  https, and some over both (RFC 9309 scopes a robots.txt file by scheme);
- repeated fetches: about a quarter of the hosts are fetched again in a later segment (Common
  Crawl caches a robots.txt for a short while only), their earlier capture sometimes another body
  or a 503, so that only the last capture may count;
- shared bodies: a few bodies are served by many made-up hosts as well (a CMS default, a hosting
  company's file), so that a body surveyed once stands for many hosts;
- other statuses: made-up hosts answering 404, 403, 301/302 and 500/503 in roughly the shares a
  crawl sees;
- codings: most bodies are stored decoded with the crawler's `X-Crawler-Content-Encoding`
  header, as Common Crawl stores them; some keep `Content-Encoding: gzip` or a chunked transfer
  coding, so that the reader removes them.

Only the Python standard library is used.
"""

import argparse
import base64
import gzip
import hashlib
import io
import os
import random
import sys
import tarfile

SEGMENT_SECONDS = 7200  # Common Crawl fetches a segment in about two hours.
START = 1709251200  # 2024-03-01T00:00:00Z


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("archive", help="the real-world corpus, a .tar.xz of robots.txt bodies")
    parser.add_argument("--out", required=True, help="folder for the WARC files")
    parser.add_argument("--files", type=int, default=4, help="WARC files (segments) to write")
    parser.add_argument("--bodies", type=int, default=0, help="use only the first N bodies (0: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.files < 1:
        parser.error("--files must be at least 1")

    bodies = read_corpus(args.archive, args.bodies)
    rng = random.Random(args.seed)
    fetches = plan_fetches(bodies, args.files, rng)
    os.makedirs(args.out, exist_ok=True)
    writers = [Writer(os.path.join(args.out, warc_name(k)), k) for k in range(args.files)]
    for fetch in sorted(fetches, key=lambda f: (f["time"], f["url"])):
        writers[fetch["segment"]].fetch(fetch, rng)
    total = 0
    for w in writers:
        total += w.close()
    hosts = len({host_key(f["url"]) for f in fetches})
    print(
        "wrote %d WARC files, %.1f MB, %d fetches of %d hosts, from %d bodies"
        % (args.files, total / 1e6, len(fetches), hosts, len(bodies)),
        file=sys.stderr,
    )


def read_corpus(path, limit):
    """(host, body) for every file of the archive, in name order."""
    bodies = []
    with tarfile.open(path) as archive:
        for member in archive:
            if not member.isfile():
                continue
            host = member.name.rsplit("/", 1)[-1]
            bodies.append((host, archive.extractfile(member).read()))
    bodies.sort()
    if limit:
        bodies = bodies[:limit]
    return bodies


def warc_name(k):
    begin = START + k * SEGMENT_SECONDS
    return "CC-MAIN-%s-%s-%05d.warc.gz" % (stamp(begin), stamp(begin + SEGMENT_SECONDS), k)


def stamp(seconds):
    import time

    return time.strftime("%Y%m%d%H%M%S", time.gmtime(seconds))


def iso(seconds):
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def host_key(url):
    return url.split("/robots.txt")[0]


def plan_fetches(bodies, files, rng):
    """Every fetch: its URL, segment, time, status and body."""
    fetches = []

    def fetch(url, status, body, segment=None):
        segment = rng.randrange(files) if segment is None else segment
        time = START + segment * SEGMENT_SECONDS + rng.randrange(SEGMENT_SECONDS)
        fetches.append(
            {"url": url, "status": status, "body": body, "segment": segment, "time": time}
        )
        return segment

    for host, body in bodies:
        roll = rng.random()
        schemes = ["https"] if roll < 0.6 else ["http"] if roll < 0.9 else ["http", "https"]
        for scheme in schemes:
            url = "%s://%s/robots.txt" % (scheme, host)
            if scheme == "http" and len(schemes) == 2:
                # http answers with a redirect to https, as most sites with both do.
                fetch(url, 301, b"")
                continue
            last = fetch(url, 200, body)
            # Fetched again in a later segment: only the last capture counts. The earlier one
            # was another body (the file changed) or an outage.
            if rng.random() < 0.25 and last > 0:
                earlier_segment = rng.randrange(last)
                before = rng.random()
                if before < 0.6:
                    earlier = (200, body)
                elif before < 0.85:
                    earlier = (200, rng.choice(bodies)[1])
                else:
                    earlier = (503, b"<html><body>Service Unavailable</body></html>\n")
                fetch(url, earlier[0], earlier[1], segment=earlier_segment)

    # Shared bodies: some bodies stand for many made-up hosts (a CMS default, a hosting
    # company's file). Zipf-like: the first is served by the most.
    small = [b for _, b in bodies if 0 < len(b) < 4096]
    shared = rng.sample(small, min(12, len(small)))
    per = max(4, len(bodies) // 10)
    for rank, body in enumerate(shared):
        for i in range(per // (rank + 1)):
            fetch("https://site%d-%d.hosting%d.example/robots.txt" % (i, rank, rank % 3), 200, body)

    # Hosts with no robots.txt, or none that can be read.
    others = len(bodies) // 2
    statuses = [(404, 0.62), (403, 0.05), (301, 0.18), (302, 0.05), (500, 0.04), (503, 0.06)]
    for i in range(others):
        status = pick(statuses, rng)
        scheme = "https" if rng.random() < 0.7 else "http"
        page = b"<html><head><title>%d</title></head><body>%d</body></html>\n" % (status, status)
        fetch("%s://www.other%d.example/robots.txt" % (scheme, i), status, page)
    return fetches


def pick(weighted, rng):
    roll = rng.random()
    for value, share in weighted:
        roll -= share
        if roll < 0:
            return value
    return weighted[-1][0]


REASONS = {200: "OK", 301: "Moved Permanently", 302: "Found", 403: "Forbidden",
           404: "Not Found", 500: "Internal Server Error", 503: "Service Unavailable"}


class Writer:
    """One WARC file: a gzip member per record."""

    def __init__(self, path, segment):
        self.path = path
        self.out = open(path, "wb")
        self.serial = 0
        self.segment = segment
        self.warcinfo = self.record_id()
        info = (
            "software: robotstxt-test scripts/census-warc.py\r\n"
            "format: WARC File Format 1.1\r\n"
            "description: robots.txt fetches synthesised around the real-world corpus\r\n"
        ).encode()
        self.write(
            "warcinfo",
            info,
            [
                ("WARC-Date", iso(START + segment * SEGMENT_SECONDS)),
                ("WARC-Record-ID", self.warcinfo),
                ("WARC-Filename", os.path.basename(path)),
                ("Content-Type", "application/warc-fields"),
            ],
        )

    def record_id(self):
        self.serial += 1
        digest = hashlib.sha1(b"%d-%d" % (self.segment, self.serial)).hexdigest()
        return "<urn:uuid:%s-%s-%s-%s-%s>" % (
            digest[:8], digest[8:12], digest[12:16], digest[16:20], digest[20:32])

    def write(self, kind, content, headers):
        fields = [("WARC-Type", kind)] + headers + [
            ("WARC-Block-Digest", sha1(content)),
            ("Content-Length", str(len(content))),
        ]
        head = "WARC/1.1\r\n" + "".join("%s: %s\r\n" % f for f in fields) + "\r\n"
        data = head.encode() + content + b"\r\n\r\n"
        self.out.write(gzip.compress(data, compresslevel=6, mtime=0))

    def fetch(self, fetch, rng):
        url = fetch["url"]
        host = url.split("/")[2]
        date = iso(fetch["time"])
        request_id = self.record_id()
        request = (
            "GET /robots.txt HTTP/1.1\r\nHost: %s\r\n"
            "User-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n"
            "Accept-Encoding: gzip\r\nConnection: Keep-Alive\r\n\r\n" % host
        ).encode()
        self.write("request", request, [
            ("WARC-Date", date),
            ("WARC-Record-ID", request_id),
            ("Content-Type", "application/http; msgtype=request"),
            ("WARC-Warcinfo-ID", self.warcinfo),
            ("WARC-IP-Address", "192.0.2.%d" % rng.randrange(1, 255)),
            ("WARC-Target-URI", url),
        ])
        status, body = fetch["status"], fetch["body"]
        headers = [("Date", "Fri, 01 Mar 2024 00:00:00 GMT"), ("Server", "nginx")]
        payload = body
        if status in (301, 302):
            headers.append(("Location", url.replace("http://", "https://", 1)))
        if status == 200:
            headers.append(("Content-Type", "text/plain"))
            coding = rng.random()
            if coding < 0.10:
                payload = gzip.compress(body, mtime=0)
                headers.append(("Content-Encoding", "gzip"))
            elif coding < 0.15:
                payload = chunked(body, rng)
                headers.append(("Transfer-Encoding", "chunked"))
            elif coding < 0.55:
                # Stored decoded, the server's coding kept under the crawler's name.
                headers.append(("X-Crawler-Content-Encoding", "gzip"))
                headers.append(("Content-Length", str(len(body))))
            else:
                headers.append(("Content-Length", str(len(body))))
        else:
            headers.append(("Content-Type", "text/html"))
            headers.append(("Content-Length", str(len(payload))))
        http = ("HTTP/1.1 %d %s\r\n" % (status, REASONS[status])).encode()
        http += "".join("%s: %s\r\n" % h for h in headers).encode() + b"\r\n" + payload
        response_id = self.record_id()
        self.write("response", http, [
            ("WARC-Date", date),
            ("WARC-Record-ID", response_id),
            ("Content-Type", "application/http; msgtype=response"),
            ("WARC-Warcinfo-ID", self.warcinfo),
            ("WARC-Concurrent-To", request_id),
            ("WARC-IP-Address", "192.0.2.1"),
            ("WARC-Target-URI", url),
            ("WARC-Payload-Digest", sha1(payload)),
            ("WARC-Identified-Payload-Type", "text/plain" if status == 200 else "text/html"),
        ])
        if rng.random() < 0.05:
            self.write("metadata", b"fetchTimeMs: %d\r\n" % rng.randrange(20, 2000), [
                ("WARC-Date", date),
                ("WARC-Record-ID", self.record_id()),
                ("WARC-Refers-To", response_id),
                ("WARC-Target-URI", url),
                ("Content-Type", "application/warc-fields"),
            ])

    def close(self):
        self.out.close()
        return os.path.getsize(self.path)


def chunked(body, rng):
    out = io.BytesIO()
    i = 0
    while i < len(body):
        size = rng.randrange(1, 4096)
        part = body[i : i + size]
        out.write(b"%x\r\n" % len(part) + part + b"\r\n")
        i += size
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def sha1(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


if __name__ == "__main__":
    main()
