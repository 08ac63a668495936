// A CheerioCrawler for the crawl mode: start at the seed, enqueue every link on it.
// Usage: node crawl.js NODE_MODULES SEED_URL USER_AGENT TIMEOUT WORKDIR
const path = require('path');

const [modules, seed, agent, timeout, workdir] = process.argv.slice(2);
process.env.CRAWLEE_STORAGE_DIR = path.join(workdir, 'storage');
const { CheerioCrawler, Configuration } = require(path.join(modules, '@crawlee/cheerio'));

const seconds = Number(timeout);
const crawler = new CheerioCrawler(
    {
        respectRobotsTxtFile: true,
        maxRequestRetries: 1,
        requestHandlerTimeoutSecs: seconds,
        navigationTimeoutSecs: seconds,
        maxCrawlDepth: 1,
        preNavigationHooks: [
            (_context, gotOptions) => {
                gotOptions.headers = { ...gotOptions.headers, 'User-Agent': agent };
            },
        ],
        async requestHandler({ request, enqueueLinks }) {
            if (request.url === seed) {
                await enqueueLinks({ strategy: 'all' });
            }
        },
    },
    new Configuration({ persistStorage: false }),
);

crawler.run([seed]).then(
    () => process.exit(0),
    (error) => {
        console.error(error);
        process.exit(1);
    },
);
