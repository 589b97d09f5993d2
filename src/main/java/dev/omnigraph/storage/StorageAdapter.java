package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Object-store operations over one graph root (a local directory or {@code s3://bucket/prefix}).
 *
 * <p>Keys are relative to the root, {@code /}-separated, with no empty, {@code .} or {@code ..}
 * segment, no backslash, and no segment of the temp shape {@code name#<digits>}: the local backend
 * stages writes through such names, filters them from listings and refuses to address them, so
 * crash residue is invisible to every consumer (docs/storage.md, "The temp-name rule").
 *
 * <p>Every failure is a {@link StorageException} whose {@link StorageException.Kind} was classified
 * from typed evidence (an SDK exception type or HTTP status, a {@code java.nio.file} exception type),
 * never from message text. Implementations are thread-safe.
 */
public interface StorageAdapter extends AutoCloseable {

  /** The canonical root URI this adapter addresses ({@code file:///abs/dir} or {@code s3://bucket/prefix}). */
  String rootUri();

  /**
   * Writes {@code data} at {@code key}, replacing any existing object. Readers see either the old or
   * the new content in full, never a partial object.
   *
   * @throws StorageException on any failure; nothing is known to have been replaced unless it returns
   */
  void put(String key, byte[] data);

  /**
   * Creates {@code key} with {@code data} only if no object exists there: exactly one of any number of
   * concurrent callers succeeds. On S3 this is {@code PutObject} with {@code If-None-Match: *}; locally
   * a fully written temp file is hard-linked into place, which never replaces.
   *
   * <p>No transparent retry runs after the request was sent: a retried conditional put could report a
   * precondition failure for a write that in fact landed. A transport failure is therefore an
   * {@link StorageException.Kind#TRANSIENT} or {@link StorageException.Kind#UNKNOWN} outcome the caller
   * settles by reading the key.
   *
   * @return the version token of the object written (as {@link #readVersioned} would return it), so a
   *     creator can go on with {@link #putIfMatch} without reading its own object back
   * @throws StorageException of kind {@link StorageException.Kind#PRECONDITION} when the key exists
   */
  String putIfAbsent(String key, byte[] data);

  /**
   * Reads the whole object and its version token with one request ({@link Versioned}); on S3 one
   * {@code GetObject} whose body and ETag belong together.
   *
   * @throws StorageException of kind {@link StorageException.Kind#NOT_FOUND} when there is no object
   */
  default Versioned readVersioned(String key) {
    return readVersionedIfExists(key).orElseThrow(
        () -> new StorageException(StorageException.Kind.NOT_FOUND, "readVersioned", key, "no object"));
  }

  /**
   * As {@link #readVersioned}, but empty when the backend reports its typed not-found for the object
   * (the same rule as {@link #readTextIfExists}); any other failure is thrown.
   */
  Optional<Versioned> readVersionedIfExists(String key);

  /**
   * Replaces the object at {@code key} with {@code data} only if it still has {@code versionToken}
   * (from {@link #readVersioned}): a compare-and-swap on one object. Of any number of concurrent
   * callers holding the same token exactly one succeeds; the others get
   * {@link StorageException.Kind#PRECONDITION} and the object is the winner's. On S3 this is
   * {@code PutObject} with {@code If-Match: <ETag>}; locally the check and an atomic rename run under
   * an exclusive lock on the key (see {@code docs/storage.md} for what each store honours).
   *
   * <p>The swap is exact against the other conditional operations ({@link #putIfAbsent},
   * {@link #putIfMatch}, {@link #deleteIfMatch}) on the same key. Do not mix unconditional
   * {@link #put}/{@link #delete} into a key managed this way: locally they do not take the key's lock,
   * so one landing between the check and the rename would be overwritten.
   *
   * <p>As with {@link #putIfAbsent}, no transparent retry runs after the request was sent (a retried
   * swap that had landed would meet its own new version and report a loss). A transport failure is
   * {@link StorageException.Kind#TRANSIENT} or {@link StorageException.Kind#UNKNOWN}: the caller settles
   * it by reading the object again and comparing the content with what it wrote.
   *
   * @return the version token of the object written, for the next swap
   * @throws StorageException of kind {@link StorageException.Kind#PRECONDITION} when the object has
   *     another token or does not exist; nothing was written
   */
  String putIfMatch(String key, byte[] data, String versionToken);

  /**
   * Deletes the object at {@code key} only if it still has {@code versionToken}; the conditional
   * counterpart of {@link #delete}, with the same exactness and no-retry rules as
   * {@link #putIfMatch}. On S3 {@code DeleteObject} with {@code If-Match: <ETag>}.
   *
   * @throws StorageException of kind {@link StorageException.Kind#PRECONDITION} when the object has
   *     another token or does not exist; nothing was deleted
   */
  void deleteIfMatch(String key, String versionToken);

  /**
   * Reads the whole object.
   *
   * @throws StorageException of kind {@link StorageException.Kind#NOT_FOUND} when there is no object
   */
  byte[] read(String key);

  /** Reads the whole object as UTF-8 text; see {@link #read(String)}. */
  default String readText(String key) {
    return new String(read(key), StandardCharsets.UTF_8);
  }

  /**
   * Reads the object with exactly one request; empty only when the backend reports its typed
   * not-found for the object. Any other failure (permission, missing bucket, transport) is thrown.
   * Use it, never {@code exists} followed by {@code readText}, for an object that may vanish between
   * discovery and read.
   */
  Optional<String> readTextIfExists(String key);

  /**
   * Lists every object at any depth under the directory {@code prefix} (a key; the empty string is
   * the root), as full keys in lexicographic order. Temp-shaped names are never returned.
   * The prefix is a directory: {@code list("a")} never returns {@code ab/x}, nor an object named
   * exactly {@code a}.
   */
  List<String> list(String prefix);

  /**
   * One entry directly under a directory.
   *
   * @param name its last segment
   * @param directory whether it is a directory (an S3 common prefix) rather than an object
   * @param lastModified when the object was last written; empty for a directory
   */
  record Child(String name, boolean directory, Optional<java.time.Instant> lastModified) {}

  /** An object and when it was last written (the store's clock on S3, the file's mtime locally). */
  record Listed(String key, java.time.Instant lastModified) {}

  /**
   * The entries directly under the directory {@code prefix} (the empty string is the root), sorted
   * by name: a delimiter listing on S3 (one request per page), one directory read locally, so a
   * caller can walk a layout without listing every object under it. Entries whose key is not
   * addressable (temp-shaped residue, S3 folder markers) are skipped. A local directory that holds
   * no object is still listed (S3 has no such directory): a caller that needs to know whether a
   * directory has content asks {@link #listDetailed}. An absent prefix is an empty list.
   */
  List<Child> children(String prefix);

  /**
   * As {@link #list}, with each object's last-modified time (what maintenance's grace rules need to
   * tell residue from an object an in-flight write is creating).
   */
  List<Listed> listDetailed(String prefix);

  /**
   * Deletes the object at {@code key}; deleting an absent key succeeds (object-store semantics),
   * and so does deleting a name that is only a directory, which leaves the objects under it.
   */
  void delete(String key);

  /**
   * Deletes every object under the directory {@code prefix}, temp residue included; an object named
   * exactly {@code prefix} is not under it and stays. Not atomic: a failure may leave part of the
   * prefix behind, and a repeat finishes the job.
   */
  void deletePrefix(String prefix);

  /**
   * True when an object exists at {@code key} or at least one object exists under {@code key/}.
   * A permission or transport failure is thrown, never answered with {@code false}.
   */
  boolean exists(String key);

  /** Writes UTF-8 text; see {@link #put(String, byte[])}. */
  default void putText(String key, String text) {
    put(key, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Creates UTF-8 text if absent; see {@link #putIfAbsent(String, byte[])}. */
  default void putTextIfAbsent(String key, String text) {
    putIfAbsent(key, text.getBytes(StandardCharsets.UTF_8));
  }

  /** Releases clients and connections. */
  @Override
  void close();
}
