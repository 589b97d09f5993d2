package dev.omnigraph.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The class path and JVM options for a child JVM a test starts on the test class path (crash
 * children, the recovery scenario, the no-AWS-environment probe).
 *
 * <p>lance-core unpacks its ~180 MB native library from the jar on every JVM start (about 1.4 s,
 * measured here). Maven unpacks it once per build into {@code target/lance-native} and compiles a
 * stand-in for jar-jni's loader into {@code target/lance-preload/classes} (see the stand-in's
 * Javadoc, {@code src/test/lance-preload}); the surefire configuration names both directories
 * ({@code omnigraph.test.lance.native}, {@code omnigraph.test.lance.preload}). When both exist, a
 * child gets the stand-in first on its class path and loads the unpacked library in place. When
 * they do not (an IDE run), the child unpacks the library itself, as before.
 */
public final class ChildJvm {

  private ChildJvm() {}

  private record Preload(Path classes, Path nativeDir) {}

  private static Optional<Preload> preload() {
    String classes = System.getProperty("omnigraph.test.lance.preload");
    String nativeDir = System.getProperty("omnigraph.test.lance.native");
    if (classes == null || nativeDir == null) {
      return Optional.empty();
    }
    Path c = Path.of(classes);
    Path n = Path.of(nativeDir);
    if (!Files.isRegularFile(c.resolve("io/questdb/jar/jni/JarJniLoader.class")) || !Files.isDirectory(n)) {
      return Optional.empty();
    }
    return Optional.of(new Preload(c, n));
  }

  /** The test class path, with the loader stand-in first when the unpacked library is there. */
  public static String classPath() {
    String cp = System.getProperty("java.class.path");
    return preload().map(p -> p.classes() + File.pathSeparator + cp).orElse(cp);
  }

  /** The JVM options that point the stand-in at the unpacked library (none without it). */
  public static List<String> nativeOptions() {
    return preload().map(p -> List.of("-Domnigraph.test.native.dir=" + p.nativeDir())).orElse(List.of());
  }
}
