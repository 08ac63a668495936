// Adapter for robots-parser (protocol in adapters/PROTOCOL.md).
// Usage: node adapter.js <node_modules folder holding robots-parser> [adapter name]
// The manifest runs this one program for every version it lists, each under its own name.
'use strict';
const path = require('path');
const readline = require('readline');

const modules = process.argv[2] && path.resolve(process.argv[2]);
if (!modules) {
	process.stderr.write('usage: node adapter.js NODE_MODULES_DIR\n');
	process.exit(2);
}
const robotsParser = require(path.join(modules, 'robots-parser'));
const { version } = require(path.join(modules, 'robots-parser', 'package.json'));

const HELLO = {
	name: process.argv[3] || 'node-robots-parser',
	parser: 'robots-parser',
	version,
	language: 'JavaScript',
	homepage: 'https://github.com/samclarke/robots-parser',
	profile: 'rfc9309'
};

function check(body, queries) {
	// The parser takes a string. Its users typically get one from fetch()'s Response.text(),
	// which decodes UTF-8 the WHATWG way (TextDecoder): a leading BOM is dropped and invalid
	// sequences become U+FFFD.
	const robots = robotsParser('http://example.com/robots.txt', new TextDecoder().decode(body));
	const results = [];
	for (const q of queries) {
		const allowed = robots.isAllowed(q.url, q.agent);
		if (allowed === undefined) {
			// isAllowed() answers undefined for a URL it does not accept for this robots.txt.
			return { error: `undefined: isAllowed rejected URL ${q.url}` };
		}
		results.push(allowed ? 'allowed' : 'disallowed');
	}
	return { results };
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
		let outcome;
		try {
			outcome = check(body, msg.queries);
		} catch (e) {
			// the parser refusing the input
			outcome = { error: `${e && e.name ? e.name : typeof e}: ${e && e.message}` };
		}
		answer = { id: msg.id, ...outcome };
	} else if (msg.type === 'stop') {
		process.exit(0);
	} else {
		throw new Error(`unknown request type ${msg.type}`);
	}
	process.stdout.write(JSON.stringify(answer) + '\n');
});
