package dev.omnigraph.table;

import dev.omnigraph.api.ReadSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.MetadataColumns;

/**
 * The columns a read scanned, held in memory per exact table version (docs/performance.md, "The
 * column cache"), so that the next scan of that version is answered from them instead of by Lance:
 * a filter and an aggregate over cached arrays (Q4), a key lookup through a column of distinct values
 * (Q1). A version never changes, so nothing is ever invalidated; a version's entry goes when its
 * branch is created or deleted, cleaned up, or its root let go, exactly when {@link PinnedHandles}
 * forgets that version's handle.
 *
 * <p>A column is loaded by one projected scan of the version (the missing columns of a read, with
 * {@code _rowaddr}) on the {@value #SCANS_BEFORE_LOAD}nd read scan of that version that needs it: a
 * version read once, as most versions behind a busy writer are, never pays for a load. The scan
 * returns exactly the live rows (deletions applied). Columns loaded by different scans are aligned
 * row by row: every load of a version must see the same count and sequence of row addresses
 * (compared by a 64-bit digest), or the version's columns are dropped and the next load reads all of
 * a read's columns in one scan.
 *
 * <p>Bounded by bytes ({@link Budget}: {@code omnigraph.read.column-cache-bytes}, 64 MiB by default,
 * 0 turns the cache off), counted exactly ({@link CachedColumn#bytes()}), one least-recently-used
 * queue of columns over every root of the process. A load stops as soon as what it built passes the
 * budget, and reads that need those columns of that version are then left to Lance for good: a table
 * larger than the budget keeps today's scans.
 */
final class ColumnCache {

  /** Read scans of a version that need a column before it is loaded (the load's own scan included). */
  static final int SCANS_BEFORE_LOAD = 2;

  /** Versions (with or without columns) an instance remembers, beyond which the eldest are dropped. */
  static final int MAX_VERSIONS = 4_096;

  /** Read scans answered from cached columns in this process (tests' evidence that the cache answered). */
  static final java.util.concurrent.atomic.AtomicLong ANSWERED = new java.util.concurrent.atomic.AtomicLong();

  /** The bytes and recency of every column cached under it: the process's, or a test's. */
  static final class Budget {
    /** The process's, from {@code omnigraph.read.column-cache-bytes} (a system property) or its default. */
    static final Budget PROCESS = new Budget(ReadSettings.columnCacheBytes(System::getProperty));

    private long max;
    private long held;
    /** Every cached column, least recently used first; also the lock of every cache under this budget. */
    private final LinkedHashSet<Held> lru = new LinkedHashSet<>();

    Budget(long max) {
      this.max = max;
    }

    /** The bytes the cached columns hold now. */
    long held() {
      synchronized (lru) {
        return held;
      }
    }

    long max() {
      synchronized (lru) {
        return max;
      }
    }

    /** Changes the bound, evicting down to it now; 0 turns caching off and empties the cache. */
    void max(long bytes) {
      if (bytes < 0) {
        throw new IllegalArgumentException("a column cache budget is not negative: " + bytes);
      }
      synchronized (lru) {
        max = bytes;
        evictOver(0);
      }
    }

    /** Evicts least recently used columns until {@code more} bytes fit. Caller holds the lock. */
    private void evictOver(long more) {
      while (held + more > max && !lru.isEmpty()) {
        lru.iterator().next().drop();
      }
    }
  }

  /** One cached column of one version. */
  private static final class Held {
    final Version version;
    final String name;
    final CachedColumn column;

    Held(Version version, String name, CachedColumn column) {
      this.version = version;
      this.name = name;
      this.column = column;
    }

    /** Uncaches this column. Caller holds the budget's lock. */
    void drop() {
      Budget b = version.owner.budget;
      if (b.lru.remove(this)) {
        b.held -= column.bytes();
        version.columns.remove(name);
      }
    }
  }

  /** What the cache knows of one version. Guarded by the budget's lock, but {@link #loading}. */
  private static final class Version {
    final ColumnCache owner;
    final Map<String, Held> columns = new HashMap<>();
    int scans;
    /** Rows and digest of the row addresses of the loads so far (-1: none yet). */
    int rows = -1;
    long addresses;
    /**
     * The column sets whose load passed the budget on its own: a read that needs all of one of them
     * (uncached) is left to Lance for good, instead of scanning again for a load that cannot fit.
     */
    final List<Set<String>> tooLarge = new ArrayList<>();
    /** Columns this version cannot hold (lists, vectors, Blobs, absent): reads of them go to Lance. */
    final Set<String> unholdable = new java.util.HashSet<>();
    /** Held while loading, so that two reads of one version load its columns once. */
    final Object loading = new Object();

    Version(ColumnCache owner) {
      this.owner = owner;
    }
  }

  /** Reads the given columns of the version with {@code _rowaddr}, batch by batch, and its schema. */
  interface Loader {
    Schema schema();

    /** The version's live rows (from its manifest: no data read). */
    long rows();

    void load(List<String> columns, Consumer<VectorSchemaRoot> batches);
  }

  private final Budget budget;
  /** This root's versions, least recently used first. Guarded by the budget's lock. */
  private final LinkedHashMap<TableAt, Version> versions = new LinkedHashMap<>(16, 0.75f, true);

  ColumnCache(Budget budget) {
    this.budget = budget;
  }

  /**
   * Answers a read's scan of exactly {@code at}: hands {@code sink} every live row that
   * {@code filter} matches, with {@code columns} (in that order, as {@link RowCodec#decode} would
   * give them), in the version's scan order. Returns false, having handed nothing, when the caller
   * must scan: the cache is off, a column is not cached yet (loading it first when this is the
   * version's {@value #SCANS_BEFORE_LOAD}nd such scan), cannot be held or does not fit, or the
   * filter has a literal only Lance converts.
   */
  boolean answer(TableAt at, Filter filter, List<String> columns, Loader loader, Consumer<Map<String, Object>> sink) {
    if (columns.isEmpty()) {
      return false; // every column: Blobs and vectors among them
    }
    Set<String> needed = new LinkedHashSet<>(columns);
    needed.addAll(filter.columns());
    Version v;
    Map<String, CachedColumn> have = new HashMap<>();
    synchronized (budget.lru) {
      if (budget.max == 0) {
        return false;
      }
      v = versions.computeIfAbsent(at, k -> new Version(this));
      if (versions.size() > MAX_VERSIONS) {
        dropVersion(versions.keySet().iterator().next());
      }
      if (needed.stream().anyMatch(v.unholdable::contains)) {
        return false;
      }
      if (!held(v, needed, have)) {
        Set<String> missing = new java.util.HashSet<>(needed);
        missing.removeAll(have.keySet());
        if (++v.scans < SCANS_BEFORE_LOAD || v.tooLarge.stream().anyMatch(missing::containsAll)) {
          return false;
        }
      }
    }
    if (have.size() < needed.size()) {
      have = load(at, v, needed, loader);
      if (have == null) {
        return false;
      }
    }
    CachedFilter.Test test = CachedFilter.compile(filter, have);
    if (test == null) {
      return false;
    }
    ANSWERED.incrementAndGet();
    CachedColumn[] out = new CachedColumn[columns.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = have.get(columns.get(i));
    }
    int[] rows = CachedFilter.candidates(filter, have);
    int count = have.values().iterator().next().rows;
    for (int i = 0, n = rows == null ? count : rows.length; i < n; i++) {
      int r = rows == null ? i : rows[i];
      if (test.at(r) == CachedFilter.TRUE) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int c = 0; c < out.length; c++) {
          row.put(columns.get(c), out[c].value(r));
        }
        sink.accept(row);
      }
    }
    return true;
  }

  /** Puts the cached columns of {@code needed} into {@code have}, touching each; whether all are. Caller holds the lock. */
  private boolean held(Version v, Set<String> needed, Map<String, CachedColumn> have) {
    for (String name : needed) {
      Held h = v.columns.get(name);
      if (h != null) {
        budget.lru.remove(h);
        budget.lru.add(h);
        have.put(name, h.column);
      }
    }
    return have.size() == needed.size();
  }

  /** Thrown inside a load's batch callback when what it built passes the budget. */
  private static final class OverBudget extends RuntimeException {
    OverBudget() {
      super(null, null, false, false);
    }
  }

  /**
   * Loads the columns of {@code needed} that {@code v} lacks in one scan and caches them; every
   * column of {@code needed}, or null when the read must go to Lance.
   */
  private Map<String, CachedColumn> load(TableAt at, Version v, Set<String> needed, Loader loader) {
    synchronized (v.loading) {
      Map<String, CachedColumn> have = new HashMap<>();
      List<String> missing = new ArrayList<>();
      long max;
      synchronized (budget.lru) {
        held(v, needed, have);
        needed.stream().filter(n -> !have.containsKey(n)).forEach(missing::add);
        max = budget.max;
      }
      if (missing.isEmpty()) {
        return have;
      }
      Map<String, Field> fields = new HashMap<>();
      loader.schema().getFields().forEach(f -> fields.put(f.getName(), f));
      int expected = (int) Math.min(Integer.MAX_VALUE - 8, loader.rows());
      List<CachedColumn.Builder> builders = new ArrayList<>();
      for (String name : missing) {
        Field f = fields.get(name);
        CachedColumn.Kind kind = f == null ? null : CachedColumn.kindOf(f.getType());
        if (kind == null) {
          synchronized (budget.lru) {
            v.unholdable.add(name); // a list, vector or Blob column, or one it lacks: Lance answers or refuses
          }
          return null;
        }
        builders.add(new CachedColumn.Builder(kind, expected));
      }
      long[] digest = {0};
      int[] rows = {0};
      try {
        loader.load(missing, batch -> {
          long bytes = 0;
          for (int i = 0; i < builders.size(); i++) {
            builders.get(i).append(batch.getVector(missing.get(i)));
            bytes += builders.get(i).size();
          }
          UInt8Vector addresses = (UInt8Vector) batch.getVector(MetadataColumns.ROWADDR);
          for (int i = 0; i < batch.getRowCount(); i++) {
            digest[0] = digest[0] * 0x9E3779B97F4A7C15L + addresses.get(i) + 1;
          }
          rows[0] += batch.getRowCount();
          if (bytes > max) {
            throw new OverBudget();
          }
        });
      } catch (OverBudget tooLarge) {
        refuse(v, missing);
        return null;
      } catch (IllegalStateException unfit) { // a vector of another type than its field's
        synchronized (budget.lru) {
          v.unholdable.addAll(missing);
        }
        return null;
      }
      List<CachedColumn> built = builders.stream().map(CachedColumn.Builder::build).toList();
      synchronized (budget.lru) {
        if (versions.get(at) != v) {
          return null; // forgotten while loading (a branch deleted, the root let go): read it again
        }
        if (v.rows >= 0 && (v.rows != rows[0] || v.addresses != digest[0])) {
          // Not the rows of the earlier loads in the same order: start the version over.
          new ArrayList<>(v.columns.values()).forEach(Held::drop);
          v.rows = -1;
          return null;
        }
        long size = built.stream().mapToLong(CachedColumn::bytes).sum();
        if (size > budget.max) {
          v.tooLarge.add(Set.copyOf(missing));
          return null;
        }
        v.rows = rows[0];
        v.addresses = digest[0];
        budget.evictOver(size);
        for (int i = 0; i < missing.size(); i++) {
          Held h = new Held(v, missing.get(i), built.get(i));
          v.columns.put(h.name, h);
          budget.lru.add(h);
          budget.held += h.column.bytes();
          have.put(h.name, h.column);
        }
      }
      return have;
    }
  }

  private void refuse(Version v, List<String> columns) {
    synchronized (budget.lru) {
      v.tooLarge.add(Set.copyOf(columns));
    }
  }

  /** Forgets every version {@code matches} selects (see {@link PinnedHandles#forgetBranch} and its siblings). */
  void forgetIf(Predicate<TableAt> matches) {
    synchronized (budget.lru) {
      versions.keySet().stream().filter(matches).toList().forEach(this::dropVersion);
    }
  }

  /** Caller holds the lock. */
  private void dropVersion(TableAt at) {
    Version v = versions.remove(at);
    if (v != null) {
      new ArrayList<>(v.columns.values()).forEach(Held::drop);
    }
  }

  /** Whether every column of {@code columns} of exactly {@code at} is cached now (explain). */
  boolean holds(TableAt at, Set<String> columns) {
    synchronized (budget.lru) {
      Version v = versions.get(at);
      return v != null && v.columns.keySet().containsAll(columns);
    }
  }

  /** The bytes this root's columns hold (tests). */
  long held() {
    synchronized (budget.lru) {
      long total = 0;
      for (Version v : versions.values()) {
        for (Held h : v.columns.values()) {
          total += h.column.bytes();
        }
      }
      return total;
    }
  }
}
