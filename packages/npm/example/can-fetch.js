'use strict';
// robots-parser, called as its users call it: the body as a string (fetch()'s Response.text()
// decodes UTF-8 the way TextDecoder does), the robot's name as the crawler gives it.
const robotsParser = require('robots-parser');

module.exports = function canFetch(robots, agent, productToken, url) {
	const parsed = robotsParser('http://example.com/robots.txt', new TextDecoder().decode(robots));
	return parsed.isAllowed(url, agent);
};
