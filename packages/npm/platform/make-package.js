'use strict';
// Writes the package that carries the binary for one platform, `@robotstxt-test/<os>-<cpu>`,
// into a folder, as scripts/build-packages.sh and the release workflow pack it:
//
//     node make-package.js OUT_DIR BINARY OS CPU VERSION
//
// npm installs it only where `os` and `cpu` match, as an optional dependency of robotstxt-test.
const fs = require('fs');
const path = require('path');

const [out, binary, os, cpu, version] = process.argv.slice(2);
if (!version) {
	process.stderr.write('usage: node make-package.js OUT_DIR BINARY OS CPU VERSION\n');
	process.exit(2);
}
const name = `@robotstxt-test/${os}-${cpu}`;
const exe = 'robotstxt-test'; // Unix only, as the binary is
fs.mkdirSync(path.join(out, 'bin'), { recursive: true });
fs.copyFileSync(binary, path.join(out, 'bin', exe));
fs.chmodSync(path.join(out, 'bin', exe), 0o755);
const manifest = {
	name,
	version,
	description: `The robotstxt-test binary for ${os}-${cpu}; install robotstxt-test, which uses it.`,
	license: 'MIT OR Apache-2.0',
	repository: { type: 'git', url: 'git+https://github.com/robotstxt-test/robotstxt-test.git' },
	os: [os],
	cpu: [cpu],
	files: ['bin/'],
	preferUnplugged: true,
};
fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
fs.writeFileSync(
	path.join(out, 'README.md'),
	`# ${name}\n\nThe \`robotstxt-test\` binary for ${os}-${cpu}. Install [robotstxt-test](https://www.npmjs.com/package/robotstxt-test) instead: it picks this package on this platform.\n`
);
