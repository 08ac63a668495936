'use strict';
// robots-parser against the robotstxt-test corpus: one subtest per case.
//
//     npm install
//     ROBOTSTXT_TEST_UPDATE_EXPECTATIONS=1 node --test   # write expectations.yaml from today's parser
//     node --test                                        # red only when something changes
const path = require('path');
const { conformance } = require('robotstxt-test/node-test');

conformance({
	module: path.join(__dirname, 'can-fetch.js'),
	name: 'robots-parser',
	profile: 'rfc9309', // its README says it follows the draft that became RFC 9309
	version: require('robots-parser/package.json').version,
	homepage: 'https://github.com/samclarke/robots-parser',
	expectations: path.join(__dirname, 'expectations.yaml'),
});
