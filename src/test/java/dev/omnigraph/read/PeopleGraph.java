package dev.omnigraph.read;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/** A local graph of {@code graphs/people.pg} holding the given NDJSON lines, for the query-language tests. */
final class PeopleGraph {

  private PeopleGraph() {}

  static Omnigraph create(Path dir, String... ndjsonLines) throws Exception {
    Omnigraph graph = Omnigraph.init(StorageConfig.local(dir.resolve("g")), resource("graphs/people.pg"),
        Optional.of("t"));
    graph.load("main", new StringReader(String.join("\n", ndjsonLines)), LoadMode.APPEND, Optional.of("t"));
    return graph;
  }

  static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}";
  }

  static String knows(String from, String to, String since) {
    return "{\"edge\":\"Knows\",\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"data\":{"
        + (since == null ? "" : "\"since\":" + since) + "}}";
  }

  private static String resource(String name) throws Exception {
    try (InputStream in = PeopleGraph.class.getClassLoader().getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
