'use strict';
// The adapter process node-test.js hands to `robotstxt-test run --adapter-cmd`. It speaks the
// adapter protocol (adapters/PROTOCOL.md in the robotstxt-test repository) on stdin/stdout and
// answers each query by calling the parser under test in-process. Usage:
//
//     node adapter.js CONFIG.json
//
// CONFIG.json holds the handshake and where the parser is: a module file and an export name.
const fs = require('fs');
const readline = require('readline');
const { pathToFileURL } = require('url');

function isClass(value) {
	return typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
}

function refusal(e) {
	return e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;
}

async function load(config) {
	// import() takes CommonJS and ES modules alike.
	const module = await import(pathToFileURL(config.module).href);
	const target = config.export
		? module[config.export] ?? module.default?.[config.export]
		: module.default ?? module;
	if (typeof target !== 'function') {
		const which = config.export ? `export ${config.export}` : 'default export';
		throw new Error(`${config.module}: its ${which} is no function or class`);
	}
	return target;
}

async function answerCheck(target, msg) {
	const body = Buffer.from(msg.robots_b64, 'base64');
	let ask;
	if (isClass(target)) {
		let parsed;
		try {
			parsed = new target(body);
		} catch (e) {
			return { id: msg.id, error: refusal(e) }; // the parser refusing the body
		}
		ask = (q) => parsed.isAllowed(q.agent, q.product_token, q.url);
	} else {
		ask = (q) => target(body, q.agent, q.product_token, q.url);
	}
	const results = [];
	for (const q of msg.queries) {
		let allowed;
		try {
			allowed = await ask(q);
		} catch (e) {
			results.push({ error: refusal(e) }); // the parser refusing this query
			continue;
		}
		if (typeof allowed !== 'boolean') {
			results.push({ error: `answered ${String(allowed)}, not true or false` });
			continue;
		}
		results.push(allowed ? 'allowed' : 'disallowed');
	}
	return { id: msg.id, results };
}

async function main() {
	const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
	// stdout carries protocol lines only: a stray console.log goes to stderr.
	const write = process.stdout.write.bind(process.stdout);
	console.log = console.error;
	const target = await load(config);
	const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
	for await (const line of lines) {
		if (!line.trim()) continue;
		const msg = JSON.parse(line);
		let answer;
		if (msg.type === 'hello') {
			if (msg.protocol !== 1) {
				write(JSON.stringify({ error: `unsupported protocol ${msg.protocol}` }) + '\n');
				break;
			}
			answer = config.hello;
		} else if (msg.type === 'check') {
			answer = await answerCheck(target, msg);
		} else if (msg.type === 'stop') {
			break;
		} else {
			throw new Error(`unknown request type ${msg.type}`);
		}
		write(JSON.stringify(answer) + '\n');
	}
	lines.close();
}

main().catch((e) => {
	process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
	process.exit(1);
});
