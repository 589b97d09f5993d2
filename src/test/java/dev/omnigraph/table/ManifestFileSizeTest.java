package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins what one publish writes into {@code __manifest} (issue 20): a Lance manifest and a
 * transaction file whose sizes do not grow with the graph's history.
 *
 * <p>With stable row ids on {@code __manifest}, Lance kept inline in the compacted fragment's
 * metadata one row-id range and two row-version runs per publish that ever landed (~33 bytes per
 * publish of history), and wrote that metadata into every later manifest and into the transaction
 * of every compaction and of the first publish after it: ~35 KB after 1,000 publishes and still
 * growing (docs/lance-write-layer.md, "Why a publish writes ~N KB"). The manifest is created without
 * stable row ids now, so its files stay at a few KB however long the history is.
 */
class ManifestFileSizeTest {

  /** Enough publishes for three manifest compactions (one past every 32 fragments). */
  private static final int PUBLISHES = 110;

  @TempDir Path dir;

  @Test
  void publishFilesStayFlatAsHistoryGrows() throws Exception {
    StorageConfig config = StorageConfig.local(dir);
    try (Omnigraph g = Omnigraph.init(config, schemaText(), Optional.of("act-size"))) {
      for (int i = 0; i < PUBLISHES; i++) {
        load(g, "main", i);
      }
      g.branchCreate("feature", "main", Optional.of("act-size"));
      for (int i = 0; i < 3; i++) {
        load(g, "feature", PUBLISHES + i);
      }
    }
    Path manifest = dir.resolve(ManifestDataset.KEY);

    // The cause, pinned: no fragment of the manifest carries row-id or row-version sequences.
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = LanceSupport.open(config, ManifestDataset.KEY, allocator)) {
      assertThat(ds.hasStableRowIds()).isFalse();
      List<FragmentMetadata> fragments = ds.getFragments().stream().map(f -> f.metadata()).toList();
      assertThat(fragments).isNotEmpty().allSatisfy(f -> {
        assertThat(f.getRowIdMeta()).isNull();
        assertThat(f.getCreatedAtVersionMeta()).isNull();
        assertThat(f.getLastUpdatedAtVersionMeta()).isNull();
      });
    }

    TreeMap<Long, Long> manifests = manifestSizes(manifest.resolve("_versions"));
    assertThat(manifests.lastKey()).as("versions on main").isGreaterThan(PUBLISHES);
    // Flat: the largest manifest of the last 40 versions is no larger than in the first 40 (with
    // stable row ids it was ~3 KB larger at this depth, and ~1 KB more per further 34 publishes).
    long early = manifests.headMap(42L).values().stream().mapToLong(Long::longValue).max().orElseThrow();
    long late = manifests.tailMap(manifests.lastKey() - 40).values().stream().mapToLong(Long::longValue).max()
        .orElseThrow();
    assertThat(late).as("largest late manifest vs early %d", early).isLessThanOrEqualTo(early + 512);
    // Absolute bounds (measured: ≤ 4.8 KB with 33 fragments, ~270 B per one-row publish's
    // transaction, ~4 KB for a compaction's Rewrite transaction).
    assertThat(manifests.values()).allSatisfy(size -> assertThat(size).isLessThan(6_144));
    assertThat(sizes(manifest.resolve("_transactions"))).allSatisfy(size -> assertThat(size).isLessThan(6_144));
    long latestTxn = latestTransactionSize(manifest.resolve("_transactions"));
    assertThat(latestTxn).as("the last one-row publish's transaction").isLessThan(1_024);

    // A branch's files live under tree/<branch>/ and obey the same bounds.
    Path branch = manifest.resolve("tree").resolve("feature");
    assertThat(manifestSizes(branch.resolve("_versions")).values()).isNotEmpty()
        .allSatisfy(size -> assertThat(size).isLessThan(6_144));
    assertThat(sizes(branch.resolve("_transactions"))).isNotEmpty()
        .allSatisfy(size -> assertThat(size).isLessThan(1_024));
  }

  private static void load(Omnigraph g, String branch, int i) {
    g.load(branch, new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":7}}"),
        LoadMode.APPEND, Optional.of("act-size"));
  }

  /** Manifest version → file size; Lance names version v's file {@code (2^64 - 1 - v).manifest}. */
  private static TreeMap<Long, Long> manifestSizes(Path versions) throws IOException {
    TreeMap<Long, Long> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(versions)) {
      for (Path p : files.filter(p -> p.toString().endsWith(".manifest")).toList()) {
        String name = p.getFileName().toString();
        long inverted = Long.parseUnsignedLong(name.substring(0, name.length() - ".manifest".length()));
        out.put(-1L - inverted, Files.size(p));
      }
    }
    return out;
  }

  private static List<Long> sizes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(Files::isRegularFile).map(ManifestFileSizeTest::size).toList();
    }
  }

  /** The transaction file of the highest read version ({@code <readVersion>-<uuid>.txn}). */
  private static long latestTransactionSize(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Path latest = files.filter(p -> p.toString().endsWith(".txn"))
          .max(java.util.Comparator.comparingLong(
              p -> Long.parseLong(p.getFileName().toString().substring(0, p.getFileName().toString().indexOf('-')))))
          .orElseThrow();
      return size(latest);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String schemaText() throws IOException {
    try (InputStream in = ManifestFileSizeTest.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
