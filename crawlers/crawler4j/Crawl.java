// crawler4j as its README starts it: a CrawlController on the seed, one WebCrawler thread that
// follows every link (the default shouldVisit), robots.txt obeyed (RobotstxtConfig's default).
// Arguments: SEED AGENT TIMEOUT WORKDIR.

import edu.uci.ics.crawler4j.crawler.CrawlConfig;
import edu.uci.ics.crawler4j.crawler.CrawlController;
import edu.uci.ics.crawler4j.crawler.WebCrawler;
import edu.uci.ics.crawler4j.fetcher.PageFetcher;
import edu.uci.ics.crawler4j.robotstxt.RobotstxtConfig;
import edu.uci.ics.crawler4j.robotstxt.RobotstxtServer;

public class Crawl {
    public static void main(String[] args) throws Exception {
        String seed = args[0];
        String agent = args[1];
        int timeoutMillis = Integer.parseInt(args[2]) * 1000;
        CrawlConfig config = new CrawlConfig();
        config.setCrawlStorageFolder(args[3] + "/crawl");
        config.setUserAgentString(agent);
        config.setConnectionTimeout(timeoutMillis);
        config.setSocketTimeout(timeoutMillis);
        config.setThreadMonitoringDelaySeconds(1);
        config.setThreadShutdownDelaySeconds(1);
        config.setCleanupDelaySeconds(1);
        PageFetcher fetcher = new PageFetcher(config);
        RobotstxtConfig robots = new RobotstxtConfig();
        robots.setUserAgentName(agent.split("/")[0]);
        CrawlController controller =
            new CrawlController(config, fetcher, new RobotstxtServer(robots, fetcher));
        controller.addSeed(seed);
        controller.start(WebCrawler.class, 1);
        fetcher.shutDown();
    }
}
