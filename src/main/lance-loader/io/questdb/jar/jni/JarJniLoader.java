package io.questdb.jar.jni;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.ZipEntry;

/**
 * OmniGraph's replacement for jar-jni 1.1.1's loader, written over the original's entry in the
 * packaged jar after Quarkus built it (pom.xml, {@code lance-loader}). It is compiled apart from
 * the application's classes: under {@code @QuarkusTest} Lance's classes load in a parent class
 * loader that cannot see those, and a same-named application class hid jar-jni's. Lance calls it
 * from {@code org.lance.JniLoader}'s static initializer (lance-core 7.0.0). The original
 * inflates the ~180 MB Lance library from the jar into {@code java.io.tmpdir} on every JVM start:
 * about 1.4 s of every CLI call that touches a table (issue 45).
 *
 * <p>This one extracts it once into a per-user cache, {@code $OMNIGRAPH_NATIVE_CACHE} or
 * {@code ${XDG_CACHE_HOME:-~/.cache}/omnigraph/native}, under a directory named by the jar entry's
 * CRC-32 and size (read from the jar's central directory, without inflating anything), checks the
 * CRC while extracting, and moves the file into place atomically, so concurrent first runs and a
 * newer jar never meet a partial or a stale library. Later runs {@code System.load} the cached file
 * when its size matches. Where the cache cannot be written (a read-only home in a container) it does
 * what the original did. {@code -Domnigraph.test.native.dir=<dir>} loads the copy Maven unpacked
 * for the tests. The library is still loaded by {@code System.load} from a class of the application
 * class loader, so JNI binds it as before.
 */
public interface JarJniLoader {

  /** The directory Maven unpacked lance-core's {@code nativelib/} into (the tests). */
  String NATIVE_DIR_PROPERTY = "omnigraph.test.native.dir";

  /** As jar-jni 1.1.1: loads {@code <jarPathPrefix>/<platformDir>/<lib name>} for {@code cls}. */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name, String platformDir) {
    String sep = jarPathPrefix.endsWith("/") ? "" : "/";
    String resource = jarPathPrefix + sep + (platformDir == null ? "" : platformDir + "/")
        + PlatformConventions.LIB_PREFIX + name + PlatformConventions.LIB_SUFFIX;
    String dir = System.getProperty(NATIVE_DIR_PROPERTY);
    if (dir != null && !dir.isBlank()) {
      Path unpacked = Path.of(dir, resource.startsWith("/") ? resource.substring(1) : resource);
      if (Files.isRegularFile(unpacked)) {
        System.load(unpacked.toAbsolutePath().toString());
        return;
      }
    }
    URL url = cls.getResource(resource);
    if (url == null) {
      throw new LoadException("Internal error: cannot find " + resource + ", broken package?");
    }
    String file = resource.substring(resource.lastIndexOf('/') + 1);
    Path cached = NativeCache.cached(url, file);
    if (cached != null) {
      System.load(cached.toString());
      return;
    }
    // The original behaviour: a fresh copy in the temp directory, deleted at exit.
    try (InputStream in = url.openStream()) {
      int dot = file.indexOf('.');
      File tmp = File.createTempFile(file.substring(0, dot), file.substring(dot));
      try (OutputStream out = new FileOutputStream(tmp)) {
        in.transferTo(out);
      } finally {
        tmp.deleteOnExit();
      }
      System.load(tmp.getAbsolutePath());
    } catch (IOException e) {
      throw new LoadException("Internal error: cannot unpack " + e, e);
    }
  }

  /** As jar-jni 1.1.1: for the running platform. */
  static <T> void loadLib(Class<T> cls, String jarPathPrefix, String name) {
    loadLib(cls, jarPathPrefix, name, Platform.RESOURCE_PREFIX);
  }

  /** The per-user cache (an interface may hold no private static methods before Java 9's rules here). */
  final class NativeCache {

    private NativeCache() {}

    /** The cached library for the jar entry at {@code url}, extracted if needed; null if it cannot be. */
    static Path cached(URL url, String file) {
      try {
        URLConnection connection = url.openConnection();
        connection.setUseCaches(false);
        if (!(connection instanceof JarURLConnection jar)) {
          return null;
        }
        ZipEntry entry = jar.getJarEntry();
        if (entry == null || entry.getCrc() < 0 || entry.getSize() < 0) {
          return null;
        }
        Path dir = root().resolve(String.format("%08x-%d", entry.getCrc(), entry.getSize()));
        Path target = dir.resolve(file);
        if (Files.isRegularFile(target) && Files.size(target) == entry.getSize()) {
          return target;
        }
        createPrivate(dir);
        Path partial = Files.createTempFile(dir, file, ".partial");
        try {
          CRC32 crc = new CRC32();
          try (InputStream in = new CheckedInputStream(connection.getInputStream(), crc)) {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
          }
          if (crc.getValue() != entry.getCrc() || Files.size(partial) != entry.getSize()) {
            return null; // a damaged read: load a temporary copy instead, cache nothing
          }
          Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          return target;
        } finally {
          Files.deleteIfExists(partial);
        }
      } catch (IOException | RuntimeException e) {
        return null; // no cache here (read-only home, no space): the original behaviour
      }
    }

    private static Path root() {
      String configured = System.getenv("OMNIGRAPH_NATIVE_CACHE");
      if (configured != null && !configured.isBlank()) {
        return Path.of(configured);
      }
      String xdg = System.getenv("XDG_CACHE_HOME");
      Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
      return base.resolve("omnigraph").resolve("native");
    }

    /** The directory, created readable and writable by its owner only where the file system says so. */
    private static void createPrivate(Path dir) throws IOException {
      if (Files.isDirectory(dir)) {
        return;
      }
      try {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } catch (UnsupportedOperationException notPosix) {
        Files.createDirectories(dir);
      }
    }
  }
}
