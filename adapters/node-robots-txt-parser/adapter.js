// Adapter for robots-txt-parser (protocol in adapters/PROTOCOL.md).
// Usage: node adapter.js <node_modules folder holding robots-txt-parser>
'use strict';
const path = require('path');
const readline = require('readline');

const modules = process.argv[2] && path.resolve(process.argv[2]);
if (!modules) {
	process.stderr.write('usage: node adapter.js NODE_MODULES_DIR\n');
	process.exit(2);
}
const robotsTxtParser = require(path.join(modules, 'robots-txt-parser'));
const { version } = require(path.join(modules, 'robots-txt-parser', 'package.json'));

const HELLO = {
	name: 'node-robots-txt-parser',
	parser: 'robots-txt-parser',
	version,
	language: 'JavaScript',
	homepage: 'https://github.com/chrisakroyd/robots-txt-parser',
	profile: 'other'
};

function check(body, queries) {
	// The library's own fetch hands the parser the response body as Buffer.toString(): UTF-8,
	// invalid sequences replaced by U+FFFD, a leading BOM kept.
	const robots = robotsTxtParser();
	robots.parseRobots('http://example.com', body.toString());
	return queries.map((q) => {
		robots.setUserAgent(q.agent);
		return robots.canCrawlSync(q.url) ? 'allowed' : 'disallowed';
	});
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
	if (!line.trim()) return;
	const msg = JSON.parse(line);
	let answer;
	if (msg.type === 'hello') {
		if (msg.protocol !== 1) {
			const error = JSON.stringify({ error: `unsupported protocol ${msg.protocol}` });
			process.stdout.write(error + '\n', () => process.exit(0));
			rl.close();
			return;
		}
		answer = HELLO;
	} else if (msg.type === 'check') {
		const body = Buffer.from(msg.robots_b64, 'base64');
		try {
			answer = { id: msg.id, results: check(body, msg.queries) };
		} catch (e) {
			// the parser refusing the input
			answer = { id: msg.id, error: `${e && e.name ? e.name : typeof e}: ${e && e.message}` };
		}
	} else if (msg.type === 'stop') {
		process.exit(0);
	} else {
		throw new Error(`unknown request type ${msg.type}`);
	}
	process.stdout.write(JSON.stringify(answer) + '\n');
});
