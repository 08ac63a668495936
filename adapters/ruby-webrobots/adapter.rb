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

# What a crawler hands a strict URI type: the URL with every byte RFC 3986 does not allow in a path
# or query percent-encoded (PROTOCOL.md, "Paths a crawler would have encoded"). Used only for a URL
# that URI.parse, which WebRobots#allowed? calls, refuses as written.
PATH_OR_QUERY_BYTE = %r{[A-Za-z0-9\-._~!$&'()*+,;=:@/?]}.freeze

def crawler_encoded(url)
  origin = url[%r{\Ahttps?://[^/]*}] || ''
  rest = url.b[origin.bytesize..]
  encoded = +''
  rest.each_byte.with_index do |byte, i|
    char = byte.chr
    escape_start = byte == 0x25 && rest.byteslice(i + 1, 2) =~ /\A\h\h\z/
    encoded << (escape_start || (byte < 0x80 && char =~ PATH_OR_QUERY_BYTE) ? char : format('%%%02X', byte))
  end
  origin + encoded
end

# The URL to ask about, or the reason its refusal is the query's: see crawler_encoded.
def url_for(given)
  URI.parse(given)
  [given, nil]
rescue URI::InvalidURIError
  encoded = crawler_encoded(given)
  begin
    URI.parse(encoded)
    [encoded, nil]
  rescue URI::InvalidURIError => e
    [nil, "#{e.class}: #{e.message}"]
  end
end

def check(body, queries)
  # A WebRobots object is made for one robot name and fetches robots.txt itself through
  # :http_get, which here hands over the raw bytes (a binary String, as Net::HTTP returns).
  # Crawl-delay is ignored so that allowed? never sleeps.
  robots = Hash.new do |h, agent|
    h[agent] = WebRobots.new(agent, http_get: ->(_uri) { body }, crawl_delay: :ignore)
  end
  queries.map do |q|
    url, refused = url_for(q['url'])
    next { error: refused } if refused

    robot = robots[q['agent']]
    allowed = robot.allowed?(url)
    # A body it cannot parse is not raised: allowed? then allows everything, and the
    # error is kept aside. Show it on stderr.
    if (error = robot.error(url))
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
