package dev.omnigraph.table;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.lance.MetadataColumns;
import org.lance.ipc.ScanOptions;

/**
 * Where each {@code id} of one exact table version lives: its stable row id, so an exact id probe is
 * a Lance {@code takeRows} of the few rows it names instead of a scan (docs/performance.md, "Point reads": a scanner's setup
 * and stream cost about 2 ms whatever the rows, the take about a tenth of that). A version never
 * changes, so the map never needs invalidating; it lives with the version's open handle
 * ({@link PinnedHandles}) and goes when that handle is closed.
 *
 * <p>Compact: a 32-bit hash of each id, sorted, beside its row id (12 bytes a row, about 11 MiB at
 * the {@link #MAX_ROWS} cap). A hash names candidates only: the caller reads the taken rows'
 * {@code id} and filter columns and keeps the rows that match, so a collision (about a hundred pairs
 * in a million ids) costs one more row taken, never a wrong answer.
 */
final class IdRowIds {

  /** Tables above this many live rows keep their scans (the map would pass about 11 MiB). */
  static final long MAX_ROWS = 1_000_000;

  private final int[] hashes;
  private final long[] rowIds;

  private IdRowIds(int[] hashes, long[] rowIds) {
    this.hashes = hashes;
    this.rowIds = rowIds;
  }

  /** The rows this map holds. */
  int size() {
    return hashes.length;
  }

  /** The heap this map takes, in bytes (its two arrays). */
  long bytes() {
    return 12L * hashes.length;
  }

  /** The row ids that may hold {@code id} (every row whose id hashes alike). */
  long[] candidates(String id) {
    int h = hash(id);
    int i = Arrays.binarySearch(hashes, h);
    if (i < 0) {
      return new long[0];
    }
    int from = i;
    while (from > 0 && hashes[from - 1] == h) {
      from--;
    }
    int to = i + 1;
    while (to < hashes.length && hashes[to] == h) {
      to++;
    }
    return Arrays.copyOfRange(rowIds, from, to);
  }

  /**
   * Reads the {@code id} column and the stable row id of every live row of {@code h}'s version (one
   * scan, no index) and orders them by hash.
   */
  static IdRowIds build(TableHandle h, int expectedRows) throws Exception {
    // Each row as (hash << 32 | position): one primitive sort orders the hashes and carries the
    // position of the row id that goes with each.
    long[][] packed = {new long[Math.max(expectedRows, 16)]};
    long[][] ids = {new long[packed[0].length]};
    int[] n = {0};
    ScanOptions options = new ScanOptions.Builder().batchSize(DataTables.SCAN_BATCH_ROWS)
        .columns(java.util.List.of(DataTables.ID)).withRowId(true).build();
    LanceSupport.scanBatches(h.table, options, h.allocator, (VectorSchemaRoot batch) -> {
      VarCharVector idv = (VarCharVector) batch.getVector(DataTables.ID);
      UInt8Vector rowv = (UInt8Vector) batch.getVector(MetadataColumns.ROWID);
      for (int i = 0; i < batch.getRowCount(); i++) {
        if (n[0] == packed[0].length) {
          packed[0] = Arrays.copyOf(packed[0], packed[0].length * 2);
          ids[0] = Arrays.copyOf(ids[0], ids[0].length * 2);
        }
        int hash = hash(new String(idv.get(i), StandardCharsets.UTF_8));
        packed[0][n[0]] = ((long) hash << 32) | n[0];
        ids[0][n[0]] = rowv.get(i);
        n[0]++;
      }
    });
    long[] order = Arrays.copyOf(packed[0], n[0]);
    Arrays.sort(order);
    int[] hs = new int[order.length];
    long[] rows = new long[order.length];
    for (int i = 0; i < order.length; i++) {
      hs[i] = (int) (order[i] >> 32);
      rows[i] = ids[0][(int) order[i]];
    }
    return new IdRowIds(hs, rows);
  }

  /** 32-bit FNV-1a over the id's UTF-16 code units, finished with a mix (spreads short, similar ids). */
  static int hash(String id) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < id.length(); i++) {
      h ^= id.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) h;
  }
}
