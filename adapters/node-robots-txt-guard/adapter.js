// Adapter for robots-txt-guard, fed by robots-txt-parse as its README says (protocol in
// adapters/PROTOCOL.md).
// Usage: node adapter.js <node_modules folder holding robots-txt-guard and robots-txt-parse>
'use strict';
const path = require('path');
const readline = require('readline');
const { Readable } = require('stream');

const modules = process.argv[2] && path.resolve(process.argv[2]);
if (!modules) {
	process.stderr.write('usage: node adapter.js NODE_MODULES_DIR\n');
	process.exit(2);
}
const guard = require(path.join(modules, 'robots-txt-guard'));
const parse = require(path.join(modules, 'robots-txt-parse'));
const versionOf = (name) => require(path.join(modules, name, 'package.json')).version;

const HELLO = {
	name: 'node-robots-txt-guard',
	parser: 'robots-txt-guard',
	version: versionOf('robots-txt-guard'),
	language: 'JavaScript',
	homepage: 'https://github.com/Woorank/robots-txt-guard',
	profile: 'other'
};

async function check(body, queries) {
	// robots-txt-parse reads a stream of bytes (its README passes fs.createReadStream), so the
	// exact bytes go in; it splits lines and decodes UTF-8 itself. Its result configures the guard.
	const robots = guard(await parse(Readable.from([body])));
	// isAllowed() takes the path, as the README's examples pass it.
	return queries.map((q) => (robots.isAllowed(q.agent, q.path) ? 'allowed' : 'disallowed'));
}

async function answer(msg) {
	if (msg.type === 'hello') {
		if (msg.protocol !== 1) return { error: `unsupported protocol ${msg.protocol}` };
		return HELLO;
	}
	if (msg.type !== 'check') throw new Error(`unknown request type ${msg.type}`);
	const body = Buffer.from(msg.robots_b64, 'base64');
	try {
		return { id: msg.id, results: await check(body, msg.queries) };
	} catch (e) {
		// the parser refusing the input
		return { id: msg.id, error: `${e && e.name ? e.name : typeof e}: ${e && e.message}` };
	}
}

// Parsing is asynchronous: answers are chained so that they leave in the order asked.
let pending = Promise.resolve();
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
	if (!line.trim()) return;
	const msg = JSON.parse(line);
	pending = pending.then(async () => {
		if (msg.type === 'stop') process.exit(0);
		const reply = await answer(msg);
		process.stdout.write(JSON.stringify(reply) + '\n');
		if (reply.error && !reply.id) process.exit(0);
	});
	pending.catch((e) => {
		// a bug in the adapter: die, so the harness records a crash
		process.stderr.write(`${e && e.stack}\n`);
		process.exit(70);
	});
});
