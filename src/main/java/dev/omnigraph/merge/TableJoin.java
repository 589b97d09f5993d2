package dev.omnigraph.merge;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.FragmentRows;
import dev.omnigraph.table.OrderedCursor;
import dev.omnigraph.table.TableAt;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The ordered base/source/target cursors for one table (docs/merge.md, "Bounded memory"): each snapshot
 * scanned in id order, {@value OrderedCursor#BATCH_ROWS} rows per scanner batch, merge-joined by id,
 * and {@link ThreeWay#decide} applied entity by entity. The JVM holds one decoded batch per cursor,
 * never a table. Deterministic: the snapshots are exact immutable versions, so joining them again
 * yields the same decisions in the same order — the planner joins once to classify, validate and
 * fix the chain's boundaries before arm, the effect joins again to produce each chunk's rows.
 */
public final class TableJoin {

  /** What the join found, entity by entity in id order. */
  public interface Visitor {
    /** A row the target lacks ({@code bytes}: its exact Arrow size as scanned). */
    void insert(Map<String, Object> row, long bytes);

    /** A row the target holds with other content. */
    void update(Map<String, Object> row, long bytes);

    /** A target row the result drops. */
    void delete(String id);

    /** An entity both sides changed incompatibly. */
    void conflict(MergeConflict conflict);
  }

  private TableJoin() {}

  /**
   * Joins {@code base}, {@code source} and {@code target} of table {@code tableKey}. When the
   * target's pin is the base's (only the source changed the table), the base is read once and
   * stands for both.
   *
   * @param columns the columns to read (empty: all); decisions compare only these
   */
  public static void run(DataTables tables, TableKey tableKey, TablePin base, TablePin source, TablePin target,
      List<String> columns, Visitor visitor) {
    run(tables, tableKey, base, source, target, columns, false, visitor);
  }

  /**
   * As above; with {@code blobs} (the table has a Blob column), committed Blob cells are compared
   * by {@link BlobCells}: the same physical row, or else the same bytes.
   */
  public static void run(DataTables tables, TableKey tableKey, TablePin base, TablePin source, TablePin target,
      List<String> columns, boolean blobs, Visitor visitor) {
    boolean targetIsBase = MergePlanner.samePin(base, target);
    BlobCells cells = blobs ? new BlobCells(tables) : null;
    try (OrderedCursor b = open(tables, base, columns, blobs);
        OrderedCursor s = open(tables, source, columns, blobs);
        OrderedCursor t = targetIsBase ? null : open(tables, target, columns, blobs)) {
      while (true) {
        String id = min(min(b.peekId(), s.peekId()), t == null ? null : t.peekId());
        if (id == null) {
          break;
        }
        BlobCells.Side bSide = new BlobCells.Side(base, address(b, id));
        Map<String, Object> bRow = take(b, id);
        long sBytes = id.equals(s.peekId()) ? s.peekBytes() : 0;
        BlobCells.Side sSide = new BlobCells.Side(source, address(s, id));
        Map<String, Object> sRow = take(s, id);
        BlobCells.Side tSide = t == null ? bSide : new BlobCells.Side(target, address(t, id));
        Map<String, Object> tRow = t == null ? bRow : take(t, id);
        ThreeWay.Sameness same = cells == null ? Rows::same : (x, y) -> Rows.same(x, y, (column, cx, cy) ->
            cells.same(id, column, x == sRow ? sSide : x == bRow ? bSide : tSide, cx,
                y == sRow ? sSide : y == bRow ? bSide : tSide, cy));
        ThreeWay.Decision d = ThreeWay.decide(tableKey, id, bRow, sRow, tRow, same);
        switch (d.op()) {
          case KEEP -> { }
          case INSERT -> visitor.insert(d.row(), sBytes);
          case UPDATE -> visitor.update(d.row(), sBytes);
          case DELETE -> visitor.delete(id);
          case CONFLICT -> visitor.conflict(d.conflict());
        }
      }
      MergeMemory.cursors(b, s, t);
    }
  }

  /**
   * The certificate fast path's "join": every row of {@code fragments} of the source version is an
   * insert, handed to {@code insert} as Arrow in the scan's order (deterministic, unsorted: no sort
   * has to hold the interval). No base or target cursor is opened: absence from the target was
   * proven by the interval's certificates (docs/merge.md, "Certificate fast path"), so there is
   * neither a target id probe nor a merge join. The current row of the cursor is valid only inside
   * the call.
   */
  public static void runProven(DataTables tables, TablePin source, List<Integer> fragments,
      Consumer<FragmentRows> insert) {
    try (FragmentRows rows = tables.fragmentRows(source.ref().at(source.version()), fragments)) {
      while (rows.next()) {
        insert.accept(rows);
      }
      MergeMemory.cursors(rows);
    }
  }

  private static OrderedCursor open(DataTables tables, TablePin pin, List<String> columns, boolean addresses) {
    return tables.orderedById(pin.at(), java.util.Optional.empty(), columns, addresses);
  }

  private static long address(OrderedCursor c, String id) {
    return id.equals(c.peekId()) ? c.peekRowAddress() : -1;
  }

  private static Map<String, Object> take(OrderedCursor c, String id) {
    return id.equals(c.peekId()) ? c.next() : null;
  }

  private static String min(String a, String b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return OrderedCursor.compareIds(a, b) <= 0 ? a : b;
  }
}
