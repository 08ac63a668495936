'use strict';
// Runs the corpus through the binary and reads what it says, case by case. Nothing here scores
// a check: `robotstxt-test run --format json` does, against the expectation file; this module
// groups its verdicts by case and finds the block the binary prints for each regression.
const { execFile } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { binaryPath } = require('../index.js');

const NOT_FAILURES = new Set(['pass', 'unspecified']);

function run(args, cwd) {
	return new Promise((resolve) => {
		const options = { cwd, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 30 };
		execFile(binaryPath(), args, options, (error, stdout, stderr) => {
			const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
			resolve({ code, stdout, stderr, error });
		});
	});
}

// Why the binary gave no verdict, in its own words. For an adapter that would not run (3), that
// is its text output, which holds the adapter's stderr (a stack trace), not the JSON.
async function said(proc, args, cwd) {
	if (proc.code === null) return `robotstxt-test did not run: ${proc.error.message}`;
	let text = proc.stderr;
	if (proc.code === 3 && args) {
		const again = await run(args, cwd);
		text = again.stdout + again.stderr;
	}
	const lines = text.split('\n').filter((l) => !l.startsWith('corpus: '));
	return `robotstxt-test exited ${proc.code}:\n${lines.join('\n').trim()}`;
}

// A shell-style quote for one argument of --adapter-cmd (the binary splits it as a shell would).
function quote(arg) {
	return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

// Each regression's (and unstable answer's) block in `run`'s text, by check id: a headline,
// then its indented lines.
function blocksOf(text) {
	const blocks = new Map();
	let current = null;
	for (const line of text.split('\n')) {
		if (/^(REGRESSION|UNSTABLE) /.test(line)) {
			current = [line];
			const match = /(\S+#\d+) — /.exec(line);
			if (match) blocks.set(match[1], current);
		} else if (current && line.startsWith(' ')) {
			current.push(line);
		} else {
			current = null;
		}
	}
	return new Map([...blocks].map(([id, lines]) => [id, lines.join('\n')]));
}

const caseOf = (checkId) => checkId.slice(0, checkId.lastIndexOf('#'));

class Judged {
	constructor(document, file, blocks) {
		this.document = document;
		this.file = file;
		this.blocks = blocks;
		this.byCase = new Map();
		for (const row of document.results) {
			if (!this.byCase.has(row.case)) this.byCase.set(row.case, []);
			this.byCase.get(row.case).push(row);
		}
	}

	cases() {
		return [...this.byCase.keys()];
	}

	ids(key, id) {
		return this.document.gate[key].filter((checkId) => caseOf(checkId) === id);
	}

	// What one case came to: pass, fail (with the blocks), todo (failing as listed) or xpass.
	verdict(id) {
		const broken = [...this.ids('regression_ids', id), ...this.ids('unstable_ids', id)];
		if (broken.length) {
			return { kind: 'fail', message: broken.map((c) => this.blocks.get(c) || this.fallback(c)).join('\n') };
		}
		const listed = (this.byCase.get(id) || []).filter((r) => !NOT_FAILURES.has(r.outcome));
		if (listed.length) {
			const what = listed.map((r) => `#${r.check} ${r.outcome}${r.cause ? ` (${r.cause})` : ''}`);
			return { kind: 'todo', message: `listed in ${path.basename(this.file)}: ${what.join('; ')}` };
		}
		const passing = this.ids('unexpected_pass_ids', id);
		if (passing.length) {
			return { kind: 'xpass', message: `listed in ${this.file} but passes now: ${passing.join(', ')}` };
		}
		return { kind: 'pass' };
	}

	fallback(checkId) {
		const check = checkId.slice(checkId.lastIndexOf('#') + 1);
		const row = this.byCase.get(caseOf(checkId)).find((r) => String(r.check) === check);
		return `REGRESSION ${checkId} — ${row.outcome}: agent \`${row.agent}\`, path \`${row.path}\`, expected ${row.expected}, actual ${row.actual}`;
	}

	// The binary's own summary line for the run, with the gate's counts.
	summary() {
		const { handshake: h, summary: s, gate: g, profile } = this.document;
		return (
			`${h.name} ${h.version} (${profile}): ${s.passed} passed, ${s.failed} failed, ` +
			`${s.unspecified} unspecified, ${s.errored} errored\n` +
			`  against ${this.file}: ${g.as_listed} non-passes as listed, ${g.regressions} regressions, ` +
			`${g.unstable} unstable, ${g.unexpected_passes} unexpected passes`
		);
	}
}

// The header of a file the binary wrote names the temporary adapter command it was run with;
// say instead how this file is written and used.
function retitle(file, lines) {
	const text = fs.readFileSync(file, 'utf8').split('\n');
	const from = text.findIndex((l) => l.startsWith('# Written by: '));
	const to = text.findIndex((l) => l.startsWith('# Every entry was generated'));
	if (from < 0 || to < from) return;
	text.splice(from, to - from, ...lines.map((l) => `# ${l}`));
	const partial = `${file}.partial`;
	fs.writeFileSync(partial, text.join('\n'));
	fs.renameSync(partial, file);
}

// Runs the corpus against the adapter process `config` describes, gated on `expectations`
// (written first when `update`). A missing file lists nothing: every non-pass is a failure.
async function gate({ config, expectations, update, cwd, timeout }) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'robotstxt-test-'));
	try {
		const configFile = path.join(tmp, 'adapter.json');
		fs.writeFileSync(configFile, JSON.stringify(config));
		const adapter = [process.execPath, path.join(__dirname, 'adapter.js'), configFile].map(quote).join(' ');
		const args = ['run', '--adapter-cmd', adapter];
		if (timeout !== undefined) args.push('--timeout', String(timeout));
		let file = expectations;
		if (update) {
			args.push('--update-expectations', expectations);
		} else {
			if (!fs.existsSync(expectations)) {
				file = path.join(tmp, 'none.yaml');
				fs.writeFileSync(file, `adapter: ${JSON.stringify(config.hello.name)}\nexpectations: []\n`);
			}
			args.push('--expectations', file);
		}
		const proc = await run([...args, '--format', 'json'], cwd);
		// 0 as expected, 1 a regression, 4 an unstable answer; anything else is no verdict.
		if (![0, 1, 4].includes(proc.code)) throw new Error(await said(proc, args, cwd));
		const document = JSON.parse(proc.stdout);
		if (update) {
			retitle(expectations, [
				'Written by: ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 node --test',
				'Gate: node --test (a listed check is a todo test; strict: true fails on unexpected passes too).',
			]);
		}
		let blocks = new Map();
		const g = document.gate;
		if (g.regression_ids.length || g.unstable_ids.length) {
			// The blocks `run` prints, from the same run again as text.
			blocks = blocksOf((await run(args, cwd)).stdout);
		}
		return new Judged(document, expectations, blocks);
	} finally {
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

module.exports = { gate, blocksOf, Judged, run, said };
