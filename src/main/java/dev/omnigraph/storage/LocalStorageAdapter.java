package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link StorageAdapter} over a local directory. Writes are staged in a sibling {@code name#<digits>}
 * file, forced to disk, then renamed (overwrite) or hard-linked (create-if-absent) into place, so a
 * reader never sees a partial object and a crash leaves at most temp residue that listings ignore.
 */
final class LocalStorageAdapter implements StorageAdapter {

  private final Path root;
  private final String rootUri;

  LocalStorageAdapter(StorageConfig config) {
    this.root = config.localRoot();
    this.rootUri = config.rootUri();
  }

  @Override
  public String rootUri() {
    return rootUri;
  }

  @Override
  public void put(String key, byte[] data) {
    Path target = resolve("put", key);
    Path temp = null;
    try {
      temp = stage("put", key, target, data);
      Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      temp = null;
    } catch (IOException e) {
      throw classify("put", key, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public String putIfAbsent(String key, byte[] data) {
    Path target = resolve("putIfAbsent", key);
    Path temp = null;
    try {
      temp = stage("putIfAbsent", key, target, data);
      // link(2) fails with EEXIST when the name exists, atomically: exactly one creator wins, and the
      // winner's content is complete before the name becomes visible.
      Files.createLink(target, temp);
      return token(data);
    } catch (FileAlreadyExistsException e) {
      throw new StorageException(Kind.PRECONDITION, "putIfAbsent", key, "object already exists", e);
    } catch (IOException e) {
      throw classify("putIfAbsent", key, e);
    } finally {
      deleteQuietly(temp);
    }
  }

  @Override
  public byte[] read(String key) {
    Path target = resolve("read", key);
    try {
      return Files.readAllBytes(target);
    } catch (IOException e) {
      throw classifyRead("read", key, target, e);
    }
  }

  @Override
  public Optional<String> readTextIfExists(String key) {
    // Decoded like readText (malformed bytes replaced), so both backends and both reads agree.
    return readIfExists("readTextIfExists", key).map(b -> new String(b, StandardCharsets.UTF_8));
  }

  /** One read; empty only for the object's typed absence (a prefix or a path through an object too). */
  private Optional<byte[]> readIfExists(String operation, String key) {
    Path target = resolve(operation, key);
    try {
      return Optional.of(Files.readAllBytes(target));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      StorageException failure = classifyRead(operation, key, target, e);
      if (failure.isNotFound()) {
        return Optional.empty();
      }
      throw failure;
    }
  }

  @Override
  public Optional<Versioned> readVersionedIfExists(String key) {
    // One open of one inode: every write replaces the file by rename, so these bytes are one version.
    return readIfExists("readVersioned", key).map(data -> new Versioned(data, token(data)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Under the key's exclusive lock ({@link #withKeyLock}): read the current content, compare its
   * token, stage the new content in a {@code key#<digits>} temp file forced to disk, rename it over
   * the key. The lock makes check-then-rename one step for every conditional operation of every
   * process on this host (and of any host sharing the directory through a file system whose
   * {@code fcntl} locks are honoured); a crash inside it leaves at most the temp file, invisible residue,
   * and the kernel drops the lock with the process.
   */
  @Override
  public String putIfMatch(String key, byte[] data, String versionToken) {
    Path target = resolve("putIfMatch", key);
    java.util.Objects.requireNonNull(versionToken, "versionToken");
    withKeyLock("putIfMatch", key, target, () -> {
      checkToken("putIfMatch", key, target, versionToken);
      Path temp = null;
      try {
        temp = stage("putIfMatch", key, target, data);
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        temp = null;
      } finally {
        deleteQuietly(temp);
      }
    });
    return token(data);
  }

  /** {@inheritDoc} Under the key's lock, as {@link #putIfMatch}. */
  @Override
  public void deleteIfMatch(String key, String versionToken) {
    Path target = resolve("deleteIfMatch", key);
    java.util.Objects.requireNonNull(versionToken, "versionToken");
    withKeyLock("deleteIfMatch", key, target, () -> {
      checkToken("deleteIfMatch", key, target, versionToken);
      Files.delete(target);
      // The lock file stays beside it (see withKeyLock), so the directory is not pruned here.
    });
  }

  /** Throws PRECONDITION unless the object at {@code target} exists and has {@code versionToken}. */
  private void checkToken(String operation, String key, Path target, String versionToken) throws IOException {
    byte[] current;
    try {
      current = Files.readAllBytes(target);
    } catch (IOException e) {
      if (classifyRead(operation, key, target, e).isNotFound()) {
        throw new StorageException(Kind.PRECONDITION, operation, key, "no object (the token names nothing)", e);
      }
      throw e;
    }
    if (!token(current).equals(versionToken)) {
      throw new StorageException(Kind.PRECONDITION, operation, key, "the object has another version");
    }
  }

  /** The local version token: a digest of the content, so it is exact and survives a restart. */
  static String token(byte[] data) {
    try {
      return "sha256:" + java.util.HexFormat.of().formatHex(
          java.security.MessageDigest.getInstance("SHA-256").digest(data));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** A step that runs under a key's lock. */
  private interface Locked {
    void run() throws IOException;
  }

  /**
   * In-process stripes in front of the file lock: {@code FileChannel.lock} excludes other processes
   * but throws {@code OverlappingFileLockException} for a second channel of the same JVM, so threads
   * of one JVM queue here first and at most one of them holds a key's file lock at a time.
   */
  private static final java.util.concurrent.locks.ReentrantLock[] KEY_STRIPES =
      new java.util.concurrent.locks.ReentrantLock[64];

  static {
    for (int i = 0; i < KEY_STRIPES.length; i++) {
      KEY_STRIPES[i] = new java.util.concurrent.locks.ReentrantLock();
    }
  }

  /**
   * Runs {@code step} holding the key's exclusive lock: an in-process stripe, then an exclusive
   * {@code fcntl} lock on the sibling {@code key#0}. The lock file is temp-shaped, so listings and
   * {@code exists} never see it and no key can address it; it is never deleted by these operations,
   * because unlinking a lock file another process is waiting on would let a third lock a new inode
   * beside it. Only {@link #deletePrefix} (destroying the whole prefix) reclaims it. When the key's
   * directory does not exist the object cannot either: PRECONDITION, with nothing created.
   */
  private void withKeyLock(String operation, String key, Path target, Locked step) {
    java.util.concurrent.locks.ReentrantLock stripe =
        KEY_STRIPES[Math.floorMod(target.toAbsolutePath().normalize().hashCode(), KEY_STRIPES.length)];
    Path lockFile = target.resolveSibling(target.getFileName() + "#0");
    stripe.lock();
    try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        java.nio.channels.FileLock ignored = ch.lock()) {
      step.run();
    } catch (StorageException e) {
      throw e;
    } catch (NoSuchFileException | NotDirectoryException e) {
      if (e.getFile() != null && Path.of(e.getFile()).equals(lockFile)) {
        throw new StorageException(Kind.PRECONDITION, operation, key, "no object (the token names nothing)", e);
      }
      throw classify(operation, key, e);
    } catch (IOException e) {
      if (throughObject(target)) {
        throw new StorageException(Kind.PRECONDITION, operation, key, "no object (a path through an object)", e);
      }
      throw classify(operation, key, e);
    } finally {
      stripe.unlock();
    }
  }

  @Override
  public List<String> list(String prefix) {
    String p = Keys.prefix("list", prefix);
    Path dir = p.isEmpty() ? root : root.resolve(p);
    if (!isDirectory("list", p, dir)) {
      // An object named like the prefix is not under the directory (S3: "a/" never matches "a").
      return List.of();
    }
    List<String> keys = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.forEach(path -> {
        if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
          String key = toKey(path);
          if (Keys.addressable(key)) {
            keys.add(key);
          }
        }
      });
    } catch (NoSuchFileException | NotDirectoryException e) {
      // An absent directory lists as empty (object-store semantics: prefixes are not objects).
      return List.of();
    } catch (java.io.UncheckedIOException e) {
      if (e.getCause() instanceof NoSuchFileException) {
        // A file or directory vanished mid-walk: a concurrent delete; list what remains.
        return list(prefix);
      }
      throw classify("list", p, e.getCause());
    } catch (IOException e) {
      throw classify("list", p, e);
    }
    keys.sort(Comparator.naturalOrder());
    return keys;
  }

  @Override
  public List<Child> children(String prefix) {
    String p = Keys.prefix("children", prefix);
    Path dir = p.isEmpty() ? root : root.resolve(p);
    if (!isDirectory("children", p, dir)) {
      return List.of();
    }
    List<Child> out = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path path : (Iterable<Path>) entries::iterator) {
        if (!Keys.addressable(toKey(path))) {
          continue;
        }
        String name = path.getFileName().toString();
        try {
          java.nio.file.attribute.BasicFileAttributes a =
              Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
          if (a.isDirectory()) {
            out.add(new Child(name, true, Optional.empty()));
          } else if (a.isRegularFile()) {
            out.add(new Child(name, false, Optional.of(a.lastModifiedTime().toInstant())));
          }
        } catch (NoSuchFileException gone) {
          // Deleted since the directory was read: no longer a child.
        }
      }
    } catch (NoSuchFileException | NotDirectoryException e) {
      return List.of();
    } catch (java.io.UncheckedIOException e) {
      throw classify("children", p, e.getCause());
    } catch (IOException e) {
      throw classify("children", p, e);
    }
    out.sort(Comparator.comparing(Child::name));
    return out;
  }

  @Override
  public List<Listed> listDetailed(String prefix) {
    List<Listed> out = new ArrayList<>();
    for (String key : list(prefix)) {
      try {
        out.add(new Listed(key, Files.getLastModifiedTime(root.resolve(key), LinkOption.NOFOLLOW_LINKS).toInstant()));
      } catch (NoSuchFileException gone) {
        // Deleted since the listing: not an object any more.
      } catch (IOException e) {
        throw classify("listDetailed", key, e);
      }
    }
    return out;
  }

  @Override
  public void delete(String key) {
    Path target = resolve("delete", key);
    try {
      Files.deleteIfExists(target);
      pruneEmptyParents(target.getParent());
    } catch (DirectoryNotEmptyException e) {
      // A non-empty directory is a prefix, not an object: there is no object to delete, which
      // succeeds as it does on S3, and the objects under it stay.
    } catch (IOException e) {
      if (throughObject(target)) {
        return; // a path through an object names nothing: absent
      }
      throw classify("delete", key, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    String p = Keys.prefix("deletePrefix", prefix);
    Path dir = p.isEmpty() ? root : root.resolve(p);
    if (!isDirectory("deletePrefix", p, dir)) {
      // Nothing under it; an object named like the prefix is not in the directory and stays.
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      List<Path> paths = walk.sorted(Comparator.reverseOrder()).toList();
      for (Path path : paths) {
        if (!path.equals(root)) {
          Files.deleteIfExists(path);
        }
      }
      if (!p.isEmpty()) {
        pruneEmptyParents(dir.getParent());
      }
    } catch (NoSuchFileException e) {
      // Nothing there: already deleted.
    } catch (IOException e) {
      throw classify("deletePrefix", p, e);
    } catch (java.io.UncheckedIOException e) {
      throw classify("deletePrefix", p, e.getCause());
    }
  }

  @Override
  public boolean exists(String key) {
    Path target = resolve("exists", key);
    try {
      // readAttributes, unlike Files.exists, throws on a permission failure instead of saying false.
      BasicFileAttributes attrs =
          Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (attrs.isRegularFile()) {
        return true;
      }
      return attrs.isDirectory() && !list(key).isEmpty();
    } catch (StorageException e) {
      // Report the caller's operation, not the listing it was answered with.
      throw new StorageException(e.kind(), "exists", key, "listing the directory failed", e);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return false;
    } catch (IOException e) {
      if (throughObject(target)) {
        return false;
      }
      throw classify("exists", key, e);
    }
  }

  @Override
  public void close() {
    // nothing held
  }

  /**
   * True when {@code dir} is a directory, false when it is absent or not a directory. Unlike
   * {@link Files#isDirectory}, a permission failure is thrown, never read as "absent".
   */
  private boolean isDirectory(String operation, String key, Path dir) {
    try {
      return Files.readAttributes(dir, BasicFileAttributes.class).isDirectory();
    } catch (NoSuchFileException | NotDirectoryException e) {
      return false;
    } catch (IOException e) {
      if (throughObject(dir)) {
        return false;
      }
      throw classify(operation, key, e);
    }
  }

  private Path resolve(String operation, String key) {
    return root.resolve(Keys.object(operation, key));
  }

  private String toKey(Path path) {
    return root.relativize(path).toString().replace('\\', '/');
  }

  /** Writes {@code data} to a fresh temp sibling of {@code target}, forced to disk. */
  private Path stage(String operation, String key, Path target, byte[] data) throws IOException {
    Path temp = target.resolveSibling(Keys.tempFor(target.getFileName().toString()));
    // A concurrent delete of the last object under the same prefix prunes the empty directory
    // (pruneEmptyParents) between our createDirectories and the open; on an object store a put
    // never races a delete of another key, so the directory is made again. Once the temp file
    // exists the directory is not empty and cannot be pruned.
    for (int attempt = 1; ; attempt++) {
      try {
        Files.createDirectories(target.getParent());
      } catch (FileAlreadyExistsException e) {
        if (throughObject(target)) {
          // A parent segment is an object: the key cannot name an object (and this is no precondition).
          throw new StorageException(Kind.PERMANENT, operation, key, "a parent of the key is an object", e);
        }
        if (attempt >= MAX_PRUNE_RACES) {
          throw e;
        }
        continue; // the directory was pruned while createDirectories checked it
      }
      try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
          OutputStream out = java.nio.channels.Channels.newOutputStream(ch)) {
        out.write(data);
        out.flush();
        ch.force(true);
        return temp;
      } catch (java.nio.file.NoSuchFileException pruned) {
        if (attempt >= MAX_PRUNE_RACES) {
          throw pruned;
        }
      }
    }
  }

  /** Directory prunes a put tolerates in a row (each needs another writer's delete to land just then). */
  private static final int MAX_PRUNE_RACES = 8;

  /** Removes directories left empty by a delete, up to the root, as an object store has none. */
  private void pruneEmptyParents(Path dir) {
    Path d = dir;
    while (d != null && d.startsWith(root) && !d.equals(root)) {
      try {
        Files.delete(d);
      } catch (IOException notEmptyOrGone) {
        return;
      }
      d = d.getParent();
    }
  }

  private static void deleteQuietly(Path temp) {
    if (temp != null) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // temp residue is invisible to listings and reclaimed by deletePrefix
      }
    }
  }

  /**
   * True when an ancestor of {@code target} below the root is a regular file. Such a path runs
   * through an object, so nothing can be stored at it; the kernel's ENOTDIR reaches Java as a bare
   * {@code FileSystemException} (or a plain {@code IOException}), so the tree is re-read for the
   * evidence instead of the message.
   */
  private boolean throughObject(Path target) {
    for (Path p = target.getParent(); p != null && p.startsWith(root) && !p.equals(root);
        p = p.getParent()) {
      if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A directory is a prefix, not an object, and a path through an object names nothing: reading
   * either is NOT_FOUND, as on an object store. Reading a directory fails with a plain
   * {@code IOException} (EISDIR), so the target's type, not the exception's, is the evidence.
   */
  private StorageException classifyRead(String operation, String key, Path target, IOException e) {
    if (e instanceof NotDirectoryException
        || Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)
        || throughObject(target)) {
      return new StorageException(Kind.NOT_FOUND, operation, key, "no object (a prefix or a path through an object)", e);
    }
    return classify(operation, key, e);
  }

  /** Maps a {@code java.nio.file} failure to a kind by its type alone. */
  static StorageException classify(String operation, String key, IOException e) {
    Kind kind;
    if (e instanceof NoSuchFileException) {
      kind = Kind.NOT_FOUND;
    } else if (e instanceof FileAlreadyExistsException) {
      kind = Kind.PRECONDITION;
    } else if (e instanceof AccessDeniedException) {
      kind = Kind.CONFIGURATION;
    } else if (e instanceof NotDirectoryException
        || e instanceof DirectoryNotEmptyException
        || e instanceof FileSystemLoopException) {
      kind = Kind.PERMANENT;
    } else if (e instanceof FileSystemException) {
      // Other errno-backed failures (read-only fs, no space, too many open files) carry no finer type.
      kind = Kind.UNKNOWN;
    } else {
      kind = Kind.UNKNOWN;
    }
    return new StorageException(kind, operation, key, e.getClass().getSimpleName(), e);
  }
}
