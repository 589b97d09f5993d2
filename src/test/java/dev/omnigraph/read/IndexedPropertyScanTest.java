package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.schema.ScalarKind;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.Filter;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.ipc.ScanStats;

/**
 * Issue 46 item 1, second part: an equality or a range on an {@code @index} property, pushed as the
 * SQL the read plan renders, is answered through the property's BTree by Lance's scanner in
 * lance-java 7.0.0 (scalar index use is on, as {@code DataTables} sets it): the scan loads the index
 * and reads only the matching rows instead of every row, with the same answer; {@code explain} says
 * which index the filter can use. Evidence from Lance's own scan statistics (lance-java 7.0.0 has no
 * explain plan).
 */
class IndexedPropertyScanTest {

  private static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32? @index
      }
      """;
  private static final int PERSONS = 3_000;

  @TempDir Path dir;

  @Test
  void equalityAndRangeReadOnlyTheRowsTheBTreeNames() throws Exception {
    StorageConfig config = StorageConfig.local(dir.resolve("g"));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < PERSONS; i++) {
      lines.add("{\"type\":\"Person\",\"data\":{\"name\":\"p" + i + "\",\"age\":" + (i % 100) + "}}");
    }
    String uri;
    long version;
    try (Omnigraph g = Omnigraph.init(config, SCHEMA, Optional.of("t"))) {
      g.load("main", new StringReader(String.join("\n", lines)), LoadMode.APPEND, Optional.of("t"));
      g.ensureIndices("main", Optional.of("t"));
      SnapshotOutput.Dataset people = g.snapshot("main").datasets().stream()
          .filter(d -> d.typeName().equals("Person")).findFirst().orElseThrow();
      uri = config.lanceUri(people.datasetPath());
      version = people.publishedDatasetVersion();
      assertThat(g.query(Optional.empty(), Optional.empty(),
          "query q() { match { $p: Person  $p.age > 89 } return { count($p) as n } }", "q", null).rows())
          .containsExactly(java.util.Map.of("n", 300L));
    }
    String equality = Filter.compare(Filter.Comparison.EQ, "age", ScalarKind.I32, 50).toSql();
    String range = Filter.compare(Filter.Comparison.GT, "age", ScalarKind.I32, 89).toSql();
    for (String sql : List.of(equality, range)) {
      long expected = sql.equals(equality) ? 30 : 300;
      Scan indexed = scan(uri, version, sql, true);
      Scan scanned = scan(uri, version, sql, false);
      assertThat(indexed.rows()).as(sql).isEqualTo(expected).isEqualTo(scanned.rows());
      assertThat(indexed.stats().getIndicesLoaded()).as(sql).isEqualTo(1);
      assertThat(indexed.stats().getAllCounts().get("rows_scanned")).as(sql).isEqualTo(expected);
      assertThat(scanned.stats().getIndicesLoaded()).as(sql).isZero();
      assertThat(scanned.stats().getAllCounts().get("rows_scanned")).as(sql).isEqualTo(PERSONS);
    }
    // The read's plan uses the BTree for the equality and scans for the range (docs/performance.md,
    // "Index or scan"), and says so.
    ReadPlan byRange = plan("query q() { match { $p: Person  $p.age > 89 } return { count($p) as n } }");
    assertThat(byRange.describe()).first().isEqualTo("$p: Person, scan with pushed filter " + range
        + " (BTree index on age not used: ranges only, scanned), columns id,age");
    assertThat(byRange.usesIndexes(0)).isFalse();
    ReadPlan byEquality = plan("query q() { match { $p: Person  $p.age = 50  $p.age < 70 } return { count($p) as n } }");
    assertThat(byEquality.describe()).first().asString().contains("(BTree index on age)");
    assertThat(byEquality.usesIndexes(0)).isTrue();
    try (Omnigraph g = Omnigraph.open(config, dev.omnigraph.api.OpenMode.READ_ONLY)) {
      assertThat(g.query(Optional.empty(), Optional.empty(),
          "query q() { match { $p: Person  $p.age = 50  $p.age < 70 } return { count($p) as n } }", "q", null).rows())
          .containsExactly(java.util.Map.of("n", 30L));
    }
  }

  private static ReadPlan plan(String source) {
    CheckedRead read = (CheckedRead) QueryChecker.check(QueryParser.parse(source).declaration("q"),
        SchemaParser.parse(SCHEMA));
    return new ReadPlan(read, SchemaParser.parse(SCHEMA).nodes(), v -> v instanceof dev.omnigraph.query.Value.Literal l
        ? l.value() : Instant.now());
  }

  private record Scan(long rows, ScanStats stats) {}

  /** A fresh open (no shared session), so the index is loaded by this scan and counted. */
  private static Scan scan(String uri, long version, String sql, boolean useIndex) throws Exception {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = Dataset.open().allocator(allocator).uri(uri)
            .readOptions(new ReadOptions.Builder().setVersion(version).build()).build();
        LanceScanner scanner = ds.newScan(new ScanOptions.Builder().columns(List.of("id", "age")).filter(sql)
            .useScalarIndex(useIndex).collectStats(true).build());
        ArrowReader reader = scanner.scanBatches()) {
      long rows = 0;
      while (reader.loadNextBatch()) {
        rows += reader.getVectorSchemaRoot().getRowCount();
      }
      return new Scan(rows, scanner.getStats().orElseThrow());
    }
  }
}
