package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SearchIndexMissing;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example of docs/indexes-and-search.md runs as written and returns what the text says. */
class SearchDocsExampleTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** The fenced blocks of the doc's "### Example" section, in order. */
  private static List<String> exampleBlocks() throws Exception {
    String doc = Files.readString(Path.of("docs/indexes-and-search.md"));
    String example = doc.substring(doc.indexOf("### Example"), doc.indexOf("### Errors"));
    List<String> blocks = new ArrayList<>();
    String[] parts = example.split("```");
    for (int i = 1; i < parts.length; i += 2) {
      blocks.add(parts[i].strip());
    }
    return blocks;
  }

  private static List<Object> slugs(ReadOutput out) {
    return out.rows().stream().map(r -> r.get("d.slug")).toList();
  }

  @Test
  void theDocumentedExampleRuns() throws Exception {
    List<String> blocks = exampleBlocks();
    String schema = blocks.get(0);
    String data = blocks.get(1);
    String queries = blocks.get(2);
    StorageConfig config = StorageConfig.local(dir);
    try (Omnigraph g = Omnigraph.init(config, schema, Optional.of("docs"))) {
      g.load("main", new StringReader(data), LoadMode.APPEND, Optional.of("docs"));
      // Before the indexes: vectors work (flat), full text is refused.
      assertThat(slugs(g.query(Optional.empty(), Optional.empty(), queries, "similar",
          JSON.readTree("{\"q\":[0.1,0.2,0.3,0.4]}")))).containsExactly("ml-intro", "dl-basics");
      for (String name : List.of("relevant", "typo", "hybrid")) {
        String params = name.equals("hybrid") ? "{\"vq\":[0.1,0.2,0.3,0.4],\"tq\":\"x\"}" : "{\"q\":\"x\"}";
        assertThatThrownBy(() -> g.query(Optional.empty(), Optional.empty(), queries, name, JSON.readTree(params)))
            .as(name).isInstanceOf(SearchIndexMissing.class);
      }
      // The docs' `omnigraph index ensure` step, through the real writer.
      assertThat(g.ensureIndices("main", Optional.of("act-test")).changed()).isTrue();
      ReadOutput similar = g.query(Optional.empty(), Optional.empty(), queries, "similar",
          JSON.readTree("{\"q\":[0.1,0.2,0.3,0.4]}"));
      assertThat(slugs(similar)).containsExactly("ml-intro", "dl-basics");
      assertThat((Double) similar.rows().get(0).get("distance")).isCloseTo(0.0,
          org.assertj.core.api.Assertions.within(1e-12));
      assertThat(slugs(g.query(Optional.empty(), Optional.empty(), queries, "relevant",
          JSON.readTree("{\"q\":\"learning\"}")))).containsExactlyInAnyOrder("ml-intro", "dl-basics", "rl-intro");
      assertThat(slugs(g.query(Optional.empty(), Optional.empty(), queries, "typo",
          JSON.readTree("{\"q\":\"vison\"}")))).containsExactly("cv-overview");
      assertThat(g.query(Optional.empty(), Optional.empty(), queries, "hybrid",
          JSON.readTree("{\"vq\":[0.1,0.2,0.3,0.4],\"tq\":\"learning\"}")).rows()).hasSize(4);
    }
  }
}
