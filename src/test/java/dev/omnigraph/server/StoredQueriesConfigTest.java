package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code omnigraph.graphs.<id>.queries} as {@link GraphRegistry} reads it: fail closed when serving
 * (a broken file, a name declared twice, a key for a graph not served), and never read by a CLI
 * command ({@code quarkus.http.host-enabled=false}), which must not fail on a server's catalog.
 */
class StoredQueriesConfigTest {

  /** No tokens, no policy: these tests are about the catalog, not authorization. */
  private static final Authorization OPEN = new Authorization(java.util.Optional.empty(), java.util.Map.of(), false);

  @TempDir Path dir;

  private Config config(Map<String, String> values) {
    return new io.smallrye.config.SmallRyeConfigBuilder().withDefaultValues(values).build();
  }

  private Map<String, String> graph(String queries) {
    Map<String, String> values = new HashMap<>();
    values.put("omnigraph.graphs.a.uri", dir.resolve("a").toString());
    values.put("omnigraph.graphs.a.queries", queries);
    return values;
  }

  @Test
  void servingLoadsEveryFileOfTheKey() throws Exception {
    Path one = Files.writeString(dir.resolve("one.gq"), "query r() { match { $p: P } return { $p.x } }\n");
    Path two = Files.writeString(dir.resolve("two.gq"), "query w($x: I64) { delete P where x = $x }\n");
    GraphRegistry registry = new GraphRegistry(config(graph(one + " , " + two)), OPEN);
    try {
      assertThat(registry.get("a").storedQueries().names()).containsExactly("r", "w");
    } finally {
      registry.close();
    }
  }

  @Test
  void servingRefusesABrokenCatalogNamingTheFile() throws Exception {
    Path broken = Files.writeString(dir.resolve("broken.gq"), "query r( {\n");
    assertThatThrownBy(() -> new GraphRegistry(config(graph(broken.toString())), OPEN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("stored queries: " + broken + ": 1:");
    assertThatThrownBy(() -> new GraphRegistry(config(graph(dir.resolve("absent.gq").toString())), OPEN))
        .hasMessageStartingWith("stored queries: cannot read " + dir.resolve("absent.gq"));
    Map<String, String> other = graph(broken.toString());
    other.remove("omnigraph.graphs.a.queries");
    other.put("omnigraph.graphs.b.queries", broken.toString());
    assertThatThrownBy(() -> new GraphRegistry(config(other), OPEN))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("omnigraph.graphs.b.queries names graph 'b', which this server does not serve (serving: a)");
  }

  @Test
  void aCliCommandNeverReadsTheCatalog() {
    Map<String, String> values = graph(dir.resolve("absent.gq").toString());
    values.put("omnigraph.graphs.b.queries", dir.resolve("absent.gq").toString());
    values.put("quarkus.http.host-enabled", "false");
    GraphRegistry registry = new GraphRegistry(config(values), OPEN);
    try {
      assertThat(registry.get("a").storedQueries().names()).isEmpty();
    } finally {
      registry.close();
    }
  }
}
