package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReadQueryLocalTest extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("read"));
  }

  /**
   * 400 and 1,000 filters on one variable, in a child JVM: before issue 12 the child died with
   * SIGSEGV (exit 134/139) in Lance's filter parser, which would have taken this test JVM with it.
   */
  @ParameterizedTest(name = "{0} filters")
  @ValueSource(ints = {400, 1_000})
  void hundredsOfFiltersOnOneVariableGiveTheRightRowsAndNoCrash(int filters) throws Exception {
    Path tmp = Files.createTempDirectory("many-filters-");
    String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(javaBin, "--add-opens=java.base/java.nio=ALL-UNNAMED", "-Xmx256m",
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp));
    cmd.addAll(ChildJvm.nativeOptions());
    cmd.addAll(List.of("-cp", ChildJvm.classPath(), ManyFilters.class.getName(), config().rootUri(),
        Integer.toString(filters)));
    Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output;
    try {
      output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    } finally {
      child.destroyForcibly();
      try (var walk = Files.walk(tmp)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    assertThat(child.exitValue()).as(output).isZero();
    assertThat(output.lines().filter(l -> l.startsWith("rows=")).toList()).containsExactly("rows=[bob, carol]");
  }
}
