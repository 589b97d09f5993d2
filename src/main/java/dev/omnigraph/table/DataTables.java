package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.MetadataColumns;
import org.lance.Transaction;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Operation;

/**
 * The data-table layer the write path calls. A table is named by its dataset key under the graph
 * root ({@code location}, e.g. {@code nodes/<hex>}) and a Lance branch of that dataset
 * ({@code nativeBranch}; empty = the dataset's main).
 *
 * <p>This class holds the reads at exact versions (rows, scans, cursors, the transaction a version
 * recorded) and {@link #commit}, the one way a staged write lands. Each other concern has its own
 * class, reached from here: {@link #branches()}, {@link #versions()}, {@link #statistics()},
 * {@link #indexes()}, {@link #search()}, {@link #insertCertificate()}, {@link #staging()} and
 * {@link #compaction()}.
 *
 * <p>Every call opens what it needs and closes every dataset, scanner, reader and allocator before
 * returning; what is cached is keyed by an exact version, which never changes (open handles, id maps,
 * a read's columns: {@code ColumnCache}), so a call always sees storage as it is. Lance failures
 * surface as the {@link RuntimeException}s Lance throws (for example, a version or branch that does not
 * exist); the checked {@code IOException}s lance-java throws undeclared from native code are
 * rethrown as {@link java.io.UncheckedIOException}. No method classifies a Lance exception by type
 * or message: {@link #commit} settles its outcome by re-reading the table.
 *
 * <p>Known deviation from the write-path specification (docs/lance-write-layer.md): lance-java 7.0.0 cannot attach
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
  /**
   * The most ids a probe answers through the version's id map ({@link IdRowIds}): a read's point
   * lookups and the nodes it reaches; a writer's key checks of whole batches keep the indexed scan
   * (their versions are probed once or twice, and a scan reads only the fragments they may hit).
   */
  static final int MAX_TAKEN_IDS = 64;
  /** Probes answered through an id map in this process (a test's evidence that the map was used). */
  static final java.util.concurrent.atomic.AtomicLong TAKEN_PROBES = new java.util.concurrent.atomic.AtomicLong();

  /** Rows per scanner batch: bounds memory for any table size (the write path's 8,192-row batches). */
  static final long SCAN_BATCH_ROWS = 8_192;

  private final StorageConfig config;
  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;
  private final TableBranches branches;
  private final TableVersions versions;
  private final TableStatistics statistics;
  private final TableIndexes indexes;
  private final TableSearch search;
  private final BlobReads blobs;
  private final InsertCertificate insertCertificate;
  private final TableStaging staging;
  private final TableCompaction compaction;
  private final TableCommit commits;

  /**
   * A data-table layer over the graph root {@code config} names, with caches of its own (a test, a
   * tool): nothing is shared with the root's handles.
   */
  public DataTables(StorageConfig config) {
    this(config, new LanceRoot(config.rootUri()));
  }

  /** A data-table layer over the graph root {@code config} names, sharing {@code lance}, that root's part. */
  public DataTables(StorageConfig config, LanceRoot lance) {
    this.config = Objects.requireNonNull(config, "config");
    this.lance = Objects.requireNonNull(lance, "lance");
    this.branches = new TableBranches(config, lance);
    this.versions = new TableVersions(config, lance, this);
    this.statistics = new TableStatistics(config, lance);
    this.indexes = new TableIndexes(config, lance);
    this.search = new TableSearch(config, lance);
    this.blobs = new BlobReads(config, lance);
    this.insertCertificate = new InsertCertificate(config, lance);
    this.staging = new TableStaging(config, lance, this);
    this.compaction = new TableCompaction(config, this);
    this.commits = new TableCommit(config, lance, this);
  }

  /** The root's table part this layer shares. */
  LanceRoot lanceRoot() {
    return lance;
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

  /** Lazy, ranged reads of one Blob cell. */
  public BlobReads blobs() {
    return blobs;
  }

  /** The insertion-absence certificate: its properties and its checks. */
  public InsertCertificate insertCertificate() {
    return insertCertificate;
  }

  /** Staged (uncommitted) inserts, upserts, deletes, overwrites, rewrites and creates. */
  public TableStaging staging() {
    return staging;
  }

  /** Compaction at an expected version and the statistics that decide when it is due. */
  public TableCompaction compaction() {
    return compaction;
  }

  /**
   * Commits {@code staged} with its pre-minted uuid, its read version, its properties and zero
   * Lance retries, then classifies the outcome from the evidence it re-reads (the classification:
   * {@link TableCommit#commit}). Every writer's staged table write lands through here, once.
   *
   * @throws IllegalArgumentException when {@code staged} is empty
   * @throws IllegalStateException when {@code staged} was already passed to {@code commit}
   * @throws TableCommitUnknownException when the evidence cannot be read (the transaction may have
   *     landed: the caller must not clean up and must settle it later)
   */
  public CommitOutcome commit(StagedWrite staged) {
    return commits.commit(staged);
  }

  /**
   * The live latest version of the table's {@code nativeBranch}, read from storage now.
   *
   * @throws RuntimeException from Lance when the dataset or branch does not exist
   */
  public long head(TableRef ref) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, ref, OptionalLong.empty())) {
        return h.table.version();
      }
    });
  }

  /**
   * As {@link #head}, asked through the open handle of {@code known} (a version the caller
   * holds, e.g. its pin): one listing of the table's versions instead of a full open. On a branch
   * too: a handle checked out at a branch version lists that branch's own {@code _versions/} (checked
   * against lance-java 7.0.0: it sees a later branch commit and ignores main's), which is what the
   * full open (two listings and two manifest reads) would have concluded.
   */
  public long head(TableAt known) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, known)) {
        return h.table.latestVersion();
      }
    });
  }

  /**
   * How many times this process forgot what it held of {@code at}'s dataset branch (a branch deleted
   * or created again, a cleanup, a relocation): a cache of what it derives from a version's contents
   * keys by it as well as by {@code at}, because a re-created branch reuses names and version numbers
   * (docs/maintenance.md, "Branch names, deleted and used again"). No storage request.
   */
  public long cacheGeneration(TableAt at) {
    return lance.handles.generation(at.ref());
  }

  /** The number of live rows at exactly {@code at}. */
  public long countRows(TableAt at) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        return h.table.countRows();
      }
    });
  }

  /**
   * The rows whose {@code id} is in {@code ids} at exactly {@code at}, with the
   * given {@code columns} (empty: every column), in no particular order. Ids are probed in chunks
   * of {@value #ID_CHUNK} exact-match filters.
   */
  public List<Map<String, Object>> rowsById(
      TableAt at, Collection<String> ids, List<String> columns) {
    return lance(() -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      if (ids.isEmpty()) {
        return rows;
      }
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        for (List<String> chunk : chunks(ids)) {
          Filter probe = Filter.in(ID, chunk);
          if (!taken(h, probe, columns, rows::add)) {
            scanInto(h, probe, columns, false, batch -> {
              for (int i = 0; i < batch.getRowCount(); i++) {
                rows.add(RowCodec.decode(batch, i));
              }
            });
          }
        }
      }
      return rows;
    });
  }

  /**
   * Streams the rows of exactly {@code at} that match {@code filter} (pushed
   * into Lance through {@link Filter#toSql()}) to {@code rowSink}, one batch of at most
   * {@value #SCAN_BATCH_ROWS} rows in memory at a time. {@code columns} empty means every column.
   *
   * @throws RuntimeException from Lance when the filter does not fit the table (unknown column, a
   *     literal Lance cannot convert to the column's type)
   */
  public void scan(TableAt at, Filter filter,
      List<String> columns, Consumer<Map<String, Object>> rowSink) {
    scanLance(at, filter, columns, true, rowSink);
  }

  /**
   * A read's scan: as {@link #scan(TableAt, Filter, List, Consumer)}, answered from the root's column
   * cache when it holds (or now loads) every column the scan and its filter read
   * (docs/performance.md, "The column cache"), and otherwise by Lance, using its scalar indexes to
   * answer the filter only when {@code useIndexes}: a read's plan passes false for a filter whose
   * indexed parts are ranges only, which a scan answers faster than the BTree's row ids and a take of
   * each (docs/performance.md, "Index or scan"). Writers use the other form, never the cache: what a
   * writer reads stays Lance's answer.
   */
  public void scan(TableAt at, Filter filter, List<String> columns, boolean useIndexes,
      Consumer<Map<String, Object>> rowSink) {
    if (lance.columns.answer(at, filter, columns, columnLoader(at), rowSink)) {
      return;
    }
    scanLance(at, filter, columns, useIndexes, rowSink);
  }

  /** Whether the column cache holds any column of this root now (explain). */
  public boolean columnsCached() {
    return lance.columns.held() > 0;
  }

  /** Whether the column cache holds every one of {@code columns} of exactly {@code at} now (explain). */
  public boolean columnsCached(TableAt at, java.util.Set<String> columns) {
    return lance.columns.holds(at, columns);
  }

  /** Reads columns of exactly {@code at} for the column cache: every live row, with its {@code _rowaddr}. */
  private ColumnCache.Loader columnLoader(TableAt at) {
    return new ColumnCache.Loader() {
      @Override
      public Schema schema() {
        try (TableHandle h = TableHandle.open(lance, config, at)) {
          return h.table.getSchema();
        }
      }

      @Override
      public long rows() {
        return countRows(at);
      }

      @Override
      public void load(List<String> columns, Consumer<VectorSchemaRoot> batches) {
        lance(() -> {
          dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
              dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
          try (TableHandle h = TableHandle.open(lance, config, at)) {
            LanceSupport.scanBatches(h.table, new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).columns(columns)
                .withRowAddress(true).build(), h.allocator, batches);
          }
          return null;
        });
      }
    };
  }

  private void scanLance(TableAt at, Filter filter, List<String> columns, boolean useIndexes,
      Consumer<Map<String, Object>> rowSink) {
    lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        if (!taken(h, filter, columns, rowSink)) {
          scanInto(h, filter, columns, false, useIndexes, batch -> {
            for (int i = 0; i < batch.getRowCount(); i++) {
              rowSink.accept(RowCodec.decode(batch, i));
            }
          });
        }
      }
      return null;
    });
  }

  /**
   * Answers an exact id probe ({@code filter} restricts {@code id} to given values, see
   * {@link Filter#exactStrings}) by taking the rows its version's id map names ({@link IdRowIds})
   * instead of scanning: the rows are read with the filter's columns too and the whole filter is
   * tested on each (the same semantics as the pushed filter), so the map only ever narrows what is
   * read. Returns false, having read nothing, when the caller must scan: not an id probe, no
   * columns named, or no map for this version.
   */
  private static boolean taken(TableHandle h, Filter filter, List<String> columns,
      Consumer<Map<String, Object>> rowSink) throws IOException {
    Optional<Set<String>> ids = filter.exactStrings(ID);
    if (ids.isEmpty() || ids.get().size() > MAX_TAKEN_IDS || columns.isEmpty()) {
      return false;
    }
    Optional<IdRowIds> map = h.idRowIds();
    if (map.isEmpty()) {
      return false;
    }
    TAKEN_PROBES.incrementAndGet();
    TreeSet<Long> rowIds = new TreeSet<>();
    for (String id : ids.get()) {
      for (long rowId : map.get().candidates(id)) {
        rowIds.add(rowId);
      }
    }
    if (rowIds.isEmpty()) {
      return true; // no live row of this version has any of the ids
    }
    Set<String> read = new LinkedHashSet<>(columns);
    read.add(ID);
    read.addAll(filter.columns());
    boolean extra = read.size() > columns.size();
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
    try (org.apache.arrow.vector.ipc.ArrowReader reader = h.table.takeRows(List.copyOf(rowIds), List.copyOf(read))) {
      VectorSchemaRoot batch = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        Schema schema = batch.getSchema();
        for (int i = 0; i < batch.getRowCount(); i++) {
          Map<String, Object> row = RowCodec.decode(batch, i);
          if (filter.test(row, schema)) {
            if (extra) {
              row.keySet().retainAll(columns);
            }
            rowSink.accept(row);
          }
        }
      }
    }
    return true;
  }

  /**
   * A pull cursor over the rows of exactly {@code at} with {@code id} greater
   * than {@code afterId} (empty: every row), in ascending id order, {@value #SCAN_BATCH_ROWS} rows per
   * scanner batch. {@code columns} empty means every column ({@code id} is always read). Resuming
   * with the last id seen is exact because ids are unique within a table version.
   *
   * <p>No id index is consulted (a range is not an exact probe), so Lance sorts the table's rows
   * natively; the JVM holds one batch.
   */
  public OrderedCursor orderedById(TableAt at,
      Optional<String> afterId, List<String> columns) {
    return orderedById(at, afterId, columns, false);
  }

  /**
   * As above; with {@code rowAddresses}, each row's {@code _rowaddr} is read beside it
   * ({@link OrderedCursor#peekRowAddress()}), not as a column of the row: what tells a merge that two
   * snapshots hold one physical row (and so the same Blob bytes) without reading them.
   */
  public OrderedCursor orderedById(TableAt at,
      Optional<String> afterId, List<String> columns, boolean rowAddresses) {
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).withRowAddress(rowAddresses);
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
    return openScan(at, options.build(), OrderedCursor::new);
  }

  /**
   * The rows of {@code fragments} of exactly {@code at}, every column, in the
   * scan's own order (fragment by fragment, no sort), {@value #SCAN_BATCH_ROWS} rows per scanner
   * batch, as Arrow: the rows a certified insertion interval added, streamed without a sort or a
   * decoded row (see {@link FragmentRows}).
   */
  public FragmentRows fragmentRows(TableAt at,
      List<Integer> fragments) {
    if (fragments.isEmpty()) {
      throw new IllegalArgumentException("no fragments to read");
    }
    return openScan(at,
        new ScanOptions.Builder().batchSize(SCAN_BATCH_ROWS).fragmentIds(fragments).build(), FragmentRows::new);
  }

  /** A cursor over a scan it owns: its handle, scanner and reader (closed with the cursor). */
  private interface ScanCursor<T> {
    T open(AutoCloseable handle, org.lance.ipc.LanceScanner scanner, org.apache.arrow.vector.ipc.ArrowReader reader)
        throws IOException;
  }

  /** Opens a streaming scan of exactly {@code at}; on failure nothing stays open. */
  private <T> T openScan(TableAt at, ScanOptions options,
      ScanCursor<T> cursor) {
    return lance(() -> {
      dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
          dev.omnigraph.storage.StoreRequests.Kind.TABLE, 0);
      TableHandle h = TableHandle.open(lance, config, at);
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

  /** The ids of the fragments exactly {@code at} holds. */
  public Set<Integer> fragmentIds(TableAt at) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        Set<Integer> ids = new TreeSet<>();
        h.table.getFragments().forEach(f -> ids.add(f.getId()));
        return ids;
      }
    });
  }

  /**
   * The data files of each fragment exactly {@code at} holds, by fragment id: file names are unique
   * for good (Lance names each new file afresh), where a fragment id is unique only along one
   * dataset branch's history. So two versions hold one physical row at one {@code _rowaddr} only
   * when that fragment has the same files in both.
   */
  public Map<Integer, List<String>> fragmentFiles(TableAt at) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        Map<Integer, List<String>> files = new java.util.HashMap<>();
        h.table.getFragments().forEach(f -> files.put(f.getId(),
            f.metadata().getFiles().stream().map(org.lance.fragment.DataFile::getPath).toList()));
        return files;
      }
    });
  }

  /**
   * As {@link #scan}, handing each row's {@code _rowaddr} beside it (the row map holds the table's
   * columns only): what a writer keeps as {@link KnownRows} for the stage that follows.
   */
  public void scanAddressed(TableAt at, Filter filter,
      List<String> columns, java.util.function.BiConsumer<Map<String, Object>, Long> rowSink) {
    lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
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

  /** The Arrow schema of the table at exactly {@code at}. */
  public Schema arrowSchema(TableAt at) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
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
   * The transaction Lance recorded for {@code version} of the branch, or empty when that version
   * has none (e.g. the dataset's creation) or is the branch's fork point (its first version: Lance's
   * clone, which lance-java 7.0.0 cannot decode without aborting the JVM).
   *
   * @throws RuntimeException from Lance when the version does not exist
   */
  public Optional<TxInfo> transactionAt(TableAt at) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at.ref(), OptionalLong.empty())) {
        if (at.nativeBranch().isPresent() && at.version() <= TableBranches.forkVersion(h, at.nativeBranch().get())) {
          // A branch's first version is Lance's clone of its parent. lance-java 7.0.0 cannot convert
          // that operation: readTransaction() panics in native code and aborts the whole JVM. It was
          // never written by a graph writer, so it reads as "no recorded transaction".
          return Optional.empty();
        }
        return transactionAt(h, at.nativeBranch(), at.version());
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
  <T> T atVersion(TableAt at,
      java.util.function.Function<Dataset, T> read) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, at)) {
        return read.apply(h.table);
      }
    });
  }

  void scanInto(TableHandle h, Filter filter, List<String> columns, boolean withRowAddress,
      Consumer<VectorSchemaRoot> batches) {
    scanInto(h, filter, columns, withRowAddress, true, batches);
  }

  private void scanInto(TableHandle h, Filter filter, List<String> columns, boolean withRowAddress,
      boolean useIndexes, Consumer<VectorSchemaRoot> batches) {
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
    // does not cover yet, not every fragment (docs/write-path.md, "what a write costs"). Except on a second-generation fork, whose
    // inherited index files Lance cannot find (lance#7840): scanning there is slower but answers.
    options.useScalarIndex(useIndexes && !branches.forkedFromABranch(h));
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

  static List<List<String>> chunks(Collection<String> ids) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(ids));
    List<List<String>> chunks = new ArrayList<>();
    for (int i = 0; i < all.size(); i += ID_CHUNK) {
      chunks.add(all.subList(i, Math.min(all.size(), i + ID_CHUNK)));
    }
    return chunks;
  }
}
