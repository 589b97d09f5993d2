package dev.omnigraph.testing;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

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
 *
 * <p>{@link #launch} adds a shared AppCDS archive for the suite's most frequent children (the crash
 * children, over a hundred per run): loading and linking their ~3,500 classes is about a third of
 * a child's CPU. Java 17 archives classes from jars only and refuses a class path holding a
 * non-empty directory, so the class directories ({@code target/classes}, {@code target/test-classes},
 * the stand-in) are copied into jars named after their content under {@code target/child-cds}; one
 * warm-up child that exits normally dumps the archive ({@code -XX:ArchiveClassesAtExit}, a child
 * that halts dumps nothing), and every later child maps it ({@code -XX:SharedArchiveFile}). The
 * surefire forks share the directory under a file lock, so the warm-up runs once per build. A stale
 * or unusable archive is ignored by the JVM ({@code -Xshare:auto}); anything failing here leaves
 * the child on today's plain command line.
 */
public final class ChildJvm {

  private ChildJvm() {}

  private record Preload(Path classes, Path nativeDir) {}

  /** A child's class path and the JVM options that belong with it. */
  public record Launch(String classPath, List<String> options) {}

  /**
   * Starts the warm-up child that dumps an archive: {@code jvm} is the java command with every
   * option and the class path, to which the warm-up appends its main class and arguments;
   * {@code scratch} is a private directory removed afterwards.
   */
  @FunctionalInterface
  public interface Warmup {
    ProcessBuilder command(List<String> jvm, Path scratch) throws IOException;
  }

  private static final Map<String, Launch> LAUNCHES = new HashMap<>();

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

  /**
   * The class path and extra options for a child started as {@code java <baseOptions> <options>
   * -cp <classPath> ...}: on the archive named {@code name} when it exists or {@code warmup} can
   * make it, else {@link #classPath()} and no options. {@code baseOptions} must be the options
   * every such child starts with (the archive is only valid for them); per-child system
   * properties may follow.
   */
  public static synchronized Launch launch(String name, List<String> baseOptions, Warmup warmup) {
    return LAUNCHES.computeIfAbsent(name, n -> {
      long t0 = System.nanoTime();
      Optional<Launch> archived;
      try {
        archived = archived(n, baseOptions, warmup);
      } catch (Exception e) {
        System.out.println("[child-cds] no archive for " + n + ", children start without one: " + e);
        archived = Optional.empty();
      }
      System.out.printf("[child-cds] %s: %s in %d ms%n", n, archived.isPresent() ? "archive ready" : "no archive",
          (System.nanoTime() - t0) / 1_000_000);
      return archived.orElseGet(() -> new Launch(classPath(), List.of()));
    });
  }

  private static Optional<Launch> archived(String name, List<String> baseOptions, Warmup warmup) throws Exception {
    Optional<Preload> preload = preload();
    if (preload.isEmpty() || Boolean.getBoolean("omnigraph.test.child.cds.off")) {
      return Optional.empty();
    }
    // target/lance-preload/classes -> target/child-cds
    Path dir = preload.get().classes().toAbsolutePath().getParent().getParent().resolve("child-cds");
    Files.createDirectories(dir);
    try (FileChannel lockFile = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock lock = lockFile.lock()) {
      List<String> entries = new ArrayList<>();
      for (String entry : classPath().split(File.pathSeparator)) {
        if (entry.isEmpty()) {
          continue;
        }
        Path p = Path.of(entry);
        entries.add(Files.isDirectory(p) ? jarOf(p, dir).toString() : entry);
      }
      String cp = String.join(File.pathSeparator, entries);
      String key = hash(name + "\n" + String.join("\n", baseOptions) + "\n" + cp).substring(0, 16);
      Path archive = dir.resolve(name + "-" + key + ".jsa");
      if (!Files.isRegularFile(archive)) {
        dump(archive, baseOptions, cp, warmup);
      }
      removeStale(dir, name, archive, entries);
      return Optional.of(new Launch(cp, List.of("-XX:SharedArchiveFile=" + archive,
          // A mismatch would otherwise print a CDS warning into the child's output, which tests read.
          "-Xlog:cds=off", "-Xlog:cds+dynamic=off")));
    }
  }

  /**
   * Removes the jars and {@code name}'s archives of earlier builds (another class content), once an hour has
   * passed since they were made: a run of that build still going keeps what it maps.
   */
  private static void removeStale(Path dir, String name, Path archive, List<String> entries) throws IOException {
    long cutoff = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String n = f.getFileName().toString();
        boolean current = f.equals(archive) || n.equals(archive.getFileName() + ".log")
            || entries.contains(f.toString());
        boolean ours = n.endsWith(".jar") || n.startsWith(name + "-") && n.contains(".jsa");
        if (!current && ours && Files.getLastModifiedTime(f).toMillis() < cutoff) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  private static void dump(Path archive, List<String> baseOptions, String cp, Warmup warmup) throws Exception {
    Path scratch = Files.createTempDirectory("child-cds-");
    Path tmp = archive.resolveSibling(archive.getFileName() + ".tmp" + ProcessHandle.current().pid());
    try {
      List<String> jvm = new ArrayList<>();
      jvm.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      jvm.addAll(baseOptions);
      jvm.add("-XX:ArchiveClassesAtExit=" + tmp);
      jvm.add("-Djava.io.tmpdir=" + Files.createDirectories(scratch.resolve("tmp")));
      jvm.addAll(List.of("-cp", cp));
      Path log = archive.resolveSibling(archive.getFileName() + ".log");
      Process p = warmup.command(jvm, scratch).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new IOException("the warm-up child did not finish in 180 s; see " + log);
      }
      if (p.exitValue() != 0 || !Files.isRegularFile(tmp)) {
        throw new IOException("the warm-up child exited " + p.exitValue() + " without an archive; see " + log);
      }
      Files.move(tmp, archive, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
      TestFiles.deleteTree(scratch);
    }
  }

  /**
   * A stored (uncompressed) jar of {@code classes}, named after the directory and a digest of its
   * files' names and contents: changed classes get a new jar, and so a new archive, since the JVM
   * only maps an archive whose jars are unchanged. Contents, not times: Maven recompiles some
   * directories on every run into identical bytes, which keeps their jar and the archive.
   */
  private static Path jarOf(Path classes, Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(classes)) {
      files = walk.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList();
    }
    MessageDigest digest = sha256();
    digest.update(classes.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
    for (Path f : files) {
      digest.update(("\n" + classes.relativize(f) + "\n").getBytes(StandardCharsets.UTF_8));
      digest.update(Files.readAllBytes(f));
    }
    String stamp = HexFormat.of().formatHex(digest.digest());
    String base = classes.getParent().getFileName() + "-" + classes.getFileName();
    Path jar = dir.resolve(base + "-" + stamp.substring(0, 16) + ".jar");
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    Path tmp = dir.resolve(jar.getFileName() + ".tmp" + ProcessHandle.current().pid());
    try (OutputStream out = Files.newOutputStream(tmp); ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.setMethod(ZipOutputStream.STORED);
      java.util.Set<String> dirs = new java.util.HashSet<>();
      for (Path f : files) {
        String entry = classes.relativize(f).toString().replace(File.separatorChar, '/');
        // Directory entries too, so that getResource of a package directory behaves as on disk.
        for (int i = entry.indexOf('/'); i >= 0; i = entry.indexOf('/', i + 1)) {
          String d = entry.substring(0, i + 1);
          if (dirs.add(d)) {
            zip.putNextEntry(stored(d, new byte[0]));
            zip.closeEntry();
          }
        }
        byte[] bytes = Files.readAllBytes(f);
        zip.putNextEntry(stored(entry, bytes));
        zip.write(bytes);
        zip.closeEntry();
      }
    }
    Files.move(tmp, jar, StandardCopyOption.ATOMIC_MOVE);
    return jar;
  }

  private static ZipEntry stored(String name, byte[] bytes) {
    ZipEntry e = new ZipEntry(name);
    CRC32 crc = new CRC32();
    crc.update(bytes);
    e.setMethod(ZipEntry.STORED);
    e.setSize(bytes.length);
    e.setCompressedSize(bytes.length);
    e.setCrc(crc.getValue());
    return e;
  }

  private static String hash(String s) {
    return HexFormat.of().formatHex(sha256().digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
