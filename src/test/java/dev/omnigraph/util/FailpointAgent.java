package dev.omnigraph.util;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * A Java agent that switches failpoints on in a process whose main we do not own: the packaged
 * service or CLI, started by an integration test with
 * {@code -javaagent:<jar>=write.before_publish=sleep:2000}. The agent is built from the test classes
 * ({@link #jar}), so only a test can hand one to a process.
 */
public final class FailpointAgent {

  private FailpointAgent() {}

  public static void premain(String spec) {
    FailpointControl.enableSpec(spec);
  }

  /** The JVM option that starts a process with {@code spec}'s failpoints on. */
  public static String javaOption(Path workDir, String spec) {
    return "-javaagent:" + jar(workDir) + "=" + spec;
  }

  /** Writes the agent jar (this class and {@link FailpointControl}) into {@code workDir}. */
  public static Path jar(Path workDir) {
    try {
      Path classes = Path.of(FailpointAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path util = classes.resolve("dev/omnigraph/util");
      Path jar = workDir.resolve("failpoint-agent.jar");
      Manifest manifest = new Manifest();
      manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
      manifest.getMainAttributes().put(new Attributes.Name("Premain-Class"), FailpointAgent.class.getName());
      try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest);
          Stream<Path> files = Files.list(util)) {
        for (Path f : (Iterable<Path>) files.sorted()::iterator) {
          String name = f.getFileName().toString();
          if (name.startsWith("FailpointAgent") || name.startsWith("FailpointControl")) {
            jarOut.putNextEntry(new JarEntry("dev/omnigraph/util/" + name));
            jarOut.write(Files.readAllBytes(f));
            jarOut.closeEntry();
          }
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
