"""A Scrapy spider for the crawl mode: start at the seed, follow every link on it.

Usage: crawl.py SEED_URL USER_AGENT TIMEOUT
"""

import sys

import scrapy
from scrapy.crawler import CrawlerProcess

SEED, AGENT, TIMEOUT = sys.argv[1], sys.argv[2], float(sys.argv[3])


class SeedSpider(scrapy.Spider):
    name = "seed"
    start_urls = [SEED]

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.page)

    def page(self, response):
        return None


process = CrawlerProcess(
    settings={
        "ROBOTSTXT_OBEY": True,
        "USER_AGENT": AGENT,
        "DOWNLOAD_TIMEOUT": TIMEOUT,
        "DEPTH_LIMIT": 1,
        "TELNETCONSOLE_ENABLED": False,
        "LOG_LEVEL": "INFO",
    }
)
process.crawl(SeedSpider)
process.start()
