package dev.omnigraph.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every failpoint of the catalog is hit by the production code and exercised by some test: a phase
 * boundary nobody crashes at is a recovery path nobody has seen work. A name is hit when
 * {@code src/main/java} names its constant (or, for the commit template's phases, its writer's
 * {@link Failpoint.WriterPhases}); a test covers it when it spells the name as a string literal or
 * names the constant. And nothing in the shipped code can switch one on.
 */
class FailpointCoverageTest {

  private static final Path SELF = Path.of("src/test/java/dev/omnigraph/util/FailpointCoverageTest.java");

  @Test
  void everyFailpointIsHitAndHasATest() {
    String main = String.join("\n", sources(Path.of("src/main/java")));
    List<String> tests = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      files.filter(p -> p.toString().endsWith(".java") && !p.endsWith(SELF)).forEach(p -> tests.add(read(p)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> neverHit = new ArrayList<>();
    List<String> untested = new ArrayList<>();
    for (Failpoint f : Failpoint.values()) {
      String writer = f.wireName().substring(0, f.wireName().indexOf('.')).toUpperCase();
      boolean phase = Arrays.stream(Failpoint.WriterPhases.values()).anyMatch(w -> List.of(w.afterArm(),
          w.afterCommits(), w.afterConfirm(), w.beforePublish(), w.afterPublish()).contains(f));
      if (!main.contains("Failpoint." + f.name())
          && !(phase && main.contains("Failpoint.WriterPhases." + writer))) {
        neverHit.add(f.wireName());
      }
      if (tests.stream().noneMatch(t -> t.contains("\"" + f.wireName() + "\"") || t.contains("Failpoint." + f.name()))) {
        untested.add(f.wireName());
      }
    }
    assertThat(neverHit).as("failpoints the production code never hits").isEmpty();
    assertThat(untested).as("failpoints no test names").isEmpty();
  }

  /** The shipped code reads no property, variable or file that could switch a failpoint on. */
  @Test
  void productionHasNoSwitch() {
    String failpoints = read(Path.of("src/main/java/dev/omnigraph/util/Failpoints.java"));
    assertThat(failpoints).doesNotContain("System.getProperty").doesNotContain("System.getenv");
    assertThat(String.join("\n", sources(Path.of("src/main/java")))).doesNotContain("omnigraph.failpoints")
        .doesNotContain("Failpoints.install");
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
