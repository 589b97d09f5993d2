package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;

/**
 * Open Lance handles of exact table versions of one graph root (held by its {@link LanceRoot}). A
 * version of a dataset never changes, so a handle opened at (table, branch, version) can serve every
 * later read, stage and commit planned against that version: a write then opens its pinned version
 * once instead of once per step, and the next write finds the version this one committed already
 * open (docs/write-path.md, "what a write costs": each open is two object-store requests). "Which
 * version is latest" is never answered from here.
 *
 * <p>Bounded twice: a root keeps at most {@link #MAX_HANDLES} handles, and the process at most
 * {@link #MAX_PROCESS_HANDLES} over all its roots, so a process serving many roots (or a tool that
 * builds a throw-away {@code LanceRoot} and never releases it) does not hold {@code MAX_HANDLES}
 * per root. Past a bound the least recently used handle (of the root, or of the process) is
 * evicted; a handle in use is closed when its last lease ends. The process bound is one recency
 * queue of handles ({@link Budget#PROCESS}), not a map by root: lookups stay per root. All handles
 * share one allocator, which is never closed (scans allocate from it and free what they allocate).
 */
final class PinnedHandles {

  /** Handles one root keeps. */
  static final int MAX_HANDLES = 64;

  /** Handles all roots of the process keep together. */
  static final int MAX_PROCESS_HANDLES = 4 * MAX_HANDLES;

  private static final BufferAllocator ALLOCATOR = new RootAllocator();

  /**
   * A bound shared by the caches of several roots: every handle they cache, least recently used
   * first. Its queue is also the one lock of those caches (as when the cache was one process-wide
   * map: a lookup is a hash probe).
   */
  static final class Budget {
    /** The process's: every root's cache uses it, but a test's. */
    static final Budget PROCESS = new Budget(MAX_PROCESS_HANDLES);

    final int max;
    private final LinkedHashSet<Entry> lru = new LinkedHashSet<>();

    Budget(int max) {
      this.max = max;
    }

    /** Handles cached under this budget (for the bound's test). */
    int cached() {
      synchronized (lru) {
        return lru.size();
      }
    }
  }

  private final Budget budget;

  /** This root's handles by exact version; guarded by the budget's queue. */
  private final HashMap<TableAt, Entry> entries = new HashMap<>();

  /** The root's column cache, whose versions go when their handles are forgotten. */
  private final ColumnCache columns;

  PinnedHandles(Budget budget, ColumnCache columns) {
    this.budget = budget;
    this.columns = columns;
  }

  /** One cached handle: the dataset's main handle and the checked-out branch version. */
  static final class Entry {
    final Dataset main;
    final Dataset table;
    int leases;
    boolean evicted;
    private PinnedHandles owner;
    private TableAt at;
    /** Exact id probes of this version so far, and its fragment count (-1: not read yet); guarded by the entry. */
    private int probes;
    private int fragments = -1;
    /** The version's id map once built ({@link IdRowIds}); guarded by the entry. */
    private IdRowIds idRowIds;
    /** Whether this version never gets a map (too many rows, or the build failed). */
    private boolean noIdRowIds;

    Entry(Dataset main, Dataset table) {
      this.main = main;
      this.table = table;
    }

    private void closeNow() {
      synchronized (this) {
        if (idRowIds != null) {
          MAP_ROWS.addAndGet(-idRowIds.size());
          idRowIds = null;
          noIdRowIds = true;
        }
      }
      try {
        if (table != main) {
          table.close();
        }
      } finally {
        main.close();
      }
    }
  }

  /**
   * Exact id probes of a version before its id map is built, at least; and at least one per
   * fragment: the build reads the id column of every fragment once, where an indexed probe reads
   * about one data file, so by the time the map is built the probes have read as many files as the
   * build does. A version read once or twice, as most versions behind a busy writer are, never pays
   * for a map.
   */
  static final int PROBES_BEFORE_MAP = 3;
  /** Rows held in id maps across every open handle (about 12 bytes each): at most 48 MiB. */
  static final long MAX_MAP_ROWS = 4_000_000;
  private static final java.util.concurrent.atomic.AtomicLong MAP_ROWS = new java.util.concurrent.atomic.AtomicLong();

  /**
   * The id map of {@code e}'s version, counting this probe: built on the probe that makes it worth
   * building (see {@link #PROBES_BEFORE_MAP}), never above {@link IdRowIds#MAX_ROWS} rows or past
   * {@link #MAX_MAP_ROWS} in all; empty when the caller should scan. Probes of the version wait for
   * its build.
   */
  static Optional<IdRowIds> idRowIds(Entry e, TableHandle h) {
    synchronized (e) {
      if (e.idRowIds != null || e.noIdRowIds) {
        return Optional.ofNullable(e.idRowIds);
      }
      if (e.fragments < 0) {
        e.fragments = e.table.getFragments().size();
      }
      if (++e.probes < Math.max(PROBES_BEFORE_MAP, e.fragments)) {
        return Optional.empty();
      }
      long rows = e.table.countRows();
      if (rows > IdRowIds.MAX_ROWS || MAP_ROWS.addAndGet(rows) > MAX_MAP_ROWS) {
        if (rows <= IdRowIds.MAX_ROWS) {
          MAP_ROWS.addAndGet(-rows);
        }
        e.noIdRowIds = rows > IdRowIds.MAX_ROWS; // a full budget may free up: ask again later
        e.probes = 0;
        return Optional.empty();
      }
      try {
        e.idRowIds = IdRowIds.build(h, (int) rows);
        MAP_ROWS.addAndGet(e.idRowIds.size() - rows);
      } catch (Exception failed) { // the probe falls back to a scan, which reports what is wrong
        MAP_ROWS.addAndGet(-rows);
        e.noIdRowIds = true;
      }
      return Optional.ofNullable(e.idRowIds);
    }
  }

  static BufferAllocator allocator() {
    return ALLOCATOR;
  }

  /** Handles this root caches (for the bound's test). */
  int cached() {
    synchronized (budget.lru) {
      return entries.size();
    }
  }

  /** Leases the handle of exactly {@code at}, opening it on first use. Release with {@link #release}. */
  Entry lease(LanceRoot lance, StorageConfig config, TableAt at) {
    synchronized (budget.lru) {
      Entry e = entries.get(at);
      if (e != null) {
        e.leases++;
        touch(e);
        return e;
      }
    }
    Entry opened = open(lance, config, at);
    synchronized (budget.lru) {
      Entry raced = entries.get(at);
      if (raced != null) {
        raced.leases++;
        touch(raced);
        opened.closeNow();
        return raced;
      }
      opened.leases = 1;
      put(at, opened);
      return opened;
    }
  }

  /**
   * Caches {@code committed}, a handle Lance returned for a commit the caller confirmed landed at
   * exactly {@code at}; closes it instead when that version is already cached.
   */
  void adopt(TableAt at, Dataset main, Dataset committed) {
    synchronized (budget.lru) {
      if (entries.containsKey(at)) {
        committed.close();
        return;
      }
      put(at, new Entry(main, committed));
    }
  }

  /**
   * Forgets every handle of the dataset branch {@code ref}: called when that Lance branch is created
   * or deleted, because a deleted and re-created branch reuses its name and version numbers for
   * other contents, and a handle is keyed by name and version, not by branch identity.
   */
  void forgetBranch(TableRef ref) {
    bump(ref.nativeBranch());
    forgetIf(at -> at.ref().equals(ref));
  }

  /**
   * Forgets every handle of the dataset branch named {@code nativeBranch} in every table of the root:
   * called when a read finds that the graph branch of that name is not the one this process saw
   * before (deleted and created again, by this process or another: {@link LanceRoot#noteIncarnation}).
   */
  void forgetNativeBranch(String nativeBranch) {
    Optional<String> name = Optional.of(nativeBranch);
    bump(name);
    forgetIf(at -> at.ref().nativeBranch().equals(name));
  }

  /**
   * Per dataset branch name (empty: main), how many times its handles were forgotten, plus how many
   * times all were: what a cache derived from a version's contents ({@code read.AdjacencyCache}) puts
   * in its key, so that nothing it built before a forget is found after it. Bumped before the handles
   * go, so a build racing the forget lands under a key no later lookup asks for.
   */
  private final java.util.concurrent.ConcurrentHashMap<Optional<String>, java.util.concurrent.atomic.AtomicLong> generations =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong allForgotten = new java.util.concurrent.atomic.AtomicLong();

  private void bump(Optional<String> nativeBranch) {
    generations.computeIfAbsent(nativeBranch, k -> new java.util.concurrent.atomic.AtomicLong()).incrementAndGet();
  }

  /** The forget generation of {@code ref}'s dataset branch (see {@link #generations}); it only grows. */
  long generation(TableRef ref) {
    java.util.concurrent.atomic.AtomicLong g = generations.get(ref.nativeBranch());
    return allForgotten.get() + (g == null ? 0 : g.get());
  }

  /**
   * Forgets every handle of the dataset branch {@code ref} at a version below {@code beforeVersion}:
   * called after a cleanup removed such versions, so that this process stops reading what a fresh
   * open can no longer read (a kept, tagged version only reopens).
   */
  void forgetBefore(TableRef ref, long beforeVersion) {
    bump(ref.nativeBranch());
    forgetIf(at -> at.ref().equals(ref) && at.version() < beforeVersion);
  }

  /**
   * Forgets every handle of the root: called after a relocation rewrote the locations the root's
   * branch manifests record, which a handle opened before still reads, and when the root is let go.
   */
  void forgetAll() {
    allForgotten.incrementAndGet();
    forgetIf(at -> true);
  }

  private void forgetIf(Predicate<TableAt> matches) {
    synchronized (budget.lru) {
      List<Entry> matched = entries.values().stream().filter(e -> matches.test(e.at)).toList();
      matched.forEach(PinnedHandles::evict);
    }
    // Cached columns are keyed as handles are, so they are stale in exactly the same cases.
    columns.forgetIf(matches);
  }

  static void release(Entry e) {
    synchronized (e.owner.budget.lru) {
      e.leases--;
      if (e.leases == 0 && e.evicted) {
        e.closeNow();
      }
    }
  }

  /** Moves {@code e} to the most recently used end. Caller holds the budget's queue. */
  private void touch(Entry e) {
    budget.lru.remove(e);
    budget.lru.add(e);
  }

  /** Caches {@code e}, then evicts past the root's and the process's bound. Caller holds the lock. */
  private void put(TableAt at, Entry e) {
    e.owner = this;
    e.at = at;
    entries.put(at, e);
    budget.lru.add(e);
    if (entries.size() > MAX_HANDLES) {
      budget.lru.stream().filter(c -> c.owner == this).limit(entries.size() - MAX_HANDLES).toList()
          .forEach(PinnedHandles::evict);
    }
    while (budget.lru.size() > budget.max) {
      evict(budget.lru.iterator().next());
    }
  }

  /** Uncaches {@code e}; closes it now unless leased. Caller holds the budget's queue. */
  private static void evict(Entry e) {
    e.owner.budget.lru.remove(e);
    e.owner.entries.remove(e.at);
    e.evicted = true;
    if (e.leases == 0) {
      e.closeNow();
    }
  }

  private static Entry open(LanceRoot lance, StorageConfig config, TableAt at) {
    Dataset main = null;
    try {
      if (at.nativeBranch().isEmpty()) {
        main = LanceSupport.open(lance, config, at.location(), OptionalLong.of(at.version()), ALLOCATOR);
        return new Entry(main, main);
      }
      main = LanceSupport.open(lance, config, at.location(), OptionalLong.empty(), ALLOCATOR);
      return new Entry(main, main.checkout(LanceSupport.ref(at.nativeBranch(), OptionalLong.of(at.version()))));
    } catch (RuntimeException e) {
      if (main != null) {
        main.close();
      }
      throw e;
    }
  }
}
