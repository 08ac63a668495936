#!/usr/bin/env node
'use strict';
// `robotstxt-test` (and `npx robotstxt-test`): runs the platform's binary with the same
// arguments, stdio and exit status.
const { spawn } = require('child_process');
const { binaryPath } = require('../index.js');

let exe;
try {
	exe = binaryPath();
} catch (e) {
	process.stderr.write(`${e.message}\n`);
	process.exit(2);
}
const child = spawn(exe, process.argv.slice(2), { stdio: 'inherit' });
// A signal sent to this process alone (a CI runner's SIGTERM) reaches the binary too, so that
// it stops its adapters and removes its temporary files as it does when signalled itself.
const forwarded = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const signal of forwarded) process.on(signal, () => child.kill(signal));
child.on('error', (e) => {
	process.stderr.write(`robotstxt-test: cannot run ${exe}: ${e.message}\n`);
	process.exit(2);
});
child.on('exit', (code, signal) => {
	if (signal) {
		// End as the binary did, so that a shell sees the same status.
		for (const s of forwarded) process.removeAllListeners(s);
		process.kill(process.pid, signal);
		return;
	}
	process.exit(code);
});
