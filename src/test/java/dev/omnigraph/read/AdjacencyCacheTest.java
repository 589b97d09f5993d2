package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.table.TableAt;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * When the traversals over an edge-table version stop probing the src/dst index and build its
 * adjacency (docs/performance.md, "Hops: probe or build"): once their probes have taken as long as
 * the build would ({@link AdjacencyCache#BUILD_NANOS_PER_EDGE} per edge), per exact version, the
 * edge count asked once per version.
 */
class AdjacencyCacheTest {

  @Test
  void aVersionIsBuiltOnceItsProbesCostWhatItsBuildWould() {
    AdjacencyCache cache = new AdjacencyCache();
    long edges = 1_000;
    long build = edges * AdjacencyCache.BUILD_NANOS_PER_EDGE;
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 3), 0)).isFalse();
    cache.probed("r", TableAt.of("edges/k", Optional.empty(), 3), 0, () -> edges, build - 2);
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 3), 0)).isFalse();
    cache.probed("r", TableAt.of("edges/k", Optional.empty(), 3), 0, () -> {
      throw new AssertionError("the edge count is asked once per version");
    }, 2);
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 3), 0)).isTrue();
    // Another version, branch or root has probed nothing yet.
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 4), 0)).isFalse();
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.of("b"), 3), 0)).isFalse();
    assertThat(cache.probedEnough("other", TableAt.of("edges/k", Optional.empty(), 3), 0)).isFalse();
    // Nor has the same version under a later forget generation (its branch deleted and created again).
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 3), 1)).isFalse();
  }

  @Test
  void theProbeAccountsAreBounded() {
    AdjacencyCache cache = new AdjacencyCache();
    cache.probed("r", TableAt.of("edges/k", Optional.empty(), 0), 0, () -> 1, AdjacencyCache.BUILD_NANOS_PER_EDGE);
    for (long v = 1; v <= AdjacencyCache.MAX_PROBING; v++) {
      cache.probed("r", TableAt.of("edges/k", Optional.empty(), v), 0, () -> 1, 0);
    }
    // The least recently probed version was dropped: it starts again from nothing.
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), 0), 0)).isFalse();
    assertThat(cache.probedEnough("r", TableAt.of("edges/k", Optional.empty(), AdjacencyCache.MAX_PROBING), 0)).isFalse();
  }
}
