package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.write.LoadInputError;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.WriteResult;
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

/** A fresh graph per test on one backend, with helpers to load and inspect it. */
abstract class AbstractGraphFixture {

  protected abstract StorageConfig newRoot() throws Exception;

  protected StorageConfig config;
  protected Omnigraph graph;

  @BeforeEach
  void init() throws Exception {
    config = newRoot();
    graph = Omnigraph.init(config, AbstractGraphEngineTest.schemaText(), Optional.of("act-test"));
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
      return s.list("__recovery");
    }
  }
}
