package dev.omnigraph.table;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.lance.Session;

/**
 * What the table layer of this process keeps per graph root: the Lance {@link Session} every dataset
 * open under the root shares, the open handles of exact table versions ({@link PinnedHandles}), and
 * what it learned about the root's table branches. One instance per
 * open graph root, owned by the engine's root registry ({@code engine.GraphRoots}) and handed to every
 * component of the root through its constructor.
 *
 * <p>Lance keys its metadata cache (manifests, file footers, deletion vectors) and its index cache by
 * immutable object path and version, so sharing the session is safe (one exception: a fragment's
 * stable row-id sequence is keyed by fragment id alone, which is why our Overwrites never reuse an
 * id, see {@code DataTables.pastUsedIds}; a Restore keeps Lance's highest-id counter): a reopened
 * version is served from memory instead of object storage, and only "which version is latest" is
 * asked again. Without it every open re-reads the same manifest and every scan re-reads every
 * deletion file, which made a write's request count grow with history (docs/storage.md).
 */
public final class LanceRoot {

  /** Bounds per root: the manifest chain and deletion vectors of a graph fit comfortably. */
  static final long METADATA_CACHE_BYTES = 64L << 20;
  static final long INDEX_CACHE_BYTES = 256L << 20;

  private final String rootUri;
  private volatile Session session;

  /** Open handles of exact table versions under this root (bounded per root and per process). */
  final PinnedHandles handles;

  /** Columns of exact table versions held for reads; forgotten with the versions' handles. */
  final ColumnCache columns;

  /**
   * Per table branch ({@code DataTables.forkKey}), whether it was forked from another branch rather
   * than from main (see {@code DataTables.forkedFromABranch}).
   */
  final ConcurrentHashMap<String, Boolean> forkedFromABranch = new ConcurrentHashMap<>();

  /** The table layer's part of the canonical graph root {@code rootUri}. */
  public LanceRoot(String rootUri) {
    this(rootUri, PinnedHandles.Budget.PROCESS);
  }

  /** A root whose handle cache counts against {@code budget} instead of the process's (tests). */
  LanceRoot(String rootUri, PinnedHandles.Budget budget) {
    this(rootUri, budget, ColumnCache.Budget.PROCESS);
  }

  /** A root whose caches count against the given budgets instead of the process's (tests). */
  LanceRoot(String rootUri, PinnedHandles.Budget budget, ColumnCache.Budget columnBudget) {
    this.rootUri = Objects.requireNonNull(rootUri, "rootUri");
    this.columns = new ColumnCache(columnBudget);
    this.handles = new PinnedHandles(budget, columns);
  }

  /**
   * Sets the bytes the process's column cache may hold ({@code omnigraph.read.column-cache-bytes},
   * docs/performance.md "The column cache"), evicting down to it now; 0 turns it off.
   *
   * @throws IllegalArgumentException for a negative value
   */
  public static void columnCacheBytes(long bytes) {
    ColumnCache.Budget.PROCESS.max(bytes);
  }

  /** The bytes the process's column cache may hold now. */
  public static long columnCacheBytes() {
    return ColumnCache.Budget.PROCESS.max();
  }

  /** Per graph branch, the Lance identity of the manifest branch this process last saw under its name. */
  private final ConcurrentHashMap<String, String> incarnations = new ConcurrentHashMap<>();

  /**
   * Notes that the graph branch {@code branch} is now the manifest branch {@code identity}. When this
   * process saw another identity under the name before, the branch was deleted and created again,
   * here or by another process (a read replica hears of no delete): its tables' dataset branches
   * carry the same name and reuse version numbers for other contents, so every handle and every
   * cache entry of those dataset branches is forgotten (docs/maintenance.md, "Branch names, deleted and used again").
   */
  public void noteIncarnation(String branch, String identity) {
    String before = incarnations.put(branch, identity);
    if (before != null && !before.equals(identity)) {
      handles.forgetNativeBranch(branch);
    }
  }

  /** The canonical root this part belongs to. */
  public String rootUri() {
    return rootUri;
  }

  /** The session of the root, created on first use. */
  Session session() {
    Session s = session;
    if (s == null) {
      synchronized (this) {
        s = session;
        if (s == null) {
          s = Session.builder().metadataCacheSizeBytes(METADATA_CACHE_BYTES)
              .indexCacheSizeBytes(INDEX_CACHE_BYTES).build();
          session = s;
        }
      }
    }
    return s;
  }

  /**
   * Drops the session: its cached manifests record the locations a relocation just rewrote. Handles
   * still open keep their own reference to it (nothing is closed under them); the next open starts a
   * fresh session.
   */
  void forgetSession() {
    synchronized (this) {
      session = null;
    }
  }

  /**
   * Closes the root's cached table handles (one still leased closes when its lease ends): called
   * when no handle of the root remains open, so a closed root holds no share of the process's bound.
   */
  public void release() {
    handles.forgetAll();
  }
}
