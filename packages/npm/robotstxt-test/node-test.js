'use strict';
// The robotstxt-test corpus under `node --test`: one subtest per case, gated by an expectation
// file. In a test file:
//
//     const { conformance } = require('robotstxt-test/node-test');
//     conformance({ module: require.resolve('./can-fetch.js'), name: 'my-parser', profile: 'rfc9309' });
//
// Scoring stays in the binary: `robotstxt-test run --adapter-cmd` runs an adapter process
// (lib/adapter.js) that calls the parser, and each subtest reads its case's verdict.
const fs = require('fs');
const path = require('path');
const { describe, it } = require('node:test');
const { gate } = require('./lib/gate.js');

const PROFILES = ['norobots-1994', 'rfc9309', 'other'];
// The variable the Rust recipe and the pytest plugin read too.
const UPDATE_VARIABLE = 'ROBOTSTXT_TEST_UPDATE_EXPECTATIONS';

// A failure that shows the binary's block, not this module's stack.
function failure(message) {
	const error = new Error(message);
	error.stack = message;
	return error;
}

/**
 * Registers a suite (`robotstxt-test conformance`, or `title`) with one test per case.
 *
 * - `module`: the file (absolute, or relative to the current folder) whose export is the parser
 *   under test: a function `(robots: Buffer, agent, productToken, url) => boolean` (true:
 *   allowed; it may return a promise), or a class built once per robots.txt body,
 *   `new Parser(robots)`, whose `isAllowed(agent, productToken, url)` answers each query. It
 *   runs in a separate process that imports the file, so keep it apart from the test file.
 *   An exception from the class's constructor is the parser refusing the body; one from the
 *   function or from `isAllowed` refuses that query.
 * - `export`: the export's name (default: the default export, or `module.exports` itself).
 * - `name`, `profile` (`norobots-1994`, `rfc9309` or `other`: the text the parser claims, which
 *   decides how each check is scored), `version`, `parser`, `homepage`: its handshake.
 * - `expectations` (default `expectations.yaml` in the current folder): the checks it is known
 *   not to pass. A case failing only as listed is a todo test; any other failure fails. Write it
 *   with ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 node --test. `strict: true` also fails a case
 *   whose listed check now passes. `timeout`: the binary's per-answer limit, in seconds.
 */
function conformance(options) {
	const { module, name, profile } = options;
	if (!module || !name) throw new TypeError('conformance() needs `module` and `name`');
	if (!PROFILES.includes(profile)) {
		throw new TypeError(`profile must be one of ${PROFILES.join(', ')}, not ${JSON.stringify(profile)}`);
	}
	const expectations = path.resolve(options.expectations || 'expectations.yaml');
	const config = {
		module: path.resolve(module),
		export: options.export || null,
		hello: {
			name,
			parser: options.parser || name,
			version: String(options.version ?? 'unknown'),
			language: 'JavaScript',
			homepage: options.homepage || '',
			profile,
		},
	};
	const update = !['', '0'].includes(process.env[UPDATE_VARIABLE] || '');
	describe(options.title || 'robotstxt-test conformance', async () => {
		let judged;
		try {
			judged = await gate({ config, expectations, update, cwd: process.cwd(), timeout: options.timeout });
		} catch (e) {
			it('robotstxt-test run', () => {
				throw failure(e.message);
			});
			return;
		}
		const hint = !fs.existsSync(expectations)
			? `\n(no ${expectations}: every non-pass fails; write it from today's parser with ${UPDATE_VARIABLE}=1 node --test)`
			: '';
		for (const id of judged.cases()) {
			const verdict = judged.verdict(id);
			const todo = verdict.kind === 'todo' ? verdict.message : undefined;
			it(id, { todo }, (t) => {
				if (verdict.kind === 'fail') throw failure(verdict.message + hint);
				// A todo test must fail to show as one that still fails as listed.
				if (verdict.kind === 'todo') throw failure(verdict.message);
				if (verdict.kind === 'xpass') {
					if (options.strict) throw failure(verdict.message);
					t.diagnostic(verdict.message);
				}
			});
		}
		process.stderr.write(`robotstxt-test: ${judged.summary()}\n`);
	});
}

module.exports = { conformance, UPDATE_VARIABLE, PROFILES };
