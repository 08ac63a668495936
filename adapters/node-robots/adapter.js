// Adapter for robots (protocol in adapters/PROTOCOL.md).
// Usage: node adapter.js <node_modules folder holding robots>
'use strict';
const path = require('path');
const readline = require('readline');

const modules = process.argv[2] && path.resolve(process.argv[2]);
if (!modules) {
	process.stderr.write('usage: node adapter.js NODE_MODULES_DIR\n');
	process.exit(2);
}
const { RobotsParser } = require(path.join(modules, 'robots'));
const { version } = require(path.join(modules, 'robots', 'package.json'));

const HELLO = {
	name: 'node-robots',
	parser: 'robots',
	version,
	language: 'JavaScript',
	homepage: 'https://github.com/ekalinin/robots.js',
	profile: 'norobots-1994'
};

function check(body, queries) {
	// What RobotsParser.read() does with a fetched body before parse(): decode it as UTF-8
	// (invalid sequences replaced by U+FFFD, a leading BOM kept) and split it into lines at
	// CRLF, CR or LF. parse() itself takes only that list of lines.
	const robots = new RobotsParser();
	robots.parse(body.toString('utf8').split(/\r\n|\r|\n/));
	// canFetchSync() takes the path, as the README's examples pass it.
	return queries.map((q) => (robots.canFetchSync(q.agent, q.path) ? 'allowed' : 'disallowed'));
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
