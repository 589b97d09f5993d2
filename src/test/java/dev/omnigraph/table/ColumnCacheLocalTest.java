package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The column cache's bound (docs/performance.md, "The column cache"): under any budget it never holds
 * more bytes than the budget, counted exactly as its arrays are; it evicts least recently used
 * columns to stay there and still answers every read as Lance does; a version's columns reflect its
 * deletions; and columns larger than the budget leave their reads to Lance without holding anything.
 */
class ColumnCacheLocalTest {

  private static final String LOCATION = "nodes/00000000000000cc-0000000000000001";

  @TempDir Path dir;

  /** Three versions of a person table: 300 rows, then 150 more, then 40 of them deleted. */
  private List<TableAt> versions(StorageConfig config, DataTables tables) {
    Schema schema = TableFixtures.person();
    long v = new TableStore(config).createEmpty(LOCATION, schema);
    List<TableAt> out = new ArrayList<>();
    Random random = new Random(46);
    for (int[] range : new int[][] {{0, 300}, {300, 450}}) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (int i = range[0]; i < range[1]; i++) {
        rows.add(TableFixtures.person(i == 7 ? "it's \"ünï€😀\"" : "p" + i, i % 9 == 0 ? null : "n" + random.nextInt(20),
            i % 5 == 0 ? null : (long) random.nextInt(90)));
      }
      v = tables.commit(tables.staging().stageInsert(TableRef.main(LOCATION).at(v), schema, rows, false)).version();
      out.add(TableRef.main(LOCATION).at(v));
    }
    List<String> deleted = new ArrayList<>();
    for (int i = 0; i < 450; i += 11) {
      deleted.add(i == 7 ? "it's \"ünï€😀\"" : "p" + i);
    }
    v = tables.commit(tables.staging().stageDeleteIds(TableRef.main(LOCATION).at(v), deleted)).version();
    out.add(TableRef.main(LOCATION).at(v));
    return out;
  }

  private static List<Map<String, Object>> sorted(List<Map<String, Object>> rows) {
    rows.sort(Comparator.comparing(r -> (String) r.get("id")));
    return rows;
  }

  @Test
  void neverHoldsMoreThanItsBudgetAndAnswersAsLanceUnderEviction() {
    StorageConfig config = StorageConfig.local(dir);
    ColumnCache.Budget budget = new ColumnCache.Budget(8_000);
    LanceRoot root = new LanceRoot(config.rootUri(), new PinnedHandles.Budget(64), budget);
    DataTables tables = new DataTables(config, root);
    List<TableAt> versions = versions(config, tables);
    List<List<String>> projections = List.of(List.of("id", "age"), List.of("id", "name"), List.of("id", "name", "age"),
        List.of("age"), List.of("name", "id"));
    List<Filter> filters = List.of(Filter.TRUE, Filter.gt("age", 40L), Filter.eq("name", "n3"),
        Filter.and(Filter.eq("name", "n4"), Filter.gt("age", 40L)), Filter.in("id", List.of("p1", "p2", "p300", "p11")),
        Filter.eq("id", "it's \"ünï€😀\""), Filter.isNull("age"), Filter.not(Filter.le("age", 10L)),
        Filter.or(Filter.startsWith("name", "n1"), Filter.isNull("name")));
    Random random = new Random(7);
    long answeredBefore = ColumnCache.ANSWERED.get();
    Map<TableAt, Integer> evictions = new HashMap<>();
    for (int i = 0; i < 300; i++) {
      TableAt at = versions.get(random.nextInt(versions.size()));
      List<String> columns = projections.get(random.nextInt(projections.size()));
      Filter filter = filters.get(random.nextInt(filters.size()));
      List<Map<String, Object>> lance = new ArrayList<>();
      tables.scan(at, filter, columns, lance::add);
      List<Map<String, Object>> read = new ArrayList<>();
      boolean heldBefore = tables.columnsCached(at, Set.copyOf(columns));
      tables.scan(at, filter, columns, true, read::add);
      if (!columns.contains("id")) {
        assertThat(read).as("%s %s at %s", filter, columns, at).hasSameSizeAs(lance)
            .containsExactlyInAnyOrderElementsOf(lance);
      } else {
        assertThat(sorted(read)).as("%s %s at %s", filter, columns, at).isEqualTo(sorted(lance));
      }
      // The bound, and the count being exactly the arrays' bytes.
      assertThat(budget.held()).isLessThanOrEqualTo(8_000).isEqualTo(root.columns.held());
      if (heldBefore && !tables.columnsCached(at, Set.copyOf(columns))) {
        evictions.merge(at, 1, Integer::sum);
      }
    }
    assertThat(ColumnCache.ANSWERED.get()).as("reads answered from the cache").isGreaterThan(answeredBefore + 50);
    // Each version's columns never fit together: some were evicted and reloaded.
    assertThat(budget.held()).isPositive();
    assertThat(versions).allSatisfy(at -> assertThat(tables.columnsCached(at, Set.of("id", "name", "age"))).isFalse());

    // The latest version holds exactly its live rows: the deleted ids are gone.
    TableAt latest = versions.get(2);
    List<Map<String, Object>> all = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      all.clear();
      tables.scan(latest, Filter.TRUE, List.of("id"), true, all::add);
    }
    assertThat(tables.columnsCached(latest, Set.of("id"))).isTrue();
    assertThat(all).hasSize(450 - 41).noneMatch(r -> r.get("id").equals("p11") || r.get("id").equals("p440"));
  }

  @Test
  void columnsLargerThanTheBudgetLeaveTheirReadsToLanceAndHoldNothing() {
    StorageConfig config = StorageConfig.local(dir);
    ColumnCache.Budget budget = new ColumnCache.Budget(1_000); // below one 450-row key column
    LanceRoot root = new LanceRoot(config.rootUri(), new PinnedHandles.Budget(64), budget);
    DataTables tables = new DataTables(config, root);
    TableAt at = versions(config, tables).get(1);
    long answeredBefore = ColumnCache.ANSWERED.get();
    for (int i = 0; i < 5; i++) {
      List<Map<String, Object>> read = new ArrayList<>();
      tables.scan(at, Filter.gt("age", 40L), List.of("id", "name", "age"), true, read::add);
      List<Map<String, Object>> lance = new ArrayList<>();
      tables.scan(at, Filter.gt("age", 40L), List.of("id", "name", "age"), lance::add);
      assertThat(sorted(read)).isEqualTo(sorted(lance));
      assertThat(budget.held()).isZero();
    }
    assertThat(ColumnCache.ANSWERED.get()).isEqualTo(answeredBefore);
    // Zero turns it off: nothing is loaded however often a version is read.
    budget.max(0);
    for (int i = 0; i < 3; i++) {
      tables.scan(at, Filter.TRUE, List.of("age"), true, r -> { });
    }
    assertThat(budget.held()).isZero();
    assertThat(tables.columnsCached(at, Set.of("age"))).isFalse();
  }
}
