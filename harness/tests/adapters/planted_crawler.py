"""A crawler for the harness's planted-escapes tests: it speaks HTTP over a raw socket, so that
what it sends is exactly what the test planted.

Usage: planted_crawler.py SEED_URL AGENT PLANT_FILE

It asks the seed's authority for /robots.txt with the plant after its User-agent, then for a
path holding the plant's bytes (line breaks and all) and the seed itself, writes the plant to
stderr, and exits.
"""
import socket
import sys
import urllib.parse

SEED, AGENT, PLANT = sys.argv[1], sys.argv[2], open(sys.argv[3], "rb").read()
parts = urllib.parse.urlsplit(SEED)


def ask(target, agent):
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=2) as s:
            s.sendall(b"GET " + target + b" HTTP/1.1\r\nHost: " + parts.netloc.encode()
                      + b"\r\nUser-Agent: " + agent + b"\r\nConnection: close\r\n\r\n")
            while s.recv(65536):
                pass
    except OSError:
        pass


ask(b"/robots.txt", AGENT.encode() + PLANT)
ask(b"/" + PLANT, AGENT.encode())
ask(b"/" + PLANT.replace(b"\r", b"").replace(b"\n", b""), AGENT.encode())
ask((parts.path or "/").encode(), AGENT.encode())
sys.stderr.buffer.write(PLANT)
