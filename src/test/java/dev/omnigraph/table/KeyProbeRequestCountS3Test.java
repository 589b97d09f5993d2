package dev.omnigraph.table;

import static dev.omnigraph.table.TableFixtures.person;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's cost, counted on the wire: the requests a one-key probe sends to S3 (S3Mock behind
 * {@link CountingS3Front}) do not grow with the fragments the id index covers; they grow only with
 * the fragments it does not cover yet. The numbers behind docs/lance-write-layer.md, "Scalar
 * indexes on id/src/dst".
 */
class KeyProbeRequestCountS3Test {

  static final String LOC = AbstractKeyIndexTest.LOC;
  static final Optional<String> MAIN = Optional.empty();

  private final Schema schema = TableFixtures.person();
  private CountingS3Front front;
  private StorageConfig config;
  private DataTables tables;

  @BeforeEach
  void openFront() throws Exception {
    front = new CountingS3Front();
    fresh();
  }

  void fresh() {
    config = front.freshRoot("keycount");
    tables = new DataTables(config);
  }

  @AfterEach
  void closeFront() {
    front.close();
  }

  long addOneRowFragments(int from, int count) {
    return AbstractKeyIndexTest.addOneRowFragments(config, schema, LOC, from, count);
  }

  /** GETs of data files ({@code <table>/data/…}) during {@code probe}. */
  long dataGets(Runnable probe) {
    front.reset();
    probe.run();
    return front.count("GET", "/data/");
  }

  /**
   * A table of {@code indexed} one-row fragments the index covers plus {@code unindexed} ones
   * appended after: the data-file GETs of a hit and of a miss.
   */
  long[] probeCost(int indexed, int unindexed) throws Exception {
    fresh();
    new TableStore(config).createWithKeyIndexes(LOC, schema);
    long v = addOneRowFragments(0, indexed);
    IndexOptimization optimized = tables.indexes().optimizeIndices(LOC, MAIN, v);
    assertThat(optimized.kind()).as(optimized.detail()).isEqualTo(IndexOptimization.Kind.OPTIMIZED);
    long head = unindexed == 0 ? optimized.version() : addOneRowFragments(indexed, unindexed);
    FragmentStats stats = tables.statistics().fragmentStats(LOC, MAIN, head);
    assertThat(stats.fragments()).isEqualTo(indexed + unindexed);
    assertThat(stats.unindexedFragments()).isEqualTo(Map.of("id_idx", unindexed));
    String hit = "k" + (indexed / 2);
    long hitGets = dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of(hit), List.of("id")))
        .containsExactly(Map.of("id", hit)));
    long missGets = dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of("absent"), List.of("id")))
        .isEmpty());
    return new long[] {hitGets, missGets};
  }

  @Test
  void aOneKeyProbeReadsNoMoreDataFilesAsIndexedHistoryGrows() throws Exception {
    long[] small = probeCost(5, 0);
    long[] large = probeCost(120, 0);
    // Fully indexed: a miss reads no data file, a hit reads only its own fragment.
    assertThat(small[1]).isZero();
    assertThat(large[1]).isZero();
    assertThat(large[0]).isEqualTo(small[0]).isLessThanOrEqualTo(2);

    long[] staleSmall = probeCost(5, 3);
    long[] staleLarge = probeCost(120, 3);
    // Unindexed fragments are scanned in full (that is what keeps the probe exact), the indexed
    // history still is not.
    assertThat(staleLarge[1]).isEqualTo(staleSmall[1]).isLessThanOrEqualTo(2 * 3);
    assertThat(staleLarge[0]).isEqualTo(staleSmall[0]);
  }

  @Test
  void unindexedFragmentsThisProcessStagedAreSkippedByAProbeForOtherKeys() throws Exception {
    fresh();
    new TableStore(config).createWithKeyIndexes(LOC, schema);
    long v = addOneRowFragments(0, 4);
    v = tables.indexes().optimizeIndices(LOC, MAIN, v).version();
    for (int i = 4; i < 9; i++) { // k4..k8: five fragments the index does not cover, staged here
      v = tables.commit(tables.staging().stageInsert(LOC, MAIN, v, schema, List.of(person("k" + i, "n" + i, (long) i)), false))
          .version();
    }
    long head = v;
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, head).unindexedFragments()).isEqualTo(Map.of("id_idx", 5));

    // Staged here: a miss reads no data file, a hit in an unindexed fragment reads only that one.
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of("absent"), List.of("id")))
        .isEmpty())).isZero();
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of("k6"), List.of("id")))
        .containsExactly(Map.of("id", "k6")))).isEqualTo(1);
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of("k1", "k7", "absent"),
        List.of("id"))).extracting(r -> r.get("id")).containsExactlyInAnyOrder("k1", "k7"))).isLessThanOrEqualTo(2);

    // Another process (nothing staged here): every unindexed fragment is read again, answers equal.
    StagedKeys.forgetAll();
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, List.of("absent"), List.of("id")))
        .isEmpty())).isEqualTo(5);
    assertThat(tables.rowsById(LOC, MAIN, head, List.of("k6"), List.of("id"))).containsExactly(Map.of("id", "k6"));
  }

  /**
   * Bulk loads stage fragments of up to 8,192 rows (the per-table cap of a load): an 8,192-id probe
   * of new ids reads none of them, and one id written into one of them costs that one fragment.
   * Before, fragments above 1,024 rows were not recorded and each was scanned by every chunk of the
   * probe's {@code IN} list: 100-150 ms per 8,192-row load behind a few of them, growing with each.
   */
  @Test
  void bulkFragmentsThisProcessStagedAreSkippedByAnEightThousandIdProbe() throws Exception {
    fresh();
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    int rows = StagedKeys.MAX_IDS;
    for (int f = 0; f < 3; f++) {
      List<Map<String, Object>> batch = new java.util.ArrayList<>();
      for (int i = 0; i < rows; i++) {
        batch.add(person("b" + f + "-" + i, "n", (long) i));
      }
      v = tables.commit(tables.staging().stageInsert(LOC, MAIN, v, schema, batch, false)).version();
    }
    long head = v;
    assertThat(tables.statistics().fragmentStats(LOC, MAIN, head).unindexedFragments()).isEqualTo(Map.of("id_idx", 3));
    List<String> fresh = new java.util.ArrayList<>();
    for (int i = 0; i < rows; i++) {
      fresh.add("new-" + i);
    }
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, fresh, List.of("id"))).isEmpty()))
        .isZero();
    List<String> oneOld = new java.util.ArrayList<>(fresh);
    oneOld.set(rows / 2, "b1-77");
    long hit = dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, oneOld, List.of("id")))
        .containsExactly(Map.of("id", "b1-77")));

    // Another process: the same answers, reading all three unindexed fragments (at least one GET each).
    StagedKeys.forgetAll();
    long all = dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, oneOld, List.of("id")))
        .containsExactly(Map.of("id", "b1-77")));
    assertThat(hit).isPositive().isLessThan(all);
    assertThat(dataGets(() -> assertThat(tables.rowsById(LOC, MAIN, head, fresh, List.of("id"))).isEmpty()))
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  void aDeletedRowInAStagedFragmentIsNotFoundAndAReinsertedOneIs() throws Exception {
    fresh();
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    v = tables.commit(tables.staging().stageInsert(LOC, MAIN, v, schema, List.of(person("a", "A", 1L)), false)).version();
    v = tables.commit(tables.staging().stageDeleteIds(LOC, MAIN, v, List.of("a"))).version();
    long afterDelete = v;
    assertThat(tables.rowsById(LOC, MAIN, afterDelete, List.of("a"), List.of("id"))).isEmpty();
    v = tables.commit(tables.staging().stageInsert(LOC, MAIN, v, schema, List.of(person("a", "A2", 2L)), false)).version();
    assertThat(tables.rowsById(LOC, MAIN, v, List.of("a"), List.of("id", "name")))
        .containsExactly(Map.of("id", "a", "name", "A2"));
  }

  @Test
  void fragmentStatsReadsNoDataOrIndexFile() throws Exception {
    long v = new TableStore(config).createWithKeyIndexes(LOC, schema);
    v = tables.commit(tables.staging().stageInsert(LOC, MAIN, v, schema, List.of(person("a", "A", 1L)), false)).version();
    long at = v;
    front.reset();
    FragmentStats stats = tables.statistics().fragmentStats(LOC, MAIN, at);
    assertThat(stats.unindexedFragments()).isEqualTo(Map.of("id_idx", 1));
    assertThat(front.count("GET", "/data/")).isZero();
    assertThat(front.count("GET", "/_indices/")).isZero();
  }
}
