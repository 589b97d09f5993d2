package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.Omnigraph;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A manifest handle remembers its checked-out version's number and stamp (docs/performance.md, "Where
 * the served route's time went"), and forgets them when it moves: a handle held across a publish by
 * another handle still answers its own version until {@link ManifestDataset#refreshLatest}, then
 * exactly the new one, as a handle opened afresh does.
 */
class ManifestDatasetVersionTest {

  @TempDir Path dir;

  @Test
  void theRememberedVersionFollowsRefreshLatest() throws Exception {
    StorageConfig config = StorageConfig.local(dir);
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.of("act-version"));
        ManifestDataset held = ManifestDataset.open(config, Optional.empty(), OptionalLong.empty())) {
      long before = held.version();
      String stampBefore = held.stamp();
      assertThat(stampBefore).startsWith(before + "@");

      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"p1\",\"age\":7}}"), LoadMode.APPEND,
          Optional.of("act-version"));

      // Still its checkout: the publish moved the branch, not this handle.
      assertThat(held.version()).isEqualTo(before);
      assertThat(held.stamp()).isEqualTo(stampBefore);
      long latest = held.latestVersion();
      assertThat(latest).isGreaterThan(before);

      String refreshed = held.refreshLatest();
      try (ManifestDataset fresh = ManifestDataset.open(config, Optional.empty(), OptionalLong.empty())) {
        assertThat(held.version()).isEqualTo(latest).isEqualTo(fresh.version());
        assertThat(held.stamp()).isEqualTo(refreshed).isEqualTo(fresh.stamp()).isNotEqualTo(stampBefore);
      }
    }
  }

  private static String schemaText() throws IOException {
    try (InputStream in = ManifestDatasetVersionTest.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
