# Adapter for webrobots (protocol in adapters/PROTOCOL.md).
require 'base64'
require 'json'
require 'webrobots'

$stdin.binmode
$stdout.sync = true
out = $stdout
$stdout = $stderr # nothing but protocol lines on the real stdout

HELLO = {
  name: 'ruby-webrobots',
  parser: 'webrobots',
  version: Webrobots::VERSION,
  language: 'Ruby',
  homepage: 'https://github.com/knu/webrobots',
  profile: 'other'
}.freeze

def check(body, queries)
  # A WebRobots object is made for one robot name and fetches robots.txt itself through
  # :http_get, which here hands over the raw bytes (a binary String, as Net::HTTP returns).
  # Crawl-delay is ignored so that allowed? never sleeps.
  robots = Hash.new do |h, agent|
    h[agent] = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)
  end
  queries.map do |q|
    robot = robots[q['agent']]
    allowed = robot.allowed?(q['url'])
    # A body it cannot parse is not raised: allowed? then allows everything, and the
    # error is kept aside. Show it on stderr.
    if (error = robot.error(q['url']))
      warn "webrobots: #{error.class}: #{error.message}"
    end
    allowed ? 'allowed' : 'disallowed'
  end
end

$stdin.each_line do |line|
  next if line.strip.empty?

  msg = JSON.parse(line)
  case msg['type']
  when 'hello'
    if msg['protocol'] != 1
      out.puts JSON.generate(error: "unsupported protocol #{msg['protocol'].inspect}")
      exit 0
    end
    answer = HELLO
  when 'check'
    body = Base64.strict_decode64(msg['robots_b64'])
    begin
      answer = { id: msg['id'], results: check(body, msg['queries']) }
    rescue StandardError => e # the parser refusing the input
      answer = { id: msg['id'], error: "#{e.class}: #{e.message}" }
    end
  when 'stop'
    exit 0
  else
    raise "unknown request type #{msg['type'].inspect}"
  end
  out.puts JSON.generate(answer)
end
