package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.MetadataColumns;
import org.lance.RowAddress;
import org.lance.Transaction;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Operation;
import org.lance.operation.Update;
import org.lance.schema.LanceSchema;

/**
 * The data-table layer the write path calls. A table is named by its dataset key under the graph
 * root ({@code location}, e.g. {@code nodes/<hex>}) and a Lance branch of that dataset
 * ({@code nativeBranch}; empty = the dataset's main).
 *
 * <p>This class holds the reads at exact versions (rows, scans, cursors, the transaction a version
 * recorded). Each other concern has its own class, reached from here: {@link #branches()}, {@link
 * #versions()}, {@link #statistics()}, {@link #indexes()}, {@link #search()}, {@link
 * #insertCertificate()} and {@link #compaction()}.
 *
 * <p>Every call opens what it needs and closes every dataset, scanner, reader and allocator before
 * returning; nothing is cached, so a call always sees storage as it is. Lance failures surface as
 * the {@link RuntimeException}s Lance throws (for example, a version or branch that does not
 * exist); the checked {@code IOException}s lance-java throws undeclared from native code are
 * rethrown as {@link java.io.UncheckedIOException}. No method classifies a Lance exception by type
 * or message: {@link #commit} settles its outcome by re-reading the table.
 *
 * <p>Known deviation from the seed (docs/lance-write-layer.md): lance-java 7.0.0 cannot attach
 * Lance's exact-id inserted-rows filter to a staged {@code Update}, so a stale insert is rebased by
 * Lance instead of rejected. {@link #commit} reports that as {@link CommitOutcome.Kind#REBASED},
 * never as landed.
 */
public final class DataTables {

  /** The primary-key column every data table has. */
  static final String ID = "id";

  /**
   * Ids per {@code id IN (…)} filter. A probe reads every fragment its key index does not cover once
   * per chunk, so one chunk for a whole load (8,192 ids, the per-table cap) reads them once: an
   * 8,192-id probe took 100-150 ms in 1,000-id chunks behind a few uncovered bulk fragments, and the
   * plan of an 8,192-literal list is no slower per id than nine smaller ones (measured here).
   */
  static final int ID_CHUNK = 8_192;

  /** Rows per scanner batch: bounds memory for any table size (the seed's 8,192-row batches). */
  static final long SCAN_BATCH_ROWS = 8_192;

  private final StorageConfig config;
  private final TableBranches branches;
  private final TableVersions versions;
  private final TableStatistics statistics;
  private final TableIndexes indexes;
  private final TableSearch search;
  private final InsertCertificate insertCertificate;
  private final TableCompaction compaction;

  /** A data-table layer over the graph root {@code config} names. */
  public DataTables(StorageConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.branches = new TableBranches(config);
    this.versions = new TableVersions(config, this);
    this.statistics = new TableStatistics(config);
    this.indexes = new TableIndexes(config);
    this.search = new TableSearch(config);
    this.insertCertificate = new InsertCertificate(config);
    this.compaction = new TableCompaction(config, this);
  }

  /** The tables' Lance branches and their fork lineage. */
  public TableBranches branches() {
    return branches;
  }

  /** Which versions the tables keep: listing, restore, cleanup, pin tags and hard drops. */
  public TableVersions versions() {
    return versions;
  }

  /** Fragment statistics of a version, from its manifest alone. */
  public TableStatistics statistics() {
    return statistics;
  }

  /** Index state, staged index builds and the fold of stale indexes. */
  public TableIndexes indexes() {
    return indexes;
  }

  /** Full-text and nearest-neighbour reads. */
  public TableSearch search() {
    return search;
  }

  /** The insertion-absence certificate: its properties and its checks. */
  public InsertCertificate insertCertificate() {
    return insertCertificate;
  }

  /** Compaction at an expected version and the statistics that decide when it is due. */
  public TableCompaction compaction() {
    return compaction;
  }

  /**
   * The live latest version of the table's {@code nativeBranch}, read from storage now.
   *
   * @throws RuntimeException from Lance when the dataset or branch does not exist
   */
  public long head(String location, Optional<String> nativeBranch) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.empty())) {
        return h.table.version();
      }
    });
  }

  /**
   * As {@link #head}, asked through the open handle of {@code knownVersion} (a version the caller
   * holds, e.g. its pin): one listing of the table's versions instead of a full open. On a branch
   * too: a handle checked out at a branch version lists that branch's own {@code _versions/} (checked
   * against lance-java 7.0.0: it sees a later branch commit and ignores main's), which is what the
   * full open (two listings and two manifest reads) would have concluded.
   */
  public long head(String location, Optional<String> nativeBranch, long knownVersion) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(knownVersion))) {
        return h.table.latestVersion();
      }
    });
  }

  /** The number of live rows at exactly {@code version} of the branch. */
  public long countRows(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        return h.table.countRows();
      }
    });
  }

  /**
   * The rows whose {@code id} is in {@code ids} at exactly {@code version} of the branch, with the
   * given {@code columns} (empty: every column), in no particular order. Ids are probed in chunks
   * of {@value #ID_CHUNK} exact-match filters.
   */
  public List<Map<String, Object>> rowsById(
      String location, Optional<String> nativeBranch, long version, Collection<String> ids, List<String> columns) {
    return lance(() -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      if (ids.isEmpty()) {
        return rows;
      }
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        for (List<String> chunk : chunks(ids)) {
          scanInto(h, Filter.in(ID, chunk), columns, false, batch -> {
            for (int i = 0; i < batch.getRowCount(); i++) {
              rows.add(RowCodec.decode(batch, i));
            }
          });
        }
      }
      return rows;
    });
  }

  /**
   * Streams the rows of exactly {@code version} of the branch that match {@code filter} (pushed
   * into Lance through {@link Filter#toSql()}) to {@code rowSink}, one batch of at most
   * {@value #SCAN_BATCH_ROWS} rows in memory at a time. {@code columns} empty means every column.
   *
   * @throws RuntimeException from Lance when the filter does not fit the table (unknown column, a
   *     literal Lance cannot convert to the column's type)
   */
  public void scan(String location, Optional<String> nativeBranch, long version, Filter filter,
      List<String> columns, Consumer<Map<String, Object>> rowSink) {
    lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        scanInto(h, filter, columns, false, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            rowSink.accept(RowCodec.decode(batch, i));
          }
        });
      }
      return null;
    });
  }

  /**
   * A pull cursor over the rows of exactly {@code version} of the branch with {@code id} greater
   * than {@code afterId} (empty: every row), in ascending id order, {@value #SCAN_BATCH_ROWS} rows per
   * scanner batch. {@code columns} empty means every column ({@code id} is always read). Resuming
   * with the last id seen is exact because ids are unique within a table version.
   *
   * <p>No id index is consulted (a range is not an exact probe), so Lance sorts the table's rows
   * natively; the JVM holds one batch.
   */
  public OrderedCursor orderedById(String location, Optional<String> nativeBranch, long version,
      Optional<String> afterId, List<String> columns) {
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS);
    afterId.ifPresent(id -> options.filter(Filter.gt(ID, id).toSql()));
    if (!columns.isEmpty()) {
      List<String> read = new ArrayList<>(columns);
      if (!read.contains(ID)) {
        read.add(0, ID);
      }
      options.columns(read);
    }
    org.lance.ipc.ColumnOrdering.Builder byId = new org.lance.ipc.ColumnOrdering.Builder();
    byId.setColumnName(ID);
    byId.setAscending(true);
    byId.setNullFirst(false);
    options.setColumnOrderings(List.of(byId.build()));
    return openScan(location, nativeBranch, version, options.build(), OrderedCursor::new);
  }

  /**
   * The rows of {@code fragments} of exactly {@code version} of the branch, every column, in the
   * scan's own order (fragment by fragment, no sort), {@value #SCAN_BATCH_ROWS} rows per scanner
   * batch, as Arrow: the rows a certified insertion interval added, streamed without a sort or a
   * decoded row (see {@link FragmentRows}).
   */
  public FragmentRows fragmentRows(String location, Optional<String> nativeBranch, long version,
      List<Integer> fragments) {
    if (fragments.isEmpty()) {
      throw new IllegalArgumentException("no fragments to read");
    }
    return openScan(location, nativeBranch, version,
        new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).fragmentIds(fragments).build(), FragmentRows::new);
  }

  /** A cursor over a scan it owns: its handle, scanner and reader (closed with the cursor). */
  private interface ScanCursor<T> {
    T open(AutoCloseable handle, org.lance.ipc.LanceScanner scanner, org.apache.arrow.vector.ipc.ArrowReader reader)
        throws IOException;
  }

  /** Opens a streaming scan of exactly {@code version} of the branch; on failure nothing stays open. */
  private <T> T openScan(String location, Optional<String> nativeBranch, long version, ScanOptions options,
      ScanCursor<T> cursor) {
    return lance(() -> {
      dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
          dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
      TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version));
      org.lance.ipc.LanceScanner scanner = null;
      try {
        scanner = org.lance.ipc.LanceScanner.create(h.table, options, h.allocator);
        return cursor.open(h, scanner, scanner.scanBatches());
      } catch (Exception e) {
        try {
          if (scanner != null) {
            scanner.close();
          }
        } finally {
          h.close();
        }
        throw e;
      }
    });
  }

  /** The ids of the fragments exactly {@code version} of the branch holds. */
  public Set<Integer> fragmentIds(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        Set<Integer> ids = new TreeSet<>();
        h.table.getFragments().forEach(f -> ids.add(f.getId()));
        return ids;
      }
    });
  }

  /**
   * As {@link #scan}, handing each row's {@code _rowaddr} beside it (the row map holds the table's
   * columns only): what a writer keeps as {@link KnownRows} for the stage that follows.
   */
  public void scanAddressed(String location, Optional<String> nativeBranch, long version, Filter filter,
      List<String> columns, java.util.function.BiConsumer<Map<String, Object>, Long> rowSink) {
    lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        scanInto(h, filter, columns, true, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> row = RowCodec.decode(batch, i);
            Object address = row.remove(MetadataColumns.ROWADDR);
            rowSink.accept(row, (Long) address);
          }
        });
      }
      return null;
    });
  }

  /**
   * Stages an insertion-only {@code Update} of {@code rows} on the branch, planned against
   * {@code readVersion}: data files are written under the branch's tree, nothing is committed.
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
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence) {
    return stageInsert(location, nativeBranch, readVersion, schema, rows, certifyAbsence, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT).empty().build();
      }
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(readVersion));
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        Set<String> ids = distinctIds(rows);
        return stageInsertBatch(h, location, nativeBranch, readVersion, schema, batch, ids.size() == rows.size(),
            StagedKeys.sortedHashes(ids), certifyAbsence, uuid);
      }
    });
  }

  /**
   * As {@link #stageInsert(String, Optional, long, Schema, List, boolean, String)}, for rows already
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
  public StagedWrite stageInsert(String location, Optional<String> nativeBranch, long readVersion, ChunkBuffer chunk,
      boolean certifyAbsence, String uuid) {
    return lance(() -> {
      if (chunk.rows() == 0) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT).empty().build();
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
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(readVersion))) {
        return stageInsertBatch(h, location, nativeBranch, readVersion, chunk.schema(), chunk.seal(), distinct,
            hashes, certifyAbsence, uuid);
      }
    });
  }

  /**
   * @param distinctIds whether the batch's ids are distinct (a certified insert requires it)
   * @param idHashes the batch's id {@link StagedKeys#hash hashes}, sorted
   */
  private StagedWrite stageInsertBatch(TableHandle h, String location, Optional<String> nativeBranch, long readVersion,
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
      List<String> violations = new ArrayList<>(InsertCertificate.shapeViolations(update, lanceSchema, rows, uuid, readVersion));
      if (!distinctIds) {
        violations.add("the inserted ids are not distinct");
      }
      if (!violations.isEmpty()) {
        throw new IllegalStateException("strict insert into " + location + " fails closed: the staged"
            + " transaction cannot carry the insert-absence certificate: " + violations);
      }
      properties = InsertCertificate.properties(readVersion);
    }
    return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.INSERT)
        .counts(rows, 0, 0)
        .properties(properties)
        .arrowBytes(RowCodec.arrowBytes(batch))
        .fragments(fragments, List.of(), List.of())
        .preservedFieldIds(update.fieldsForPreservingFragBitmap())
        .build();
  }

  /**
   * Stages an upsert of {@code rows} (distinct ids; the caller dedupes, last wins) on the branch,
   * planned against {@code readVersion}: the rows whose id exists at that version get deletion
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
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows) {
    return stageUpsert(location, nativeBranch, readVersion, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return stageUpsert(location, nativeBranch, readVersion, schema, rows, uuid, KnownRows.NONE);
  }

  /**
   * As above; {@code known} rows of exactly {@code readVersion} on this branch spare the probe for
   * the existing rows when they cover every id.
   */
  public StagedWrite stageUpsert(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid, KnownRows known) {
    return lance(() -> {
      if (rows.isEmpty()) {
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.UPSERT).empty().build();
      }
      Set<String> ids = distinctIds(rows);
      if (ids.size() != rows.size()) {
        throw new IllegalArgumentException("upsert rows must have distinct ids (dedupe, last wins, before staging)");
      }
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(readVersion));
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
            && InsertCertificate.shapeViolations(update, lanceSchema, rows.size(), uuid, readVersion).isEmpty()) {
          properties = InsertCertificate.properties(readVersion);
        }
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.UPSERT)
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
   * Stages a {@code Delete} of the rows whose id is in {@code ids} at {@code readVersion} of the
   * branch, through deletion vectors ({@code Fragment.deleteRows}; a fragment losing every row is
   * listed as deleted). The transaction's predicate is the exact {@code id IN (…)} filter, recorded
   * for audit only.
   *
   * @return the staged write; {@linkplain StagedWrite#isEmpty() empty} when no id matched (nothing
   *     to commit, no HEAD movement)
   */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids) {
    return stageDeleteIds(location, nativeBranch, readVersion, ids, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids, String uuid) {
    return stageDeleteIds(location, nativeBranch, readVersion, ids, uuid, KnownRows.NONE);
  }

  /** As above, with {@code known} rows of exactly {@code readVersion} (see {@link #stageUpsert}). */
  public StagedWrite stageDeleteIds(String location, Optional<String> nativeBranch, long readVersion,
      Collection<String> ids, String uuid, KnownRows known) {
    return lance(() -> {
      StagedWrite.Builder staged =
          StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.DELETE);
      if (ids.isEmpty()) {
        return staged.empty().build();
      }
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(readVersion))) {
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
  public StagedWrite stageOverwrite(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows) {
    return stageOverwrite(location, nativeBranch, readVersion, schema, rows, UUID.randomUUID().toString());
  }

  /** As above, with a pre-minted transaction uuid (a first-touch table's, recorded in the sidecar before staging). */
  public StagedWrite stageOverwrite(String location, Optional<String> nativeBranch, long readVersion,
      Schema schema, List<Map<String, Object>> rows, String uuid) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(readVersion));
          VectorSchemaRoot batch = RowCodec.encode(schema, rows, h.allocator)) {
        requireTableSchema(schema, h.table);
        List<FragmentMetadata> fragments = rows.isEmpty() ? List.of()
            : pastUsedIds(location, nativeBranch, readVersion, h.table,
                LanceSupport.stage(config, h.table, batch, h.allocator));
        return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.OVERWRITE)
            .counts(rows.size(), 0, 0)
            .arrowBytes(RowCodec.arrowBytes(batch))
            .fragments(fragments, List.of(), List.of())
            .overwriteSchema(schema)
            .build();
      }
    });
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
  private List<FragmentMetadata> pastUsedIds(String location, Optional<String> branch, long readVersion,
      Dataset read, List<FragmentMetadata> staged) {
    int next = highestFragmentId(location, branch, readVersion, read) + 1;
    List<FragmentMetadata> out = new ArrayList<>(staged.size());
    for (FragmentMetadata f : staged) {
      out.add(new FragmentMetadata(next++, f.getFiles(), f.getPhysicalRows(), f.getDeletionFile(), f.getRowIdMeta(),
          f.getCreatedAtVersionMeta(), f.getLastUpdatedAtVersionMeta()));
    }
    return out;
  }

  /**
   * The highest fragment id of {@code readVersion}, or, when that version has no fragment (every
   * row deleted), of the newest earlier version that has one: ids only grow between Overwrites, so
   * that is the highest any version used. The walk back is as long as the run of fragmentless
   * versions, which only an emptied or a new table has. -1 when no version ever had a fragment.
   */
  private int highestFragmentId(String location, Optional<String> branch, long readVersion, Dataset read) {
    OptionalInt max = read.getFragments().stream().mapToInt(org.lance.Fragment::getId).max();
    for (long v = readVersion - 1; max.isEmpty() && v >= 1; v--) {
      try (TableHandle h = TableHandle.open(config, location, branch, OptionalLong.of(v))) {
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
   * whose fragments hold every row of {@code readVersion}, each target column filled from the source
   * column {@code sourceOf} names for it (its own name, or the name it was renamed from), or null
   * when it names none (an added property). Source columns no target column takes are dropped.
   * Streams: one scanner batch and one fragment buffer of {@value #REWRITE_FRAGMENT_ROWS} rows in
   * memory, whatever the table's size. An empty table stages a zero-fragment overwrite.
   *
   * @param sourceOf target column name → source column name (absent: the column starts null)
   */
  public StagedWrite stageSchemaRewrite(String location, long readVersion, Schema target,
      Map<String, String> sourceOf, String uuid) {
    return stageSchemaRewrite(location, readVersion, target, sourceOf, Map.of(), uuid);
  }

  /**
   * As above; each {@code revivedFrom} column (a soft-dropped property declared again) is filled,
   * for the rows that still exist, with its value at the given earlier version of the table (joined
   * by id; one column of that version is held in memory).
   */
  public StagedWrite stageSchemaRewrite(String location, long readVersion, Schema target,
      Map<String, String> sourceOf, Map<String, Long> revivedFrom, String uuid) {
    Map<String, Map<String, Object>> revived = new java.util.HashMap<>();
    revivedFrom.forEach((column, version) -> {
      Map<String, Object> values = new java.util.HashMap<>();
      scan(location, Optional.empty(), version, Filter.TRUE, List.of(ID, column),
          r -> values.put(String.valueOf(r.get(ID)), r.get(column)));
      revived.put(column, values);
    });
    return lance(() -> {
      List<FragmentMetadata> fragments = new ArrayList<>();
      long[] rows = {0};
      long[] bytes = {0};
      try (TableHandle h = TableHandle.open(config, location, Optional.empty(), OptionalLong.of(readVersion))) {
        List<Map<String, Object>> buffer = new ArrayList<>();
        Runnable flush = () -> {
          if (buffer.isEmpty()) {
            return;
          }
          try (VectorSchemaRoot batch = RowCodec.encode(target, buffer, h.allocator)) {
            bytes[0] += RowCodec.arrowBytes(batch);
            fragments.addAll(LanceSupport.stage(config, h.table, batch, h.allocator));
          }
          buffer.clear();
        };
        scanInto(h, Filter.TRUE, List.of(), false, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> source = RowCodec.decode(batch, i);
            Map<String, Object> row = new LinkedHashMap<>();
            for (Field f : target.getFields()) {
              String from = sourceOf.get(f.getName());
              Map<String, Object> old = revived.get(f.getName());
              row.put(f.getName(), from != null ? source.get(from)
                  : old != null ? old.get(String.valueOf(source.get(ID))) : null);
            }
            buffer.add(row);
            rows[0]++;
            if (buffer.size() >= REWRITE_FRAGMENT_ROWS) {
              flush.run();
            }
          }
        });
        flush.run();
        List<FragmentMetadata> renumbered = pastUsedIds(location, Optional.empty(), readVersion, h.table, fragments);
        fragments.clear();
        fragments.addAll(renumbered);
      }
      return StagedWrite.builder(location, Optional.empty(), readVersion, uuid, StagedWrite.Kind.OVERWRITE)
          .counts(rows[0], 0, 0)
          .arrowBytes(bytes[0])
          .fragments(fragments, List.of(), List.of())
          .overwriteSchema(target)
          .build();
    });
  }

  /**
   * Stages the strict version-one create of a new, empty dataset at {@code location} with
   * {@code schema} and the pre-minted {@code uuid} (schema apply's AddType). Nothing is written
   * until {@link #commit}, which lands it at version 1 only where no dataset exists.
   */
  public StagedWrite stageCreate(String location, Schema schema, String uuid) {
    return StagedWrite.builder(location, Optional.empty(), 0, uuid, StagedWrite.Kind.CREATE)
        .counts(0, 0, 0)
        .fragments(List.of(), List.of(), List.of())
        .overwriteSchema(schema)
        .build();
  }

  /** The Arrow schema of the table's main at exactly {@code version}. */
  public Schema arrowSchema(String location, long version) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, Optional.empty(), OptionalLong.of(version))) {
        return h.table.getSchema();
      }
    });
  }

  /**
   * Whether any dataset (any version, any file) exists at {@code location}: the AddType
   * path-absence check, and recovery's "was this create's dataset ever written".
   */
  public boolean datasetExists(String location) {
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      return !storage.list(location + "/").isEmpty();
    }
  }

  /**
   * Commits {@code staged} with its pre-minted uuid, its read version, its properties and zero
   * Lance retries, then classifies the outcome from evidence: it re-reads the branch's head and the
   * transaction of every version after the read version (whether or not the commit call threw).
   *
   * <table>
   *   <caption>Classification</caption>
   *   <tr><th>evidence</th><th>outcome</th></tr>
   *   <tr><td>our uuid at readVersion+1, recorded read version = readVersion</td><td>LANDED</td></tr>
   *   <tr><td>our uuid at a later version (Lance rebased it over a foreign commit)</td>
   *       <td>REBASED (caller: RecoveryRequired)</td></tr>
   *   <tr><td>our uuid nowhere, head = readVersion</td><td>NOT_LANDED, effect-free</td></tr>
   *   <tr><td>our uuid nowhere, head moved</td><td>NOT_LANDED, {@code headMoved}</td></tr>
   * </table>
   *
   * <p>A staged write is committed at most once: Lance accepts the same transaction again (it
   * rebases it), so a second attempt could land the rows twice.
   *
   * @throws IllegalArgumentException when {@code staged} is empty
   * @throws IllegalStateException when {@code staged} was already passed to {@code commit}
   * @throws TableCommitUnknownException when the evidence cannot be read (the transaction may have
   *     landed: the caller must not clean up and must settle it later)
   */
  public CommitOutcome commit(StagedWrite staged) {
    if (staged.isEmpty()) {
      throw new IllegalArgumentException("nothing to commit: " + staged);
    }
    if (!staged.claimCommit()) {
      // Lance would happily rebase the same files in again under the same uuid: a duplicate.
      throw new IllegalStateException("staged write already committed once: " + staged);
    }
    if (staged.kind() == StagedWrite.Kind.CREATE) {
      return commitCreate(staged);
    }
    Exception failure = null;
    Dataset committed = null;
    try (TableHandle h = TableHandle.open(config, staged.location(), staged.nativeBranch(), OptionalLong.of(staged.readVersion()))) {
      committed = LanceSupport.commit(
          h.table, staged.operation(), staged.readVersion(), staged.uuid(), staged.properties());
    } catch (Exception e) {
      // Deliberately not inspected: a conflict, a rebase failure and a network error all look
      // alike, and lance-java throws undeclared checked IOExceptions too, hence Exception.
      failure = e;
    }
    try {
      // A normal return at exactly readVersion + 1 is Lance's own proof: with zero retries, a
      // foreign commit after the read version would have taken readVersion + 1 (or rebased us past
      // it), so this version is ours, with our uuid. Anything else is settled by re-reading.
      CommitOutcome outcome = failure == null && committed != null && committed.version() == staged.readVersion() + 1
          ? CommitOutcome.landed(committed.version())
          : classify(staged, failure);
      if (committed != null && outcome.kind() == CommitOutcome.Kind.LANDED
          && committed.version() == outcome.version()) {
        // Confirmed from evidence to be exactly our version: the next write plans against it. On a
        // branch the committed handle is the branch's; pinned handles serve reads, stages, commits
        // and version listings of their own ref only, never a checkout from their main.
        PinnedHandles.adopt(config, staged.location(), staged.nativeBranch(), outcome.version(), committed, committed);
        committed = null;
      }
      return outcome;
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), staged.readVersion(), staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure); // the commit call's own failure, for diagnosis
      }
      throw unknown;
    } finally {
      if (committed != null) {
        committed.close();
      }
    }
  }

  /** {@link #commit} of a version-one create: settled from whether version 1 carries our uuid. */
  private CommitOutcome commitCreate(StagedWrite staged) {
    // Lance's commit at read version 0 over an existing dataset is an Overwrite of it, not a
    // refusal (tried here): the path-absence check is what makes the create strict. It is exact
    // within the single-writer-process boundary, where the caller holds the table's gate.
    if (datasetExists(staged.location())) {
      return CommitOutcome.notLanded(head(staged.location(), Optional.empty()), "a dataset already exists at "
          + staged.location() + "; a version-one create never replaces one");
    }
    Exception failure = null;
    try (BufferAllocator allocator = new RootAllocator();
        Dataset created = LanceSupport.commitCreate(config, staged.location(), staged.operation(), staged.uuid(),
            staged.properties(), allocator)) {
      if (created.version() == 1) {
        return CommitOutcome.landed(1);
      }
    } catch (Exception e) {
      failure = e; // not inspected: the evidence below decides
    }
    String cause = failure == null ? "the create returned normally"
        : "the create failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    try {
      if (!datasetExists(staged.location())) {
        return CommitOutcome.notLanded(0, "create of " + staged.location() + " did not land; " + cause);
      }
      try (TableHandle h = TableHandle.openFresh(config, staged.location(), Optional.empty(), OptionalLong.empty())) {
        Optional<TxInfo> first = transactionAt(h, Optional.empty(), 1);
        if (first.isPresent() && first.get().uuid().equals(staged.uuid())) {
          long head = h.table.latestVersion();
          return head == 1 ? CommitOutcome.landed(1)
              : CommitOutcome.rebased(1, "our create of " + staged.location() + " is followed by versions up to "
                  + head + "; " + cause);
        }
        return CommitOutcome.notLanded(h.table.latestVersion(), "a dataset not created by transaction "
            + staged.uuid() + " exists at " + staged.location() + "; " + cause);
      }
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), 0, staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure);
      }
      throw unknown;
    }
  }

  private CommitOutcome classify(StagedWrite staged, Exception failure) {
    long readVersion = staged.readVersion();
    String cause = failure == null
        ? "the commit call returned normally"
        : "the commit call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    // Off main, a fresh open of the branch; on main, the pinned handle's version listing (the head
    // is read from storage either way, never taken from the commit call's answer).
    try (TableHandle h = staged.nativeBranch().isPresent()
        ? TableHandle.open(config, staged.location(), staged.nativeBranch(), OptionalLong.empty())
        : TableHandle.open(config, staged.location(), staged.nativeBranch(), OptionalLong.of(readVersion))) {
      long head = staged.nativeBranch().isPresent() ? h.table.version() : h.table.latestVersion();
      String firstForeign = null;
      List<Long> ours = new ArrayList<>();
      long oursRecordedRead = -1;
      // Every version after the read version, not just the first: the uuid must appear exactly once.
      for (long v = readVersion + 1; v <= head; v++) {
        Optional<TxInfo> tx = transactionAt(h, staged.nativeBranch(), v);
        if (tx.isPresent() && tx.get().uuid().equals(staged.uuid())) {
          if (ours.isEmpty()) {
            oursRecordedRead = tx.get().readVersion();
          }
          ours.add(v);
        } else if (firstForeign == null) {
          firstForeign = v + " (" + tx.map(t -> t.operation() + " " + t.uuid()).orElse("no transaction") + ")";
        }
      }
      if (ours.size() > 1) {
        return CommitOutcome.rebased(ours.get(ours.size() - 1), "transaction " + staged.uuid()
            + " appears at versions " + ours + ": committed more than once; " + cause);
      }
      if (ours.size() == 1) {
        long v = ours.get(0);
        if (v == readVersion + 1 && oursRecordedRead == readVersion) {
          return CommitOutcome.landed(v);
        }
        return CommitOutcome.rebased(v, "transaction " + staged.uuid() + " planned on version "
            + readVersion + " landed at version " + v + " (recorded read version " + oursRecordedRead
            + ") after foreign version " + firstForeign + "; " + cause);
      }
      if (head == readVersion) {
        return CommitOutcome.notLanded(head, "transaction " + staged.uuid()
            + " did not land; head is still version " + head + " (effect-free); " + cause);
      }
      return CommitOutcome.notLanded(head, "transaction " + staged.uuid() + " did not land; foreign"
          + " commits moved head from " + readVersion + " to " + head + ", first " + firstForeign + "; " + cause);
    }
  }

  /**
   * The transaction Lance recorded for {@code version} of the branch, or empty when that version
   * has none (e.g. the dataset's creation) or is the branch's fork point (its first version: Lance's
   * clone, which lance-java 7.0.0 cannot decode without aborting the JVM).
   *
   * @throws RuntimeException from Lance when the version does not exist
   */
  public Optional<TxInfo> transactionAt(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.empty())) {
        if (nativeBranch.isPresent() && version <= TableBranches.forkVersion(h, nativeBranch.get())) {
          // A branch's first version is Lance's clone of its parent. lance-java 7.0.0 cannot convert
          // that operation: readTransaction() panics in native code and aborts the whole JVM. It was
          // never written by a graph writer, so it reads as "no recorded transaction".
          return Optional.empty();
        }
        return transactionAt(h, nativeBranch, version);
      }
    });
  }

  static Optional<TxInfo> transactionAt(TableHandle h, Optional<String> branch, long version) {
    try (Dataset at = h.main.checkout(LanceSupport.ref(branch, OptionalLong.of(version)))) {
      Optional<Transaction> read = LanceSupport.readTransaction(at);
      if (read.isEmpty()) {
        return Optional.empty();
      }
      try (Transaction tx = read.get()) {
        Operation op = tx.operation();
        OptionalLong restored = op instanceof org.lance.operation.Restore r
            ? OptionalLong.of(r.version()) : OptionalLong.empty();
        return Optional.of(new TxInfo(tx.uuid(), tx.readVersion(),
            tx.transactionProperties().orElse(Map.of()), op.name(), restored));
      }
    }
  }

  /** Runs {@code read} on the shared handle of exactly {@code version} (see {@link PinnedHandles}). */
  <T> T atVersion(String location, Optional<String> nativeBranch, long version,
      java.util.function.Function<Dataset, T> read) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(config, location, nativeBranch, OptionalLong.of(version))) {
        return read.apply(h.table);
      }
    });
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
    for (List<String> chunk : chunks(ids)) {
      scanInto(h, Filter.in(ID, chunk), List.of(ID), true, batch -> {
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

  private void scanInto(TableHandle h, Filter filter, List<String> columns, boolean withRowAddress,
      Consumer<VectorSchemaRoot> batches) {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS);
    if (!filter.isTrue()) {
      options.filter(filter.toSql());
    }
    if (!columns.isEmpty()) {
      options.columns(columns);
    }
    if (withRowAddress) {
      options.withRowAddress(true);
    }
    // Lance's default, stated because the key probes depend on it: a filter on an indexed column
    // (id, src, dst) reads the index and only the fragments it names plus the fragments the index
    // does not cover yet, not every fragment (issue 11). Except on a second-generation fork, whose
    // inherited index files Lance cannot find (lance#7840): scanning there is slower but answers.
    options.useScalarIndex(!TableBranches.forkedFromABranch(h));
    Optional<List<Integer>> fragments = filter.exactStrings(ID).flatMap(ids -> probedFragments(h.table, ids));
    if (fragments.isPresent()) {
      if (fragments.get().isEmpty()) {
        return; // every fragment provably holds none of the probed ids
      }
      options.fragmentIds(fragments.get());
    }
    try {
      LanceSupport.scanBatches(h.table, options.build(), h.allocator, batches);
    } catch (RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("scan of " + h.table.uri() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * The fragments an exact id probe must read: every fragment the id index covers (the index
   * answers for them; a restricted scan still uses it), and every uncovered fragment unless this
   * process staged it and none of {@code ids} was written into it ({@link StagedKeys}). Empty when
   * nothing can be skipped (scan as usual).
   */
  private static Optional<List<Integer>> probedFragments(Dataset table, Set<String> ids) {
    Set<Integer> covered = new HashSet<>();
    for (org.lance.index.Index index : table.getIndexes()) {
      if (index.name().equals(KeyIndexes.indexName(ID))) {
        covered.addAll(index.fragments().orElse(List.of()));
      }
    }
    List<Integer> read = new ArrayList<>();
    boolean skipped = false;
    StagedKeys.Probe probe = null;
    for (org.lance.Fragment fragment : table.getFragments()) {
      FragmentMetadata m = fragment.metadata();
      if (!covered.contains(m.getId())) {
        probe = probe == null ? new StagedKeys.Probe(ids) : probe;
        if (probe.provablyFree(m)) {
          skipped = true;
          continue;
        }
      }
      read.add(m.getId());
    }
    return skipped ? Optional.of(read) : Optional.empty();
  }

  private static List<List<String>> chunks(Collection<String> ids) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(ids));
    List<List<String>> chunks = new ArrayList<>();
    for (int i = 0; i < all.size(); i += ID_CHUNK) {
      chunks.add(all.subList(i, Math.min(all.size(), i + ID_CHUNK)));
    }
    return chunks;
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
