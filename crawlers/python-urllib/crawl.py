"""A control crawler on Python's standard library alone: urllib.request fetches, and
urllib.robotparser decides, used as its documentation shows (set_url, read, can_fetch).

Usage: crawl.py SEED_URL USER_AGENT TIMEOUT

It fetches the seed, then every link on it that can_fetch allows. read() fetches robots.txt
itself: a 401 or 403 disallows everything, any other 4xx or 5xx allows everything. A robots.txt
that read() cannot fetch at all (it raises: a network error, a body cut short) leaves the authority's pages alone.
"""

import http.client
import re
import socket
import sys
import urllib.parse
import urllib.request
import urllib.robotparser

SEED, AGENT, TIMEOUT = sys.argv[1], sys.argv[2], float(sys.argv[3])
# read() takes no timeout of its own: the default socket timeout bounds it.
socket.setdefaulttimeout(TIMEOUT)
opener = urllib.request.build_opener()
opener.addheaders = [("User-Agent", AGENT)]
# read() goes through urlopen, which uses the installed opener: it sends the same User-agent.
urllib.request.install_opener(opener)

parsers = {}


def allowed(url):
    parts = urllib.parse.urlsplit(url)
    authority = f"{parts.scheme}://{parts.netloc}"
    if authority not in parsers:
        parser = urllib.robotparser.RobotFileParser(authority + "/robots.txt")
        try:
            parser.read()
        except (OSError, http.client.HTTPException):
            parser = None
        parsers[authority] = parser
    parser = parsers[authority]
    return parser is not None and parser.can_fetch(AGENT, url)


def fetch(url):
    try:
        with urllib.request.urlopen(url) as response:
            return response.read()
    except (OSError, http.client.HTTPException):
        return b""


if allowed(SEED):
    seed = fetch(SEED).decode("utf-8", "replace")
    for link in re.findall(r'href="([^"]+)"', seed):
        url = urllib.parse.urljoin(SEED, link)
        if allowed(url):
            fetch(url)
