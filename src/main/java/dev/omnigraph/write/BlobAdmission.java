package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.schema.ExternalBlobRefused;
import dev.omnigraph.api.ExternalBlobPolicy;
import dev.omnigraph.table.ExternalSources;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.StoredBlob;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Blob cells of one operation, settled before anything is staged (docs/schema-language.md,
 * "Blob"). Every external URI of the input is admitted by the graph's allow list (at most
 * {@link #MAX_EXTERNAL_CELLS} per operation). A keyed write then makes every cell it writes
 * managed bytes: it sizes the input's payloads, the committed cells it carries (a rewritten row's
 * {@link StoredBlob}, the materialising rewrite) and each external source (one HEAD each, at most
 * {@link ExternalSources#MAX_IN_FLIGHT} in flight) against one 32 MiB budget, and only then reads
 * them; an overwrite keeps admitted URIs as references and reads nothing. A carried committed
 * reference stays a reference. All of this runs in prepare, so a refusal arms no sidecar.
 */
final class BlobAdmission {

  /** New external cells one operation may write, across all its tables. */
  static final int MAX_EXTERNAL_CELLS = 8_192;

  /** The {@code resource} of the refusal above {@link #MAX_EXTERNAL_CELLS}. */
  static final String EXTERNAL_CELLS_RESOURCE = "external_blob_cells";

  private BlobAdmission() {}

  /** One Blob cell of a pending row. */
  private record Cell(TableKey tableKey, Map<String, Object> row, String property) {
    String where() {
      return tableKey.typeName() + " '" + row.get("id") + "'." + property;
    }
  }

  /**
   * Settles the Blob cells of a keyed write's rows ({@code tables}: table key → its pending rows,
   * modified in place), charging {@code limit} bytes at most.
   *
   * @throws ExternalBlobRefused for a URI the graph does not allow
   * @throws ResourceLimitExceeded above {@link #MAX_EXTERNAL_CELLS} new external cells, or when the
   *     payloads, carried cells and external sizes sum above {@code limit}: before any payload read
   * @throws dev.omnigraph.api.ExternalBlobUnreadable when an admitted source cannot be probed or read
   */
  static void materialise(PrepareContext ctx, ExternalBlobs externals,
      Map<TableKey, ? extends Collection<Map<String, Object>>> tables, long limit) {
    List<Cell> inputs = new ArrayList<>();
    List<Cell> carried = new ArrayList<>();
    long total = 0;
    for (Map.Entry<TableKey, ? extends Collection<Map<String, Object>>> t : tables.entrySet()) {
      for (Map<String, Object> row : t.getValue()) {
        for (Map.Entry<String, Object> e : row.entrySet()) {
          if (e.getValue() instanceof BlobValue b && b.isExternal() && !b.isAdmitted()) {
            inputs.add(new Cell(t.getKey(), row, e.getKey()));
          } else if (e.getValue() instanceof BlobValue b) {
            total += b.size();
          } else if (e.getValue() instanceof StoredBlob s) {
            carried.add(new Cell(t.getKey(), row, e.getKey()));
            total += s.size();
          }
        }
      }
    }
    List<Map.Entry<Cell, String>> admitted = admit(externals.policy(), inputs);
    // What needs no I/O is charged first: an operation over the budget already probes nothing.
    charge(total, limit);
    if (!admitted.isEmpty()) {
      readSources(externals, admitted, total, limit);
    }
    carry(ctx, carried);
  }

  /**
   * Sizes the admitted sources (one HEAD each), charges them on top of {@code total}, then copies
   * them into their cells as managed bytes.
   */
  private static void readSources(ExternalBlobs externals, List<Map.Entry<Cell, String>> admitted, long total,
      long limit) {
    try (ExternalSources sources = externals.sources().get()) {
      Set<String> uris = new LinkedHashSet<>();
      admitted.forEach(a -> uris.add(a.getValue()));
      Map<String, Long> sizes = sources.sizes(uris);
      for (long size : sizes.values()) {
        total += size;
      }
      charge(total, limit);
      Map<String, byte[]> bytes = sources.read(sizes);
      admitted.forEach(a -> a.getKey().row().put(a.getKey().property(), BlobValue.managed(bytes.get(a.getValue()))));
    }
  }

  /** Reads each carried committed cell at its table's pin (already charged) into its row. */
  private static void carry(PrepareContext ctx, List<Cell> carried) {
    Map<TableKey, List<Map<String, Object>>> byTable = new LinkedHashMap<>();
    carried.forEach(c -> byTable.computeIfAbsent(c.tableKey(), k -> new ArrayList<>()).add(c.row()));
    byTable.forEach((table, rows) -> carry(ctx.tables(), ctx.pin(table).at(), rows));
  }

  /**
   * Replaces every committed cell ({@link StoredBlob}) of {@code rows} with its managed bytes as
   * {@code at} holds them, one batched read per Blob column: the carried cells of a write that
   * rewrites committed rows (an update, a Blob write beside another cell, a merge chunk). The caller
   * has charged their sizes to its 32 MiB budget.
   *
   * @throws IllegalStateException when a carried row or cell is not at {@code at}
   */
  static void carry(DataTables tables, TableAt at, Collection<Map<String, Object>> rows) {
    Map<String, Map<String, Map<String, Object>>> byColumn = new LinkedHashMap<>();
    for (Map<String, Object> row : rows) {
      for (Map.Entry<String, Object> e : row.entrySet()) {
        if (e.getValue() instanceof StoredBlob) {
          byColumn.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>()).put(String.valueOf(row.get("id")), row);
        }
      }
    }
    byColumn.forEach((column, byId) -> {
      Map<String, byte[]> bytes = tables.blobs().readAll(at, column, byId.keySet());
      byId.forEach((id, row) -> row.put(column, BlobValue.managed(java.util.Optional.ofNullable(bytes.get(id))
          .orElseThrow(() -> new IllegalStateException("Blob cell '" + id + "'." + column + " vanished from " + at)))));
    });
  }

  /**
   * Admits an overwrite's input URI of {@code where} (its line): the normalised reference it stores.
   * The caller counts the cells against {@link #MAX_EXTERNAL_CELLS}.
   */
  static BlobValue reference(ExternalBlobPolicy policy, BlobValue input, String where) {
    ExternalBlobPolicy.Admission a = policy.admit(input.uri().orElseThrow());
    return BlobValue.storedExternal(a.normalised()
        .orElseThrow(() -> new ExternalBlobRefused(input.uri().orElseThrow(), where, a.refusal())));
  }

  /** Refuses a count of new external cells above {@link #MAX_EXTERNAL_CELLS}. */
  static void checkExternalCells(long cells) {
    if (cells > MAX_EXTERNAL_CELLS) {
      throw new ResourceLimitExceeded(EXTERNAL_CELLS_RESOURCE, MAX_EXTERNAL_CELLS, cells);
    }
  }

  /** Each input cell with the normalised URI it names (several cells may name one source). */
  private static List<Map.Entry<Cell, String>> admit(ExternalBlobPolicy policy, List<Cell> inputs) {
    checkExternalCells(inputs.size());
    List<Map.Entry<Cell, String>> admitted = new ArrayList<>();
    for (Cell cell : inputs) {
      BlobValue input = (BlobValue) cell.row().get(cell.property());
      admitted.add(Map.entry(cell, reference(policy, input, cell.where()).uri().orElseThrow()));
    }
    return admitted;
  }

  private static void charge(long total, long limit) {
    if (total > limit) {
      throw new ResourceLimitExceeded(BlobValue.PAYLOAD_RESOURCE, limit, total);
    }
  }

  /** Whether any row of {@code tables} holds a Blob value (so the common write skips all of this). */
  static boolean anyBlob(Map<TableKey, ? extends Collection<Map<String, Object>>> tables) {
    for (Collection<Map<String, Object>> rows : tables.values()) {
      for (Map<String, Object> row : rows) {
        for (Object v : row.values()) {
          if (v instanceof BlobValue || v instanceof StoredBlob) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
