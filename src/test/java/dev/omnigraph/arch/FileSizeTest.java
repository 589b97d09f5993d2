package dev.omnigraph.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Rooms that fit in a head (docs/testing.md, "Architecture rules"): no main source file over {@value #MAX_LINES}
 * lines. A file that grows past it is split by concern, as engine/Omnigraph was into its doors.
 */
class FileSizeTest {

  static final int MAX_LINES = 700;

  @Test
  void noMainSourceFileIsOver700Lines() throws IOException {
    List<String> over;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      over = files.filter(p -> p.toString().endsWith(".java")).filter(p -> lines(p) > MAX_LINES)
          .map(p -> p + " (" + lines(p) + " lines)").sorted().toList();
    }
    assertThat(over).as("main source files over %d lines", MAX_LINES).isEmpty();
  }

  private static long lines(Path p) {
    try (Stream<String> s = Files.lines(p)) {
      return s.count();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
