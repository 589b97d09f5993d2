package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.table.RowSpill;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code load --mode overwrite} in bounded memory (docs/write-path.md, "An overwrite streams"): the {@link LoadWriter} contract (one
 * commit, every touched table replaced, input errors naming their line, endpoints checked against
 * this load or the branch, {@code @range}/{@code @check}/{@code @unique}/{@code @card} over the
 * load) without holding the rows. Each row is spilled to its table's {@link RowSpill} as its line
 * is parsed; what stays in memory is one batch per table and, per table, the ids the input could
 * give twice (node ids and named edge ids: generated edge ids never repeat) with the ordinal of
 * their last row, and the endpoint ids not yet seen as nodes. Validation reads the spills back;
 * staging streams them into Lance.
 */
final class StreamedOverwrite implements LoadSink, PreparedWrite, AutoCloseable {

  private final Catalog catalog;
  private final Path dir;
  /** Spills by table key, sorted as {@link LoadBatch} orders its tables. */
  private final Map<TableKey, RowSpill> spills = new TreeMap<>();
  /** Per table, id → ordinal of its last row, for the ids a later line may replace. */
  private final Map<TableKey, Map<String, Long>> lastRow = new HashMap<>();
  /** Per node table, endpoint ids not in this load when referenced → the first line naming them. */
  private final Map<TableKey, Map<String, Long>> pending = new HashMap<>();
  /** Endpoints of named edges by table key and id: a later line of the same id replaces them. */
  private final Map<String, List<LoadBatch.Endpoint>> namedEndpoints = new LinkedHashMap<>();

  /** What the spills may buffer together before they are written, in rows' rough heap weight. */
  static final long MAX_BUFFERED_BYTES = 32L << 20;
  private long bufferedRows;
  private long bufferedBytes;
  private final dev.omnigraph.api.ExternalBlobPolicy blobPolicy;
  /** External Blob cells admitted so far, against {@link BlobAdmission#MAX_EXTERNAL_CELLS}. */
  private long externalCells;

  StreamedOverwrite(Catalog catalog, dev.omnigraph.api.ExternalBlobPolicy blobPolicy) {
    this.catalog = catalog;
    this.blobPolicy = blobPolicy;
    try {
      this.dir = Files.createTempDirectory("omnigraph-load-");
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the load's spill directory", e);
    }
  }

  @Override
  public void add(TableKey tableKey, String id, Map<String, Object> row, long line, boolean strict) {
    // An overwrite keeps external cells as references: admitted here, line by line, never read.
    for (Map.Entry<String, Object> e : row.entrySet()) {
      if (e.getValue() instanceof dev.omnigraph.schema.BlobValue b && b.isExternal() && !b.isAdmitted()) {
        BlobAdmission.checkExternalCells(++externalCells);
        e.setValue(BlobAdmission.reference(blobPolicy, b, "line " + line + " (" + e.getKey() + ")"));
      }
    }
    RowSpill spill = spills.computeIfAbsent(tableKey, k -> new RowSpill(Effects.schemaOf(catalog, k), dir));
    long ordinal = spill.add(row);
    bufferedRows++;
    bufferedBytes += RowSpill.weight(row);
    if (bufferedRows >= RowSpill.batchRows() || bufferedBytes >= MAX_BUFFERED_BYTES) {
      // One bound across tables: input interleaving many types must not hold a batch of each.
      spills.values().forEach(RowSpill::flush);
      bufferedRows = 0;
      bufferedBytes = 0;
    }
    if (strict) {
      return; // a generated id: it never repeats
    }
    Long earlier = lastRow.computeIfAbsent(tableKey, k -> new HashMap<>()).put(id, ordinal);
    if (earlier != null) {
      spill.supersede(earlier); // the last occurrence wins, as an upsert of the same id would
    }
  }

  @Override
  public void addEdge(TableKey tableKey, String id, Map<String, Object> row, long line, String fromType, String from,
      String toType, String to, boolean named, boolean strict) {
    add(tableKey, id, row, line, strict);
    List<LoadBatch.Endpoint> ends = List.of(new LoadBatch.Endpoint(TableKey.node(fromType), from, line),
        new LoadBatch.Endpoint(TableKey.node(toType), to, line));
    if (named) {
      namedEndpoints.put(tableKey + "\u0000" + id, ends);
    } else {
      ends.forEach(this::reference);
    }
  }

  /** Notes an endpoint unless its node is already in this load (it cannot leave it: overwrite keeps every id). */
  private void reference(LoadBatch.Endpoint e) {
    Map<String, Long> ids = lastRow.get(e.nodeTableKey());
    if (ids == null || !ids.containsKey(e.id())) {
      pending.computeIfAbsent(e.nodeTableKey(), k -> new LinkedHashMap<>()).putIfAbsent(e.id(), e.line());
    }
  }

  @Override
  public java.util.Optional<Path> blobSpillDirectory() {
    return java.util.Optional.of(dir);
  }

  @Override
  public int rowsIn(TableKey tableKey) {
    RowSpill spill = spills.get(tableKey);
    return spill == null ? 0 : (int) spill.liveRows();
  }

  @Override
  public dev.omnigraph.recovery.WriterKind writerKind() {
    return new dev.omnigraph.recovery.WriterKind.Load();
  }

  @Override
  public boolean repreparable() {
    return false;
  }

  @Override
  public List<TableEffect> prepare(PrepareContext ctx) {
    checkEndpoints(ctx);
    checkConstraints(ctx);
    List<TableEffect> effects = new ArrayList<>();
    for (Map.Entry<TableKey, RowSpill> t : spills.entrySet()) {
      TablePin pin = ctx.pin(t.getKey());
      RowSpill spill = t.getValue();
      TableEffect.Stager stager = (readVersion, uuid) -> ctx.tables().staging().stageOverwrite(ctx.targetAt(pin, readVersion), spill, uuid);
      effects.add(Effects.of(ctx, pin, stager, spill.liveRows(), spill.liveRows(), false));
    }
    return effects;
  }

  /** Every edge endpoint names a node in this load or, for a node type the load does not replace, on the branch. */
  private void checkEndpoints(PrepareContext ctx) {
    namedEndpoints.values().forEach(ends -> ends.forEach(this::reference));
    namedEndpoints.clear();
    Map<TableKey, Map<String, Long>> wanted = new HashMap<>();
    pending.forEach((table, ids) -> {
      Map<String, Long> loaded = lastRow.getOrDefault(table, Map.of());
      ids.forEach((id, line) -> {
        if (!loaded.containsKey(id)) {
          wanted.computeIfAbsent(table, k -> new LinkedHashMap<>()).put(id, line);
        }
      });
    });
    LoadWriter.requireOnBranch(ctx, wanted, table -> !spills.containsKey(table));
  }

  /** As {@link LoadWriter}'s, over the spilled rows read back (only for a table that declares a constraint). */
  private void checkConstraints(PrepareContext ctx) {
    for (Map.Entry<TableKey, RowSpill> t : spills.entrySet()) {
      String name = t.getKey().typeName();
      java.util.Collection<Map<String, Object>> rows = t.getValue().live();
      if (t.getKey().isNode()) {
        var type = catalog.node(name).orElseThrow();
        if (!type.ranges().isEmpty() || !type.checks().isEmpty()) {
          rows.forEach(row -> RowValidator.checkRow(type, row));
        }
        RowValidator.checkUnique(ctx, t.getKey(), type.uniques(), rows, Set.of(), true);
      } else {
        var type = catalog.edge(name).orElseThrow();
        RowValidator.checkUnique(ctx, t.getKey(), type.uniques(), rows, Set.of(), true);
        RowValidator.checkCardinality(ctx, type, rows, Set.of(), true);
      }
    }
  }

  /** Deletes the spills. */
  @Override
  public void close() {
    spills.values().forEach(RowSpill::close);
    try (java.util.stream.Stream<Path> blobs = Files.list(dir)) {
      // Blob values the reader decoded into files (blobSpillDirectory): the spills hold copies.
      for (Path blob : (Iterable<Path>) blobs::iterator) {
        Files.deleteIfExists(blob);
      }
      Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // a spill left behind is the temp directory's to clean
    }
  }
}
