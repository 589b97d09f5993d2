package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.write.LoadInputError;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fresh graph per test on one backend, with helpers to load and inspect it. The graph is a copy of
 * a per-class template ({@link RootTemplates}): {@code init} (plus {@link #buildTemplate}) runs once
 * per test class, each test gets its own copy.
 */
abstract class AbstractGraphFixture {

  protected abstract StorageConfig newRoot() throws Exception;

  protected StorageConfig config;
  protected Omnigraph graph;

  /**
   * What every test of the class starts from, after {@code init}, built once on the template. Main
   * only: a template must not hold Lance branches (see {@link RootTemplates}).
   */
  protected void buildTemplate(Omnigraph template) throws Exception {}

  @BeforeEach
  void init() throws Exception {
    config = RootTemplates.copyOf(getClass(), "init", this::newRoot, root -> {
      try (Omnigraph g = Omnigraph.init(root, AbstractGraphEngineTest.schemaText(), Optional.of("act-test"))) {
        buildTemplate(g);
      }
    });
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  protected WriteResult load(String branch, LoadMode mode, String... lines) {
    return graph.load(branch, new StringReader(String.join("\n", lines)), mode, Optional.of("act-test"));
  }

  static String person(String name, Integer age) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"" + (age == null ? "" : ",\"age\":" + age) + "}}";
  }

  protected SnapshotOutput.Dataset dataset(String branch, String type) {
    return graph.snapshot(branch).datasets().stream().filter(d -> d.typeName().equals(type)).findFirst().orElseThrow();
  }

  protected Map<String, Map<String, Object>> rows(String branch, String type) {
    SnapshotOutput.Dataset d = dataset(branch, type);
    Map<String, Map<String, Object>> out = new java.util.TreeMap<>();
    new DataTables(config).scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()),
        d.publishedDatasetVersion(), dev.omnigraph.table.Filter.TRUE, List.of("id", "name", "age"),
        r -> out.put(String.valueOf(r.get("id")), r));
    return out;
  }

  protected List<String> sidecars() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      // A published write deletes its sidecar in the background (Phase D off the ack path).
      dev.omnigraph.engine.GraphRoots.shared().awaitSidecarRetirements(s.rootUri());
      return s.list("__recovery");
    }
  }
}
