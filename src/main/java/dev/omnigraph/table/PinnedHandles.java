package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;

/**
 * Open Lance handles of exact table versions, shared in this process. A version of a dataset never
 * changes, so a handle opened at (root, table, branch, version) can serve every later read, stage
 * and commit planned against that version: a write then opens its pinned version once instead of
 * once per step, and the next write finds the version this one committed already open (docs/write-path.md, "what a write costs":
 * each open is two object-store requests). "Which version is latest" is never answered from here.
 *
 * <p>Bounded: the least recently used idle handles are closed past {@link #MAX_HANDLES}; a handle in
 * use is closed when its last lease ends. All handles share one allocator, which is never closed
 * (scans allocate from it and free what they allocate).
 */
final class PinnedHandles {

  static final int MAX_HANDLES = 64;

  private static final BufferAllocator ALLOCATOR = new RootAllocator();
  private static final LinkedHashMap<String, Entry> ENTRIES = new LinkedHashMap<>(16, 0.75f, true);

  private PinnedHandles() {}

  /** One cached handle: the dataset's main handle and the checked-out branch version. */
  static final class Entry {
    final Dataset main;
    final Dataset table;
    int leases;
    boolean evicted;

    Entry(Dataset main, Dataset table) {
      this.main = main;
      this.table = table;
    }

    private void closeNow() {
      try {
        if (table != main) {
          table.close();
        }
      } finally {
        main.close();
      }
    }
  }

  static BufferAllocator allocator() {
    return ALLOCATOR;
  }

  private static String key(StorageConfig config, String location, Optional<String> branch, long version) {
    return config.rootUri() + "|" + location + "|" + branch.orElse("") + "|" + version;
  }

  /** Leases the handle of exactly {@code version}, opening it on first use. Release with {@link #release}. */
  static Entry lease(LanceRoot lance, StorageConfig config, String location, Optional<String> branch, long version) {
    String key = key(config, location, branch, version);
    synchronized (ENTRIES) {
      Entry e = ENTRIES.get(key);
      if (e != null) {
        e.leases++;
        return e;
      }
    }
    Entry opened = open(lance, config, location, branch, version);
    synchronized (ENTRIES) {
      Entry raced = ENTRIES.get(key);
      if (raced != null) {
        raced.leases++;
        opened.closeNow();
        return raced;
      }
      opened.leases = 1;
      ENTRIES.put(key, opened);
      evictIdle();
      return opened;
    }
  }

  /**
   * Caches {@code committed}, a handle Lance returned for a commit the caller confirmed landed at
   * exactly {@code version}; closes it instead when that version is already cached.
   */
  static void adopt(StorageConfig config, String location, Optional<String> branch, long version, Dataset main,
      Dataset committed) {
    String key = key(config, location, branch, version);
    synchronized (ENTRIES) {
      if (ENTRIES.containsKey(key)) {
        committed.close();
        return;
      }
      ENTRIES.put(key, new Entry(main, committed));
      evictIdle();
    }
  }

  /**
   * Forgets every handle of {@code branch} of the table: called when that Lance branch is created
   * or deleted, because a deleted and re-created branch reuses its name and version numbers for
   * other contents, and a handle is keyed by name and version, not by branch identity.
   */
  static void forgetBranch(StorageConfig config, String location, String branch) {
    forgetIf(config.rootUri() + "|" + location + "|" + branch + "|", version -> true);
  }

  /**
   * Forgets every handle of {@code branch} of the table (empty: its main) at a version below
   * {@code beforeVersion}: called after a cleanup removed such versions, so that this process stops
   * reading what a fresh open can no longer read (a kept, tagged version only reopens).
   */
  static void forgetBefore(StorageConfig config, String location, Optional<String> branch, long beforeVersion) {
    forgetIf(config.rootUri() + "|" + location + "|" + branch.orElse("") + "|", version -> version < beforeVersion);
  }

  /**
   * Forgets every handle under {@code config}'s root: called after a relocation rewrote the
   * locations the root's branch manifests record, which a handle opened before still reads.
   */
  static void forgetRoot(StorageConfig config) {
    forgetIf(config.rootUri() + "|", version -> true, true);
  }

  /** Forgets the handles whose key starts with {@code prefix} and whose version {@code matches}. */
  private static void forgetIf(String prefix, java.util.function.LongPredicate matches) {
    forgetIf(prefix, matches, false);
  }

  private static void forgetIf(String prefix, java.util.function.LongPredicate matches, boolean anyTable) {
    synchronized (ENTRIES) {
      Iterator<Map.Entry<String, Entry>> it = ENTRIES.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Entry> e = it.next();
        String key = e.getKey();
        if (key.startsWith(prefix)
            && (anyTable || matches.test(Long.parseLong(key.substring(prefix.length()))))) {
          it.remove();
          e.getValue().evicted = true;
          if (e.getValue().leases == 0) {
            e.getValue().closeNow();
          }
        }
      }
    }
  }

  static void release(Entry e) {
    synchronized (ENTRIES) {
      e.leases--;
      if (e.leases == 0 && e.evicted) {
        e.closeNow();
      }
    }
  }

  private static void evictIdle() {
    Iterator<Map.Entry<String, Entry>> it = ENTRIES.entrySet().iterator();
    while (ENTRIES.size() > MAX_HANDLES && it.hasNext()) {
      Entry e = it.next().getValue();
      it.remove();
      e.evicted = true;
      if (e.leases == 0) {
        e.closeNow();
      }
    }
  }

  private static Entry open(LanceRoot lance, StorageConfig config, String location, Optional<String> branch,
      long version) {
    Dataset main = null;
    try {
      if (branch.isEmpty()) {
        main = LanceSupport.open(lance, config, location, OptionalLong.of(version), ALLOCATOR);
        return new Entry(main, main);
      }
      main = LanceSupport.open(lance, config, location, OptionalLong.empty(), ALLOCATOR);
      return new Entry(main, main.checkout(LanceSupport.ref(branch, OptionalLong.of(version))));
    } catch (RuntimeException e) {
      if (main != null) {
        main.close();
      }
      throw e;
    }
  }
}
