package dev.omnigraph.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File helpers shared by the test harness and the benchmarks. */
public final class TestFiles {

  private TestFiles() {}

  /**
   * Removes {@code root} and everything under it, best effort: a scratch directory left behind (or
   * one that is already gone) costs only disk space, never a test or benchmark result.
   */
  public static void deleteTree(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // best effort, see above
    }
  }
}
