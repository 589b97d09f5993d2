package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filter pushdown suite with every probe also run as a read's scan, which the column cache
 * answers from its columns (docs/performance.md, "The column cache"): the same rows as Lance for
 * every operator, column type, null and torture string; the same values, decoded alike; and the
 * same refusal where Lance refuses a literal.
 */
class FilterPushdownCachedLocalTest extends AbstractFilterPushdownTest {
  @TempDir static Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }

  @Override
  boolean cached() {
    return true;
  }

  private List<Map<String, Object>> read(dev.omnigraph.table.Filter filter, List<String> columns) {
    List<Map<String, Object>> rows = new ArrayList<>();
    tables().scan(at(), filter, columns, true, rows::add);
    return rows;
  }

  @Test
  void theCacheAnswersWithTheValuesLanceDecodes() {
    List<String> scalars = List.of("id", "s", "b", "i32", "i64", "u32", "u64", "f32", "f64", "d", "ts");
    List<Map<String, Object>> fromLance = new ArrayList<>();
    tables().scan(at(), Filter.TRUE, scalars, fromLance::add);
    long before = ColumnCache.ANSWERED.get();
    read(Filter.TRUE, scalars);
    read(Filter.TRUE, scalars);
    List<Map<String, Object>> cached = read(Filter.TRUE, scalars);
    assertThat(ColumnCache.ANSWERED.get()).as("answered from the cache").isGreaterThan(before);
    assertThat(tables().columnsCached(at(), Set.copyOf(scalars))).isTrue();
    // Row by row in the scan's order, each value of the type Lance's decode gives (NaN, -0.0, nulls).
    assertThat(cached).isEqualTo(fromLance);
    assertThat(cached).allSatisfy(r -> assertThat(List.copyOf(r.keySet())).isEqualTo(scalars));
    // Columns the cache cannot hold (a vector, a list) leave the read to Lance, with the same rows.
    List<Map<String, Object>> withVector = read(Filter.eq("s", "plain"), List.of("id", "vec"));
    assertThat(withVector).hasSize(1);
    assertThat(tables().columnsCached(at(), Set.of("vec"))).isFalse();
  }

  @Test
  void aLiteralLanceRefusesIsRefusedFromTheCacheToo() {
    read(Filter.eq("i32", 0), List.of("id", "i32"));
    read(Filter.eq("i32", 0), List.of("id", "i32"));
    assertThat(tables().columnsCached(at(), Set.of("id", "i32"))).isTrue();
    assertThatThrownBy(() -> read(Filter.eq("i32", 3_000_000_000L), List.of("id"))).isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> read(Filter.eq("i32", 1.5), List.of("id"))).isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> read(Filter.eq("no_such_column", 1), List.of("id"))).isInstanceOf(RuntimeException.class);
  }
}
