package io.questdb.jar.jni;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test-only stand-in for jar-jni 1.1.1's loader, which lance-core 7.0.0 calls from
 * {@code org.lance.JniLoader}'s static initializer ({@code loadLib(Dataset.class, "/nativelib",
 * "lance_jni")}). The original always inflates the ~180 MB library from the jar into
 * {@code java.io.tmpdir} and {@code System.load}s the copy: about 1.4 s of every JVM start. It
 * honours no system property and not {@code java.library.path}.
 *
 * <p>This class is compiled apart from the tests (into {@code target/lance-preload/classes}) and put
 * first on the class path of the child JVMs the tests start ({@code dev.omnigraph.testing.ChildJvm}),
 * never on the test JVM's own. With {@code -Domnigraph.test.native.dir=<dir>} it loads
 * {@code <dir>/nativelib/<platform>/<lib>} as Maven unpacked it once per build; without it, or when
 * that file is missing, it does exactly what the original does. The library is still loaded by
 * {@code System.load} from a class of the application class loader, as before, so JNI binds it the
 * same way.
 */
public interface JarJniLoader {

  /** The directory Maven unpacked lance-core's {@code nativelib/} into. */
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
    // The original behaviour.
    try (InputStream in = cls.getResourceAsStream(resource)) {
      if (in == null) {
        throw new LoadException("Internal error: cannot find " + resource + ", broken package?");
      }
      String file = resource.substring(resource.lastIndexOf('/') + 1);
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
}
