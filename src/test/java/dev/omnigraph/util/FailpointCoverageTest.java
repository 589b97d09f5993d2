package dev.omnigraph.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every failpoint the production code declares is exercised by some test: a phase boundary nobody
 * crashes at is a recovery path nobody has seen work. Names are read from the
 * {@code Failpoints.hit("…")} calls in {@code src/main/java}; a test covers a name when it spells it
 * as a string literal.
 */
class FailpointCoverageTest {

  private static final Pattern HIT = Pattern.compile("Failpoints\\.hit\\(\"([a-z0-9_.]+)\"\\)");
  private static final Path SELF = Path.of("src/test/java/dev/omnigraph/util/FailpointCoverageTest.java");

  @Test
  void everyDeclaredFailpointHasATest() {
    Set<String> declared = new TreeSet<>();
    for (String source : sources(Path.of("src/main/java"))) {
      Matcher m = HIT.matcher(source);
      while (m.find()) {
        declared.add(m.group(1));
      }
    }
    assertThat(declared).as("failpoints found in src/main/java").hasSizeGreaterThan(10);
    List<String> tests = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      files.filter(p -> p.toString().endsWith(".java") && !p.endsWith(SELF)).forEach(p -> tests.add(read(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> untested = declared.stream()
        .filter(name -> tests.stream().noneMatch(t -> t.contains("\"" + name + "\"")))
        .toList();
    assertThat(untested).as("failpoints no test names").isEmpty();
  }

  private static List<String> sources(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java")).map(FailpointCoverageTest::read).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
