package dev.omnigraph.arch;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every {@code @QuarkusTest} class carries {@code @Tag("quarkus")}, so surefire's
 * {@code quarkus-tests} execution runs it in the one JVM where the application starts once per test
 * profile (docs/testing.md, "Two surefire forks"). Without the tag a class still runs, in
 * {@code default-test}, but starts the application again for itself.
 */
class QuarkusTestTagTest {

  @Test
  void everyQuarkusTestClassIsTaggedQuarkus() throws IOException {
    Path root = Path.of("target/test-classes");
    List<String> quarkus;
    try (Stream<Path> files = Files.walk(root)) {
      quarkus = files.map(p -> root.relativize(p).toString())
          .filter(p -> p.endsWith(".class") && !p.contains("$"))
          .map(p -> p.substring(0, p.length() - ".class".length()).replace('/', '.'))
          .map(QuarkusTestTagTest::load).filter(c -> c.isAnnotationPresent(QuarkusTest.class))
          .filter(c -> Arrays.stream(c.getAnnotationsByType(Tag.class)).noneMatch(t -> t.value().equals("quarkus")))
          .map(Class::getName).sorted().toList();
    }
    assertThat(quarkus).as("@QuarkusTest classes without @Tag(\"quarkus\")").isEmpty();
  }

  @Test
  void theScanSeesTheQuarkusTestClasses() throws Exception {
    // A scan that found nothing would pass the check above vacuously.
    Class<?> known = Class.forName("dev.omnigraph.server.ServiceEndpointsTest", false, getClass().getClassLoader());
    assertThat(known.isAnnotationPresent(QuarkusTest.class)).isTrue();
    assertThat(Files.isRegularFile(Path.of("target/test-classes/dev/omnigraph/server/ServiceEndpointsTest.class")))
        .isTrue();
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, QuarkusTestTagTest.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException("cannot load test class " + name, e);
    }
  }
}
