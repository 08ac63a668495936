import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Adapter for crawler-commons' robots.txt parser (protocol in adapters/PROTOCOL.md). */
public final class Adapter {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where the body was fetched from: the parser resolves sitemaps against it and logs it. */
    private static final String ROBOTS_URL = "http://example.com/robots.txt";

    record Query(String agent, String url) {}

    /**
     * Whether each query's URL may be fetched under {@code body}. parseContent takes the bytes as
     * they are and the robot names for one parse, so the body is parsed once per distinct name.
     * Its documentation asks for single-token names without a version, lower-case and without the
     * wildcard, and points to sanitizeRobotNames for the case and the wildcard: so the adapter
     * passes the query's {@code name} (the robot's name without its version, adapters/PROTOCOL.md)
     * through sanitizeRobotNames. The content type is what a server sends for robots.txt.
     */
    static List<Boolean> check(byte[] body, List<Query> queries) {
        SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
        Map<String, BaseRobotRules> rulesByAgent = new HashMap<>();
        List<Boolean> allowed = new ArrayList<>();
        for (Query query : queries) {
            BaseRobotRules rules = rulesByAgent.computeIfAbsent(query.agent(), agent ->
                    parser.parseContent(ROBOTS_URL, body, "text/plain",
                            SimpleRobotRulesParser.sanitizeRobotNames(List.of(agent))));
            allowed.add(rules.isAllowed(query.url()));
        }
        return allowed;
    }

    /** The version of crawler-commons on the classpath, as its jar records it. */
    static String parserVersion() throws IOException {
        String path = "/META-INF/maven/com.github.crawler-commons/crawler-commons/pom.properties";
        try (InputStream in = SimpleRobotRulesParser.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException(path + " is not in the crawler-commons jar");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but protocol lines on the real stdout
        for (String line; (line = in.readLine()) != null; ) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode msg = JSON.readTree(line);
            String type = msg.path("type").asText();
            ObjectNode answer = JSON.createObjectNode();
            switch (type) {
                case "hello" -> {
                    if (msg.path("protocol").asInt() != 1) {
                        answer.put("error", "unsupported protocol " + msg.path("protocol"));
                        out.println(JSON.writeValueAsString(answer));
                        out.flush();
                        return;
                    }
                    answer.put("name", "java-crawler-commons")
                            .put("parser", "crawler-commons")
                            .put("version", parserVersion())
                            .put("language", "Java")
                            .put("homepage", "https://github.com/crawler-commons/crawler-commons")
                            .put("profile", "rfc9309");
                }
                case "check" -> {
                    answer.set("id", msg.get("id"));
                    byte[] body = Base64.getDecoder().decode(msg.path("robots_b64").asText());
                    List<Query> queries = new ArrayList<>();
                    for (JsonNode q : msg.path("queries")) {
                        queries.add(new Query(q.path("name").asText(), q.path("url").asText()));
                    }
                    List<Boolean> allowed;
                    try {
                        allowed = check(body, queries);
                    } catch (RuntimeException e) { // the parser refusing the input
                        answer.put("error", e.getClass().getName() + ": " + e.getMessage());
                        out.println(JSON.writeValueAsString(answer));
                        out.flush();
                        continue;
                    }
                    ArrayNode results = answer.putArray("results");
                    allowed.forEach(a -> results.add(a ? "allowed" : "disallowed"));
                }
                case "stop" -> {
                    return;
                }
                default -> throw new IllegalStateException("unknown request type " + type);
            }
            out.println(JSON.writeValueAsString(answer));
            out.flush();
        }
    }
}
