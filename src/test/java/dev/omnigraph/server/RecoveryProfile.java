package dev.omnigraph.server;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Serves graph {@code x}, created before the service starts with a rollback-class sidecar pending,
 * graph {@code d}, with uncovered drift and no sidecar, and graph {@code f}, whose sidecar recovery
 * refuses (a foreign commit on its effect) ({@link RecoveryScenarioMain}, in a child
 * JVM). The reconciler's first pass runs 20 s after start, so a test sees the DOWN readiness first even
 * when a loaded machine takes ten seconds and more to start the application (4 s was too short). The operation id left pending is published as the system
 * property {@code omnigraph.test.recovery.operation} (the resource and the test run in different
 * class loaders).
 */
public class RecoveryProfile implements QuarkusTestProfile {

  @Override
  public Map<String, String> getConfigOverrides() {
    return Map.of("omnigraph.recovery.reconcile-interval", "8s");
  }

  @Override
  public List<TestResourceEntry> testResources() {
    return List.of(new TestResourceEntry(Scenario.class));
  }

  /** Runs the scenario in a child JVM and points {@code omnigraph.graphs.x.uri} at its root. */
  public static class Scenario implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
      try {
        Path root = Files.createTempDirectory("omnigraph-recovery-");
        Path dir = root.resolve("x");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "--add-opens=java.base/java.nio=ALL-UNNAMED"));
        cmd.addAll(dev.omnigraph.testing.ChildJvm.nativeOptions());
        Path drifted = root.resolve("d");
        Path refused = root.resolve("f");
        cmd.addAll(List.of("-cp", dev.omnigraph.testing.ChildJvm.classPath(), RecoveryScenarioMain.class.getName(),
            dir.toString(), drifted.toString(), refused.toString()));
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!child.waitFor(180, TimeUnit.SECONDS) || child.exitValue() != 0) {
          throw new IllegalStateException("recovery scenario failed:\n" + out);
        }
        String op = out.lines().filter(l -> l.startsWith("operation ")).findFirst()
            .orElseThrow(() -> new IllegalStateException("no operation id in:\n" + out)).substring(10).trim();
        System.setProperty("omnigraph.test.recovery.operation", op);
        System.setProperty("omnigraph.test.recovery.refused", out.lines().filter(l -> l.startsWith("refused "))
            .findFirst().orElseThrow(() -> new IllegalStateException("no refused id in:\n" + out)).substring(8).trim());
        return Map.of("omnigraph.graphs.x.uri", dir.toString(), "omnigraph.graphs.d.uri", drifted.toString(),
            "omnigraph.graphs.f.uri", refused.toString());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void stop() {}
  }
}
