package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.engine.gqt.GqtRunner;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Our own {@code .gqt} logic-test cases ({@code src/test/resources/gqt/}, docs/testing.md "Logic
 * tests") on one backend: every case passes, none is unsupported, and a broken expectation fails
 * with its diff. The backends are one-line subclasses (local FS, S3Mock).
 */
abstract class AbstractGqtCasesTest {

  /** A fresh, empty graph root per label, on the backend under test. */
  protected abstract Function<String, StorageConfig> roots() throws Exception;

  /** Cases run side by side (S3 requests are mostly waiting). */
  protected int threads() {
    return 1;
  }

  static Path resources(String dir) throws Exception {
    return Path.of(AbstractGqtCasesTest.class.getResource("/" + dir).toURI());
  }

  static List<Path> cases() throws Exception {
    try (Stream<Path> list = Files.list(resources("gqt"))) {
      return list.filter(p -> p.toString().endsWith(".gqt")).sorted().toList();
    }
  }

  @Test
  void everyCaseOfOursPasses() throws Exception {
    List<Path> files = cases();
    assertThat(files).hasSizeGreaterThanOrEqualTo(15);
    List<Map.Entry<String, String>> texts = new ArrayList<>();
    for (Path f : files) {
      texts.add(Map.entry(f.getFileName().toString(), Files.readString(f)));
    }
    List<GqtRunner.Result> results;
    Function<String, StorageConfig> roots = roots();
    long start = System.nanoTime();
    try (GqtRunner runner = new GqtRunner(roots)) {
      results = runner.runAll(texts, threads());
      // The read-only cases over the one social graph share it: fewer graphs than cases.
      assertThat(runner.graphsMade()).isLessThan(files.size());
    }
    System.out.printf("gqt: %d cases in %d ms on %d threads (%s)%n", files.size(),
        (System.nanoTime() - start) / 1_000_000, threads(), getClass().getSimpleName());
    results.forEach(r -> System.out.printf("gqt:   %6d ms %s%n", r.millis(), r.file()));
    for (GqtRunner.Result r : results) {
      assertThat(r.status()).as("%s: %s", r.file(), r.message()).isEqualTo(GqtRunner.Status.PASSED);
    }
  }

  @Test
  void aBrokenExpectationFailsWithItsDiff() throws Exception {
    Path broken = resources("gqt-fixtures").resolve("broken_expectation.gqt");
    try (GqtRunner runner = new GqtRunner(roots())) {
      GqtRunner.Result r = runner.run("broken_expectation.gqt", Files.readString(broken));
      assertThat(r.status()).isEqualTo(GqtRunner.Status.FAILED);
      assertThat(r.message()).isEqualTo("""
          broken_expectation.gqt:14: step 1 (query heavy): expectation at line 20: rows differ (unordered): \
          expected 2 rows, got 2
            - {"f.kg": 0.25, "f.name": "lime"}   (expected, missing)
            + {"f.kg": 0.25, "f.name": "kiwi"}   (actual, not expected)""");
    }
  }
}
