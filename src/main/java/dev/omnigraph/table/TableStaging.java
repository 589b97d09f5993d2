package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;
import static dev.omnigraph.table.DataTables.ID;

import dev.omnigraph.api.BlobLimits;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.MetadataColumns;
import org.lance.RowAddress;
import org.lance.operation.Update;
import org.lance.schema.LanceSchema;

/**
 * Staged, uncommitted writes of data tables: inserts (certified on request), upserts, deletes by
 * id, overwrites, schema apply's rewrite and version-one create. Staging writes data and deletion
 * files but commits nothing; {@link DataTables#commit} lands a {@link StagedWrite} or settles why
 * it did not. Reached through {@link DataTables#staging()}.
 */
public final class TableStaging {

  private final StorageConfig config;
  private final DataTables tables;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableStaging(StorageConfig config, LanceRoot lance, DataTables tables) {
    this.lance = lance;
    this.config = config;
    this.tables = tables;
  }

  /**
   * Stages an insertion-only {@code Update} of {@code rows} on the branch, planned against
   * {@code readAt}: data files are written under the branch's tree, nothing is committed.
   *
   * <p>With {@code certifyAbsence} (strict insert, only after the caller's exact-id preflight
   * against the same read version), every certificate check Java can express is run on the staged
   * transaction (see {@link InsertCertificate#violations}) and the transaction carries
   * {@code omnigraph.insert_absence = v1} and {@link InsertCertificate#INSERT_ABSENCE_PARENT} = the read version;
   * if any check fails the insert fails closed with
   * {@link IllegalStateException}. Without it, the transaction carries no property.
   *
   * @return the staged write; {@linkplain StagedWrite#isEmpty() empty} when {@code rows} is empty
   * @throws IllegalArgumentException when {@code schema} does not match the table or a row does not
   *     fit {@code schema} (see {@link RowCodec})
   * @throws IllegalStateException when {@code certifyAbsence} and a certificate check fails
   */
  public StagedWrite stageInsert(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence) {
    return stageInsert(readAt, schema, rows, certifyAbsence, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageInsert(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.INSERT).empty().build();
      }
      try (TableHandle h = TableHandle.open(lance, config, readAt);
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        Set<String> ids = distinctIds(rows);
        return stageInsertBatch(h, readAt, schema, batch, ids.size() == rows.size(),
            StagedKeys.sortedHashes(ids), certifyAbsence, uuid);
      }
    });
  }

  /**
   * As {@link #stageInsert(TableAt, Schema, List, boolean, String)}, for rows already
   * held as Arrow (a merge's certificate-proven chunk copied from the source's fragments): the batch
   * is staged as it is, after the checks {@link RowCodec#encode} would have made that still apply to
   * rows of the same table (the write schema, non-null columns, a non-null id), and the same
   * certificate checks.
   *
   * @return the staged write; empty when the buffer holds no row
   * @throws IllegalArgumentException when the buffer's schema does not match the table, or a
   *     non-nullable column or the id holds a null
   * @throws IllegalStateException when {@code certifyAbsence} and a certificate check fails
   */
  public StagedWrite stageInsert(TableAt readAt, ChunkBuffer chunk,
      boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (chunk.rows() == 0) {
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.INSERT).empty().build();
      }
      chunk.requireDeclaredNullability();
      // Distinct hashes prove distinct ids; only a repeated hash (a repeated id, or a collision)
      // needs the exact check.
      long[] hashes = chunk.sortedIdHashes();
      boolean distinct = true;
      for (int i = 1; i < hashes.length && distinct; i++) {
        distinct = hashes[i] != hashes[i - 1];
      }
      if (!distinct) {
        distinct = chunk.distinctIds().size() == chunk.rows();
      }
      try (TableHandle h = TableHandle.open(lance, config, readAt)) {
        return stageInsertBatch(h, readAt, chunk.schema(), chunk.seal(), distinct,
            hashes, certifyAbsence, uuid);
      }
    });
  }

  /**
   * @param distinctIds whether the batch's ids are distinct (a certified insert requires it)
   * @param idHashes the batch's id {@link StagedKeys#hash hashes}, sorted
   */
  private StagedWrite stageInsertBatch(TableHandle h, TableAt readAt,
      Schema schema, VectorSchemaRoot batch, boolean distinctIds, long[] idHashes, boolean certifyAbsence,
      String uuid) {
    requireTableSchema(schema, h.table);
    int rows = batch.getRowCount();
    LanceSchema lanceSchema = h.table.getLanceSchema();
    List<FragmentMetadata> fragments = LanceSupport.stage(config, h.table, batch, h.allocator);
    StagedKeys.record(fragments, idHashes);
    Update update = LanceSupport.insertOnlyUpdate(fragments, lanceSchema);
    Map<String, String> properties = Map.of();
    if (certifyAbsence) {
      List<String> violations =
          new ArrayList<>(InsertCertificate.shapeViolations(update, lanceSchema, rows, uuid, readAt.version()));
      if (!distinctIds) {
        violations.add("the inserted ids are not distinct");
      }
      if (!violations.isEmpty()) {
        throw new IllegalStateException("strict insert into " + readAt.location() + " fails closed: the staged"
            + " transaction cannot carry the insert-absence certificate: " + violations);
      }
      properties = InsertCertificate.properties(readAt.version());
    }
    return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.INSERT)
        .counts(rows, 0, 0)
        .properties(properties)
        .arrowBytes(RowCodec.arrowBytes(batch))
        .fragments(fragments, List.of(), List.of())
        .preservedFieldIds(update.fieldsForPreservingFragBitmap())
        .build();
  }

  /**
   * Stages an upsert of {@code rows} (distinct ids; the caller dedupes, last wins) on the branch,
   * planned against {@code readAt}: the rows whose id exists at that version get deletion
   * vectors (a fragment losing every row is removed instead), every input row is written to new
   * fragments, and one {@code Update} (RewriteRows) carries updated, removed and new fragments.
   *
   * <p>An upsert that matched no existing row is a pure insertion; it carries the v1 certificate
   * when every check holds, and silently carries none otherwise (certification is an optimisation
   * for an upsert, never a reason to fail it). A replaced row gets a new row id.
   *
   * @return the staged write; empty when {@code rows} is empty
   * @throws IllegalArgumentException for duplicate or missing ids, a schema that does not match
   *     the table, or a row that does not fit the schema
   */
  public StagedWrite stageUpsert(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows) {
    return stageUpsert(readAt, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageUpsert(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return stageUpsert(readAt, schema, rows, uuid, KnownRows.NONE);
  }

  /**
   * As above; {@code known} rows of exactly {@code readAt} on this branch spare the probe for
   * the existing rows when they cover every id.
   */
  public StagedWrite stageUpsert(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows, String uuid, KnownRows known) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.UPSERT).empty().build();
      }
      Set<String> ids = distinctIds(rows);
      if (ids.size() != rows.size()) {
        throw new IllegalArgumentException("upsert rows must have distinct ids (dedupe, last wins, before staging)");
      }
      try (TableHandle h = TableHandle.open(lance, config, readAt);
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        requireTableSchema(schema, h.table);
        LanceSchema lanceSchema = h.table.getLanceSchema();
        Existing existing = locate(h, ids, known);
        // The new rows' data file and the replaced rows' deletion files are independent writes:
        // side by side. Writing the fragment needs only the table's URI, not the handle.
        String uri = h.table.uri();
        java.util.concurrent.CompletableFuture<List<FragmentMetadata>> staging =
            dev.omnigraph.util.Background.start(() -> LanceSupport.stage(config, uri, batch, h.allocator));
        DeletionVectors deletions;
        List<FragmentMetadata> fragments;
        try {
          deletions = stageDeletions(h.table, existing);
        } finally {
          // Never leave the staging write running over a batch about to be closed.
          fragments = dev.omnigraph.util.Background.join(staging);
        }
        StagedKeys.record(fragments, ids);
        Update update = LanceSupport.rewriteRowsUpdate(
            fragments, deletions.updated, deletions.removed, lanceSchema);
        long updated = existing.ids.size();
        Map<String, String> properties = Map.of();
        if (existing.addresses.isEmpty()
            && InsertCertificate.shapeViolations(update, lanceSchema, rows.size(), uuid, readAt.version()).isEmpty()) {
          properties = InsertCertificate.properties(readAt.version());
        }
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.UPSERT)
            .counts(rows.size() - updated, updated, 0)
            .properties(properties)
            .arrowBytes(RowCodec.arrowBytes(batch))
            .fragments(fragments, deletions.updated, deletions.removed)
            .preservedFieldIds(update.fieldsForPreservingFragBitmap())
            .build();
      }
    });
  }

  /**
   * Stages a {@code Delete} of the rows whose id is in {@code ids} at {@code readAt} of the
   * branch, through deletion vectors ({@code Fragment.deleteRows}; a fragment losing every row is
   * listed as deleted). The transaction's predicate is the exact {@code id IN (…)} filter, recorded
   * for audit only.
   *
   * @return the staged write; {@linkplain StagedWrite#isEmpty() empty} when no id matched (nothing
   *     to commit, no HEAD movement)
   */
  public StagedWrite stageDeleteIds(TableAt readAt,
      Collection<String> ids) {
    return stageDeleteIds(readAt, ids, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageDeleteIds(TableAt readAt,
      Collection<String> ids, String uuid) {
    return stageDeleteIds(readAt, ids, uuid, KnownRows.NONE);
  }

  /** As above, with {@code known} rows of exactly {@code readAt} (see {@link #stageUpsert}). */
  public StagedWrite stageDeleteIds(TableAt readAt,
      Collection<String> ids, String uuid, KnownRows known) {
    return lance(() -> {
      StagedWrite.Builder staged =
          StagedWrite.builder(readAt, uuid, StagedWrite.Kind.DELETE);
      if (ids.isEmpty()) {
        return staged.empty().build();
      }
      try (TableHandle h = TableHandle.open(lance, config, readAt)) {
        Existing existing = locate(h, new LinkedHashSet<>(ids), known);
        if (existing.addresses.isEmpty()) {
          return staged.empty().build();
        }
        DeletionVectors deletions = stageDeletions(h.table, existing);
        return staged
            .counts(0, 0, existing.rowCount())
            .fragments(List.of(), deletions.updated, deletions.removed)
            .deletePredicate(Filter.in(ID, existing.ids).toSql())
            .build();
      }
    });
  }

  /**
   * Stages an {@code Overwrite} whose new fragments hold exactly {@code rows}: once committed, the
   * branch's table content is replaced (an empty {@code rows} stages a valid zero-fragment
   * overwrite, i.e. an empty table; it is not an empty staged write).
   *
   * @throws IllegalArgumentException when {@code schema} does not match the table or a row does not
   *     fit it
   */
  public StagedWrite stageOverwrite(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows) {
    return stageOverwrite(readAt, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageOverwrite(TableAt readAt,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, readAt);
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        requireTableSchema(schema, h.table);
        List<FragmentMetadata> fragments = rows.isEmpty() ? List.of()
            : pastUsedIds(readAt, h.table,
                LanceSupport.stage(config, h.table, batch, h.allocator));
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.OVERWRITE)
            .counts(rows.size(), 0, 0)
            .arrowBytes(RowCodec.arrowBytes(batch))
            .fragments(fragments, List.of(), List.of())
            .overwriteSchema(schema)
            .build();
      }
    });
  }

  /**
   * As {@link #stageOverwrite(String, Optional, long, Schema, List, String)}, from a load's spill
   * (docs/write-path.md, "An overwrite streams"): the spilled batches stream into Lance, which cuts the fragments, so a table of any
   * size is staged with one batch in memory. Superseded rows (an id given twice) are left out
   * batch by batch. Staging again (a first-touch table) reads the spill again.
   */
  public StagedWrite stageOverwrite(TableAt readAt, RowSpill spill,
      String uuid) {
    Schema schema = spill.schema();
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, readAt)) {
        requireTableSchema(schema, h.table);
        List<FragmentMetadata> fragments = new ArrayList<>();
        if (spill.liveRows() > 0 && !spill.hasSuperseded()) {
          try (org.apache.arrow.vector.ipc.ArrowStreamReader reader = spill.reader(h.allocator)) {
            fragments.addAll(LanceSupport.stage(config, h.table.uri(), reader, h.allocator));
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        } else if (spill.liveRows() > 0) {
          List<Map<String, Object>> buffer = new ArrayList<>();
          for (Map<String, Object> row : spill.live()) {
            buffer.add(row);
            if (buffer.size() >= RowSpill.batchRows()) {
              fragments.addAll(stageRows(h, schema, buffer));
              buffer.clear();
            }
          }
          fragments.addAll(stageRows(h, schema, buffer));
        }
        return StagedWrite.builder(readAt, uuid, StagedWrite.Kind.OVERWRITE)
            .counts(spill.liveRows(), 0, 0)
            .arrowBytes(spill.arrowBytes())
            .fragments(fragments.isEmpty() ? List.of()
                : pastUsedIds(readAt, h.table, fragments), List.of(), List.of())
            .overwriteSchema(schema)
            .build();
      }
    });
  }

  private List<FragmentMetadata> stageRows(TableHandle h, Schema schema, List<Map<String, Object>> rows) {
    if (rows.isEmpty()) {
      return List.of();
    }
    try (VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
      return LanceSupport.stage(config, h.table, batch, h.allocator);
    }
  }

  /**
   * An Overwrite's staged fragments, renumbered past every fragment id the table has used. Lance 7.0
   * restarts an Overwrite's fragment ids at 0, and its session cache keeps each fragment's stable
   * row-id sequence per dataset URI under the fragment id alone (lance#7645; keyed by the row-id
   * meta upstream since). A process that had read the replaced fragment 0 then attached that
   * fragment's row ids to the new fragment 0: a filtered scan failed ("all columns in a record batch
   * must have the same length") or, at equal lengths, carried another row's ids. Ids that never
   * repeat keep every cache entry right, in every process. Lance keeps a non-zero id it is given.
   */
  private List<FragmentMetadata> pastUsedIds(TableAt readAt,
      Dataset read, List<FragmentMetadata> staged) {
    int next = highestFragmentId(readAt, read) + 1;
    List<FragmentMetadata> out = new ArrayList<>(staged.size());
    for (FragmentMetadata f : staged) {
      out.add(new FragmentMetadata(next++, f.getFiles(), f.getPhysicalRows(), f.getDeletionFile(), f.getRowIdMeta(),
          f.getCreatedAtVersionMeta(), f.getLastUpdatedAtVersionMeta()));
    }
    return out;
  }

  /**
   * The highest fragment id of {@code readAt}, or, when that version has no fragment (every
   * row deleted), of the newest earlier version that has one: ids only grow between Overwrites, so
   * that is the highest any version used. The walk back is as long as the run of fragmentless
   * versions, which only an emptied or a new table has. -1 when no version ever had a fragment.
   */
  private int highestFragmentId(TableAt readAt, Dataset read) {
    OptionalInt max = read.getFragments().stream().mapToInt(org.lance.Fragment::getId).max();
    for (long v = readAt.version() - 1; max.isEmpty() && v >= 1; v--) {
      try (TableHandle h = TableHandle.open(lance, config, readAt.ref().at(v))) {
        max = h.table.getFragments().stream().mapToInt(org.lance.Fragment::getId).max();
      } catch (RuntimeException notOnThisBranch) {
        break; // below a fork point the branch has no version of its own: its parent's ids are lower
      }
    }
    return max.orElse(-1);
  }

  /** Rows staged per fragment by a schema rewrite: few fragments, one bounded buffer. */
  static final int REWRITE_FRAGMENT_ROWS = 65_536;

  /**
   * Stages schema apply's rewrite of a table on its main: an {@code Overwrite} under {@code target}
   * whose fragments hold every row of {@code at} (a version of the dataset's main), each target column filled from the source
   * column {@code sourceOf} names for it (its own name, or the name it was renamed from), or null
   * when it names none (an added property). Source columns no target column takes are dropped.
   * Streams: one scanner batch and one fragment buffer of {@value #REWRITE_FRAGMENT_ROWS} rows in
   * memory, whatever the table's size. An empty table stages a zero-fragment overwrite.
   *
   * @param sourceOf target column name → source column name (absent: the column starts null)
   */
  public StagedWrite stageSchemaRewrite(TableAt at, Schema target, Map<String, String> sourceOf, String uuid) {
    return stageSchemaRewrite(at, target, sourceOf, Map.of(), uuid);
  }

  /**
   * As above; each {@code revivedFrom} column (a soft-dropped property declared again) is filled,
   * for the rows that still exist, with its value at the given earlier version of the table (joined
   * by id; one column of that version is held in memory).
   */
  public StagedWrite stageSchemaRewrite(TableAt at, Schema target, Map<String, String> sourceOf,
      Map<String, Long> revivedFrom, String uuid) {
    if (at.nativeBranch().isPresent()) {
      throw new IllegalArgumentException("schema apply rewrites a table on its main, not " + at);
    }
    Map<String, Map<String, Object>> revived = new java.util.HashMap<>();
    revivedFrom.forEach((column, version) -> {
      Map<String, Object> values = new java.util.HashMap<>();
      tables.scan(at.ref().at(version), Filter.TRUE, List.of(ID, column), r -> values.put(String.valueOf(r.get(ID)), r.get(column)));
      revived.put(column, values);
    });
    return lance(() -> {
      List<FragmentMetadata> fragments = new ArrayList<>();
      long[] rows = {0};
      long[] bytes = {0};
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        List<Map<String, Object>> buffer = new ArrayList<>();
        long[] bufferBlobBytes = {0};
        Runnable flush = () -> {
          if (buffer.isEmpty()) {
            return;
          }
          carryBlobs(at, target, sourceOf, revivedFrom, buffer);
          bufferBlobBytes[0] = 0;
          try (VectorSchemaRoot batch = RowCodec.encode(target, buffer, h.allocator)) {
            bytes[0] += RowCodec.arrowBytes(batch);
            fragments.addAll(LanceSupport.stage(config, h.table, batch, h.allocator));
          }
          buffer.clear();
        };
        tables.scanInto(h, Filter.TRUE, List.of(), false, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> source = RowCodec.decode(batch, i);
            Map<String, Object> row = new LinkedHashMap<>();
            for (Field f : target.getFields()) {
              String from = sourceOf.get(f.getName());
              Map<String, Object> old = revived.get(f.getName());
              row.put(f.getName(), from != null ? source.get(from)
                  : old != null ? old.get(String.valueOf(source.get(ID))) : null);
            }
            // A committed Blob cell is rewritten as its bytes: a fragment's buffer holds at most
            // 32 MiB of them (cut earlier), and a row above that on its own is refused here, in
            // prepare, before any sidecar.
            long rowBlobBytes = StoredBlob.carriedBytes(row);
            if (rowBlobBytes > BlobLimits.MAX_OPERATION_BYTES) {
              throw new ResourceLimitExceeded(SCHEMA_REWRITE_ROW_RESOURCE, BlobLimits.MAX_OPERATION_BYTES,
                  rowBlobBytes);
            }
            if (bufferBlobBytes[0] + rowBlobBytes > BlobLimits.MAX_OPERATION_BYTES) {
              flush.run();
            }
            bufferBlobBytes[0] += rowBlobBytes;
            buffer.add(row);
            rows[0]++;
            if (buffer.size() >= REWRITE_FRAGMENT_ROWS) {
              flush.run();
            }
          }
        });
        flush.run();
        List<FragmentMetadata> renumbered = pastUsedIds(at, h.table, fragments);
        fragments.clear();
        fragments.addAll(renumbered);
      }
      return StagedWrite.builder(at, uuid, StagedWrite.Kind.OVERWRITE)
          .counts(rows[0], 0, 0)
          .arrowBytes(bytes[0])
          .fragments(fragments, List.of(), List.of())
          .overwriteSchema(target)
          .build();
    });
  }

  /** The {@code resource} of a schema rewrite's refusal of a row whose Blob bytes pass 32 MiB. */
  public static final String SCHEMA_REWRITE_ROW_RESOURCE = "schema_rewrite_row_blob_bytes";

  /**
   * Replaces each committed Blob cell ({@link StoredBlob}) of a rewrite's buffered rows with its
   * bytes, read where the value came from: the rewritten version's source column, or the earlier
   * version a revived column is filled from. External cells were decoded as references and stay so.
   */
  private void carryBlobs(TableAt rewritten, Schema target, Map<String, String> sourceOf,
      Map<String, Long> revivedFrom, List<Map<String, Object>> buffer) {
    for (Field f : target.getFields()) {
      String column = f.getName();
      List<String> ids = new ArrayList<>();
      for (Map<String, Object> row : buffer) {
        if (row.get(column) instanceof StoredBlob) {
          ids.add(String.valueOf(row.get(ID)));
        }
      }
      if (ids.isEmpty()) {
        continue;
      }
      String from = sourceOf.get(column);
      TableAt at = from != null ? rewritten : rewritten.ref().at(revivedFrom.get(column));
      Map<String, byte[]> bytes = tables.blobs().readAll(at, from != null ? from : column, ids);
      for (Map<String, Object> row : buffer) {
        if (row.get(column) instanceof StoredBlob) {
          byte[] b = bytes.get(String.valueOf(row.get(ID)));
          if (b == null) {
            throw new IllegalStateException("Blob cell '" + row.get(ID) + "'." + column + " vanished from " + at);
          }
          row.put(column, dev.omnigraph.schema.BlobValue.managed(b));
        }
      }
    }
  }

  /**
   * Stages the strict version-one create of a new, empty dataset at {@code location} with
   * {@code schema} and the pre-minted {@code uuid} (schema apply's AddType). Nothing is written
   * until {@link DataTables#commit}, which lands it at version 1 only where no dataset exists.
   */
  public StagedWrite stageCreate(String location, Schema schema, String uuid) {
    return StagedWrite.builder(TableRef.main(location).at(0), uuid, StagedWrite.Kind.CREATE)
        .counts(0, 0, 0)
        .fragments(List.of(), List.of(), List.of())
        .overwriteSchema(schema)
        .build();
  }

  /** The rows of the checked-out version whose id is among the probed ids. */
  private static final class Existing {
    final Set<String> ids = new LinkedHashSet<>();
    /** fragment id → row offsets within it (from {@code _rowaddr}). */
    final TreeMap<Integer, List<Integer>> addresses = new TreeMap<>();

    long rowCount() {
      return addresses.values().stream().mapToLong(List::size).sum();
    }
  }

  /** Deletion vectors staged for {@link Existing} rows. */
  private static final class DeletionVectors {
    final List<FragmentMetadata> updated = new ArrayList<>();
    final List<Long> removed = new ArrayList<>();
  }

  /** The rows of {@code ids}: from {@code known} when it covers them all, else probed. */
  private Existing locate(TableHandle h, Collection<String> ids, KnownRows known) {
    if (known.addresses().isEmpty() || !known.covers(ids)) {
      return findExisting(h, ids);
    }
    Existing existing = new Existing();
    for (String id : ids) {
      Long rowAddress = known.addresses().get(id);
      if (rowAddress != null) {
        existing.ids.add(id);
        existing.addresses.computeIfAbsent((int) (rowAddress >>> 32), k -> new ArrayList<>())
            .add(RowAddress.rowIndex(rowAddress));
      }
    }
    return existing;
  }

  private Existing findExisting(TableHandle h, Collection<String> ids) {
    Existing existing = new Existing();
    for (List<String> chunk : DataTables.chunks(ids)) {
      tables.scanInto(h, Filter.in(ID, chunk), List.of(ID), true, batch -> {
        FieldVector id = batch.getVector(ID);
        FieldVector address = batch.getVector(MetadataColumns.ROWADDR);
        for (int i = 0; i < batch.getRowCount(); i++) {
          existing.ids.add((String) RowCodec.get(id, i));
          long rowAddress = (Long) RowCodec.get(address, i);
          // A row address is (fragment id << 32) | offset within the fragment.
          existing.addresses.computeIfAbsent((int) (rowAddress >>> 32), k -> new ArrayList<>())
              .add(RowAddress.rowIndex(rowAddress));
        }
      });
    }
    return existing;
  }

  /**
   * Writes deletion files for the {@code existing} rows of {@code table}'s checked-out version
   * without committing. Lance merges them with each fragment's current deletion vector and returns
   * null for a fragment with no live row left, which must then be removed rather than updated.
   */
  private static DeletionVectors stageDeletions(Dataset table, Existing existing) {
    DeletionVectors out = new DeletionVectors();
    existing.addresses.forEach((fragmentId, offsets) -> {
      List<Integer> sorted = offsets.stream().sorted().toList();
      FragmentMetadata after = table.getFragment(fragmentId).deleteRows(sorted);
      if (after == null) {
        out.removed.add((long) fragmentId);
      } else {
        out.updated.add(after);
      }
    });
    return out;
  }

  private static Set<String> distinctIds(List<Map<String, Object>> rows) {
    Set<String> ids = new HashSet<>();
    for (int r = 0; r < rows.size(); r++) {
      if (!(rows.get(r).get(ID) instanceof String id)) {
        throw new IllegalArgumentException("row " + r + ": column 'id' must be a non-null String");
      }
      ids.add(id);
    }
    return ids;
  }

  /**
   * Rejects a write schema that differs from the table's in names, types, nullability or nesting:
   * staged files are written from the given schema and would otherwise commit columns the table
   * does not declare.
   */
  private static void requireTableSchema(Schema given, Dataset table) {
    Schema actual = table.getSchema();
    if (!sameShape(given.getFields(), actual.getFields())) {
      throw new IllegalArgumentException("write schema " + given + " does not match the table schema " + actual);
    }
  }

  static boolean sameShape(List<Field> a, List<Field> b) {
    return sameShape(a, b, false);
  }

  /**
   * @param elementsOfFixedList compare the element field of a FixedSizeList: lance-core 7.0.0
   *     reports it as nullable even when the table was created with a non-null element (vectors),
   *     so its nullability is not part of the shape
   */
  private static boolean sameShape(List<Field> a, List<Field> b, boolean elementsOfFixedList) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      Field x = a.get(i);
      Field y = b.get(i);
      if (!x.getName().equals(y.getName())
          || !x.getType().equals(y.getType())
          || (!elementsOfFixedList && x.isNullable() != y.isNullable())
          || !sameShape(x.getChildren(), y.getChildren(),
              x.getType() instanceof ArrowType.FixedSizeList)) {
        return false;
      }
    }
    return true;
  }
}
