package dev.omnigraph.server;

import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Leaves a graph with a rollback-class recovery sidecar, in a JVM of its own (the Quarkus test JVM
 * must load Lance in one class loader only): init from {@code graphs/people.pg}, load ann, then a
 * load of bob that fails at {@code write.after_commits} (its table commit landed, the sidecar stays
 * ARMED). Prints {@code operation <id>}. With a second root, also leaves a graph with uncovered
 * drift there, as a sidecar deleted while no service ran: load ann, then a load of bob that fails at
 * {@code write.before_publish} (its table commit landed), and its sidecar deleted. Exits 0.
 */
public final class RecoveryScenarioMain {

  public static void main(String[] args) throws Exception {
    StorageConfig config = StorageConfig.local(Path.of(args[0]));
    String schema;
    try (var in = RecoveryScenarioMain.class.getClassLoader().getResourceAsStream("graphs/people.pg")) {
      schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (args.length > 1) {
      drifted(StorageConfig.local(Path.of(args[1])), schema);
    }
    if (args.length > 2) {
      refused(StorageConfig.local(Path.of(args[2])), schema);
    }
    try (Omnigraph g = Omnigraph.init(config, schema, Optional.of("setup"))) {
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n"), LoadMode.APPEND,
          Optional.of("setup"));
      try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
        g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"), LoadMode.APPEND,
            Optional.of("setup"));
        throw new IllegalStateException("the failpoint did not fire");
      } catch (RecoveryRequired expected) {
        System.out.println("operation " + expected.operationId());
      }
    }
    System.exit(0);
  }

  /**
   * A graph whose pending sidecar recovery refuses: ann published; bob's load fails at
   * {@code write.after_commits} (effect landed, sidecar ARMED); then a commit outside the supported
   * topology deletes bob on top of it. Prints {@code refused <id>}.
   */
  private static void refused(StorageConfig config, String schema) throws Exception {
    try (Omnigraph g = Omnigraph.init(config, schema, Optional.of("setup"))) {
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n"), LoadMode.APPEND,
          Optional.of("setup"));
      try (AutoCloseable fp = FailpointControl.enableError("write.after_commits")) {
        g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"), LoadMode.APPEND,
            Optional.of("setup"));
        throw new IllegalStateException("the failpoint did not fire");
      } catch (RecoveryRequired expected) {
        System.out.println("refused " + expected.operationId());
      }
      String loc = g.snapshot("main").datasets().stream().filter(d -> d.typeName().equals("Person")).findFirst()
          .orElseThrow().datasetPath();
      dev.omnigraph.table.DataTables tables = new dev.omnigraph.table.DataTables(config);
      long head = tables.head(loc, Optional.empty());
      tables.commit(tables.staging().stageDeleteIds(loc, Optional.empty(), head, java.util.List.of("bob")));
    }
  }

  private static void drifted(StorageConfig config, String schema) throws Exception {
    try (Omnigraph g = Omnigraph.init(config, schema, Optional.of("setup"))) {
      g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"ann\"}}\n"), LoadMode.APPEND,
          Optional.of("setup"));
      try (AutoCloseable fp = FailpointControl.enableError("write.before_publish")) {
        g.load("main", new StringReader("{\"type\":\"Person\",\"data\":{\"name\":\"bob\"}}\n"), LoadMode.APPEND,
            Optional.of("setup"));
        throw new IllegalStateException("the failpoint did not fire");
      } catch (RecoveryRequired expected) {
        // The table commit landed and the sidecar that covers it is all recovery would go by.
      }
    }
    try (StorageAdapter s = StorageAdapters.open(config)) {
      for (String key : s.list(SidecarStore.PREFIX)) {
        s.delete(key);
      }
    }
  }
}
