package dev.omnigraph.table;

import dev.omnigraph.storage.StorageConfig;
import java.util.concurrent.ConcurrentHashMap;
import org.lance.Session;

/**
 * One Lance {@link Session} per graph root per process, shared by every dataset open under that
 * root. Lance keys its metadata cache (manifests, file footers, deletion vectors) and its index
 * cache by immutable object path and version, so sharing is safe (one exception: a fragment's
 * stable row-id sequence is keyed by fragment id alone, which is why our Overwrites never reuse an
 * id, see {@code DataTables.pastUsedIds}; a Restore keeps Lance's highest-id counter): a reopened version is
 * served from memory instead of object storage, and only "which version is latest" is asked again.
 * Without it every open re-reads the same manifest and every scan re-reads every deletion file,
 * which made a write's request count grow with history (issue 11).
 */
final class LanceSessions {

  /** Bounds per root: the manifest chain and deletion vectors of a graph fit comfortably. */
  static final long METADATA_CACHE_BYTES = 64L << 20;
  static final long INDEX_CACHE_BYTES = 256L << 20;

  private static final ConcurrentHashMap<String, Session> SESSIONS = new ConcurrentHashMap<>();

  private LanceSessions() {}

  /** The session of {@code config}'s root, created on first use and kept for the process. */
  static Session of(StorageConfig config) {
    return SESSIONS.computeIfAbsent(config.rootUri(), root -> Session.builder()
        .metadataCacheSizeBytes(METADATA_CACHE_BYTES)
        .indexCacheSizeBytes(INDEX_CACHE_BYTES)
        .build());
  }

  /**
   * Drops the session of {@code config}'s root: its cached manifests record the locations a
   * relocation just rewrote. Handles still open keep their own reference to it (nothing is closed
   * under them); the next open starts a fresh session.
   */
  static void forget(StorageConfig config) {
    SESSIONS.remove(config.rootUri());
  }
}
