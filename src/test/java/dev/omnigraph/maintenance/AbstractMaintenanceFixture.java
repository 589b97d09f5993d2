package dev.omnigraph.maintenance;

import dev.omnigraph.api.CommitPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.SidecarStore;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.util.FailpointControl;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A fresh graph per test (a copy of a per-class template) on one backend, with the helpers that make drift and inspect versions. */
abstract class AbstractMaintenanceFixture {

  protected abstract StorageConfig newRoot() throws Exception;

  protected StorageConfig config;
  protected Omnigraph graph;
  protected DataTables tables;

  static String schemaText() {
    try (InputStream in = AbstractMaintenanceFixture.class.getResourceAsStream("/graphs/people.pg")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A copy of the class's {@code init}-ed template root ({@link RootTemplates}). */
  @BeforeEach
  void init() throws Exception {
    config = RootTemplates.copyOf(getClass(), "init", this::newRoot,
        root -> Omnigraph.init(root, schemaText(), Optional.of("act-test")).close());
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    tables = new DataTables(config);
  }

  @AfterEach
  void close() {
    graph.close();
  }

  protected WriteResult load(String branch, String... lines) {
    return graph.load(branch, new StringReader(String.join("\n", lines)), LoadMode.APPEND, Optional.of("act-test"));
  }

  static String person(String name) {
    return "{\"type\":\"Person\",\"data\":{\"name\":\"" + name + "\"}}";
  }

  protected SnapshotOutput.Dataset dataset(String branch, String type) {
    return graph.snapshot(branch).datasets().stream().filter(d -> d.typeName().equals(type)).findFirst()
        .orElseThrow();
  }

  protected long head(SnapshotOutput.Dataset d) {
    return tables.head(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()));
  }

  protected List<Long> versions(SnapshotOutput.Dataset d) {
    return tables.versions().list(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()));
  }

  /** The ids of a dataset at its pinned version. */
  protected TreeSet<String> ids(SnapshotOutput.Dataset d) {
    TreeSet<String> ids = new TreeSet<>();
    tables.scan(d.datasetPath(), Optional.ofNullable(d.nativeDatasetBranch()), d.publishedDatasetVersion(),
        Filter.TRUE, List.of("id"), r -> ids.add(String.valueOf(r.get("id"))));
    return ids;
  }

  /** Every dataset's ids as the state a snapshot describes: "kind:Type" → ids. */
  protected Map<String, TreeSet<String>> content(SnapshotOutput s) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    s.datasets().forEach(d -> out.put(d.entityKind() + ":" + d.typeName(), ids(d)));
    return out;
  }

  /** Time travel to every commit reachable from {@code branches}: commit id → content. */
  protected Map<String, Map<String, TreeSet<String>>> everyCommit(String... branches) {
    Map<String, Map<String, TreeSet<String>>> out = new TreeMap<>();
    for (String b : branches) {
      graph.commits(b, CommitPage.first(CommitPage.MAX_LIMIT)).commits().forEach(c -> out.computeIfAbsent(c.graphCommitId(),
          id -> content(graph.snapshotAtCommit(id))));
    }
    return out;
  }

  protected List<String> sidecars() {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return s.list(SidecarStore.PREFIX);
    }
  }

  /**
   * Leaves an uncovered table effect on {@code branch}: a load whose publish fails after its
   * commits landed (its sidecar kept), then the sidecar deleted, as if an operator removed it.
   *
   * @return the deleted sidecar, which names the orphaned transaction
   */
  protected RecoverySidecar drift(String branch, String... lines) throws Exception {
    RecoveryRequired failure;
    try (AutoCloseable fp = FailpointControl.enableError("write.before_publish")) {
      failure = catchThrowableOfType(RecoveryRequired.class, () -> load(branch, lines));
    }
    assertThat(failure).as("the load failed after its effect").isNotNull();
    try (StorageAdapter s = StorageAdapters.open(config)) {
      RecoverySidecar sidecar = new SidecarStore(s).read(SidecarStore.keyOf(failure.operationId())).orElseThrow();
      for (String key : s.list(SidecarStore.PREFIX)) {
        s.delete(key);
      }
      return sidecar;
    }
  }

  /** Leaves a pending sidecar whose effect landed: the next read-write open or recover settles it. */
  protected RecoveryRequired pendingSidecar(String failpoint, String branch, String... lines) throws Exception {
    RecoveryRequired failure;
    try (AutoCloseable fp = FailpointControl.enableError(failpoint)) {
      failure = catchThrowableOfType(RecoveryRequired.class, () -> load(branch, lines));
    }
    assertThat(failure).isNotNull();
    assertThat(sidecars()).containsExactly(SidecarStore.keyOf(failure.operationId()));
    return failure;
  }
}
