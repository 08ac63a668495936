"""protego against the robotstxt-test corpus: one pytest test per case.

    pip install robotstxt-test -r requirements.txt
    ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 pytest   # write expectations.yaml from today's protego
    pytest                                        # red only when something changes
"""
from importlib.metadata import version

from protego import Protego

import robotstxt_test


def can_fetch(robots: bytes, agent: str, product_token: str, url: str) -> bool:
    # Protego.parse takes str: Scrapy, its main user, decodes the body as UTF-8 and drops what
    # is not. Its can_fetch takes the robot's name as the crawler gives it (`agent`).
    return Protego.parse(robots.decode("utf-8", errors="ignore")).can_fetch(url, agent)


test_conformance = robotstxt_test.conformance(
    can_fetch,
    name="protego",
    profile="rfc9309",  # protego's README says it follows RFC 9309
    version=version("protego"),
    homepage="https://github.com/scrapy/protego",
)
