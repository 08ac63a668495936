'use strict';
// Where the robotstxt-test binary is: in the package for this platform, one of this package's
// optional dependencies (npm installs only the one whose os and cpu match).
const path = require('path');

const platformPackage = `@robotstxt-test/${process.platform}-${process.arch}`;

function binaryPath() {
	if (process.env.ROBOTSTXT_TEST_BINARY) return process.env.ROBOTSTXT_TEST_BINARY;
	let manifest;
	try {
		manifest = require.resolve(`${platformPackage}/package.json`);
	} catch {
		throw new Error(
			`robotstxt-test: ${platformPackage} is not installed, so there is no binary for this ` +
				'platform. It is an optional dependency: install without --omit=optional (or ' +
				'--no-optional), or set ROBOTSTXT_TEST_BINARY to a robotstxt-test binary.'
		);
	}
	return path.join(path.dirname(manifest), 'bin', 'robotstxt-test');
}

module.exports = { binaryPath, platformPackage };
