package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.RepairReport;
import dev.omnigraph.api.maintenance.CleanupReport;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.maintenance.RepairReport.Residue;
import dev.omnigraph.api.maintenance.RepairReport.ResidueKind;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Ref;
import org.lance.WriteParams;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Issue 44 item 5: residue a foreign writer leaves under the root ({@code repair}/{@code doctor}
 * report it, {@code cleanup} removes what is provably safe, readiness never goes down), and the
 * outside reader docs/storage.md describes (lance-java alone, read-only, by path). Once per backend.
 */
abstract class AbstractResidueTest extends AbstractMaintenanceFixture {

  private static final String PEOPLE = "query people() {\n  match {\n    $p: Person\n  }\n"
      + "  return { $p.name as name, $p.age as age }\n  order { $p.name }\n}\n";

  @AfterEach
  void defaultGrace() {
    System.clearProperty(ResidueScan.GRACE_PROPERTY);
  }

  /** Residue counts from the moment it is written (the grace is for in-flight writes; see below). */
  private static void noGrace() {
    System.setProperty(ResidueScan.GRACE_PROPERTY, "PT0S");
  }

  @Test
  void aLanceDbClientsResidueIsReportedNeverTakesReadinessDownAndCleanupRemovesIt() throws Exception {
    load("main", person("ann"), person("bob"));
    graph.branchCreate("feature", "main", Optional.empty());
    load("feature", person("cy")); // forks Person's and __manifest's Lance branch "feature"
    noGrace();
    // Our own layout, a branch and its clones included, explains everything.
    assertThat(graph.repair(false).residue()).isEmpty();
    SnapshotOutput mainBefore = graph.snapshot("main");
    SnapshotOutput featureBefore = graph.snapshot("feature");
    ReadOutput answerBefore = people("main");

    // What the LanceDB client left: its directory catalog's "__manifest" table in both child
    // directories, and a migration of ours that never committed (planned on our current version).
    createForeignDataset("nodes/__manifest");
    createForeignDataset("edges/__manifest");
    String txn = "__manifest/_transactions/" + mainBefore.graphManifestVersion() + "-" + UUID.randomUUID() + ".txn";
    try (StorageAdapter s = StorageAdapters.open(config)) {
      String ours = s.list("__manifest/_transactions").get(0);
      s.put(txn, s.read(ours)); // a real transaction's bytes, under a name no version commits
    }

    // Younger than the grace: an in-flight write may be creating it, so nothing is flagged yet.
    System.clearProperty(ResidueScan.GRACE_PROPERTY);
    assertThat(graph.residue()).isEmpty();
    noGrace();

    RepairReport found = graph.repair(false);
    assertThat(found.residue()).extracting(Residue::path, Residue::directory, Residue::kind, Residue::removable,
        Residue::removed).containsExactly(
            tuple(txn, false, ResidueKind.UNCOMMITTED_TRANSACTION, true, false),
            tuple("edges/__manifest", true, ResidueKind.FOREIGN_DATASET, true, false),
            tuple("nodes/__manifest", true, ResidueKind.FOREIGN_DATASET, true, false));
    assertThat(found.residue().get(0).why()).contains("no version of __manifest commits it");
    assertThat(found.residue().get(1).why()).contains("edges/ holds only table datasets");
    // Not drift: nothing to repair, and readiness (the drift check) stays UP.
    assertThat(found.clean()).isTrue();
    assertThat(found.empty()).isFalse();
    RepairReport readiness = graph.driftCheck();
    assertThat(readiness.clean()).isTrue();
    assertThat(readiness.residue()).isEmpty();
    String json = new ObjectMapper().writeValueAsString(found);
    assertThat(json).contains("\"path\":\"nodes/__manifest\"").contains("\"kind\":\"foreign_dataset\"")
        .contains("\"kind\":\"uncommitted_transaction\"");

    // A dry run lists them and removes nothing.
    CleanupReport dry = graph.cleanup(true);
    assertThat(dry.residue()).isEqualTo(found.residue());
    assertThat(exists(txn)).isTrue();
    assertThat(exists("nodes/__manifest")).isTrue();

    CleanupReport cleaned = graph.cleanup(false);
    assertThat(cleaned.residue()).extracting(Residue::path, Residue::removed).containsExactly(
        tuple(txn, true), tuple("edges/__manifest", true), tuple("nodes/__manifest", true));
    assertThat(exists(txn)).isFalse();
    assertThat(exists("nodes/__manifest")).isFalse();
    assertThat(exists("edges/__manifest")).isFalse();
    assertThat(graph.residue()).isEmpty();

    // Every read is what it was, and the graph still takes writes on both branches.
    assertThat(graph.snapshot("main")).isEqualTo(mainBefore);
    assertThat(graph.snapshot("feature")).isEqualTo(featureBefore);
    assertThat(people("main").rows()).isEqualTo(answerBefore.rows());
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "bob", "cy");
    load("main", person("dan"));
    load("feature", person("eve"));
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "bob", "dan");
    assertThat(ids(dataset("feature", "Person"))).containsExactly("ann", "bob", "cy", "eve");
  }

  @Test
  void whatCleanupCannotProveSafeIsReportedAndLeft() throws Exception {
    load("main", person("ann"));
    // A branch created and deleted leaves nothing behind that counts as residue.
    graph.branchCreate("gone", "main", Optional.empty());
    graph.branchDelete("gone", Optional.empty());
    String unregistered = "nodes/00000000000000ff-0000000000000001";
    try (StorageAdapter s = StorageAdapters.open(config)) {
      s.putText("notes.txt", "someone's notes");
      s.putText("__manifest/extra/state.json", "{}");
      s.putText("nodes/README", "not a table");
      s.putText("__doctor/0b7c1d52-3f8e-4c1a-9d7e-2a4b6c8d0e1f/_versions/1.manifest", "scratch");
    }
    createForeignDataset("people.lance"); // what lancedb.connect(root).create_table("people") makes
    createForeignDataset(unregistered);
    noGrace();

    RepairReport found = graph.repair(false);
    assertThat(found.residue()).extracting(Residue::path, Residue::directory, Residue::kind, Residue::removable)
        .containsExactly(
            tuple("__doctor/0b7c1d52-3f8e-4c1a-9d7e-2a4b6c8d0e1f", true, ResidueKind.DOCTOR_SCRATCH, true),
            tuple("__manifest/extra", true, ResidueKind.FOREIGN_ENTRY, false),
            tuple("nodes/00000000000000ff-0000000000000001", true, ResidueKind.UNREGISTERED_TABLE, false),
            tuple("nodes/README", false, ResidueKind.FOREIGN_ENTRY, true),
            tuple("notes.txt", false, ResidueKind.FOREIGN_ENTRY, false),
            tuple("people.lance", true, ResidueKind.FOREIGN_DATASET, false));
    assertThat(found.clean()).isTrue();

    CleanupReport cleaned = graph.cleanup(false);
    assertThat(cleaned.residue()).extracting(Residue::path, Residue::removed).containsExactly(
        tuple("__doctor/0b7c1d52-3f8e-4c1a-9d7e-2a4b6c8d0e1f", true),
        tuple("__manifest/extra", false),
        tuple("nodes/00000000000000ff-0000000000000001", false),
        tuple("nodes/README", true),
        tuple("notes.txt", false),
        tuple("people.lance", false));
    assertThat(exists("notes.txt")).isTrue();
    assertThat(exists("people.lance")).isTrue();
    assertThat(exists(unregistered)).isTrue();
    assertThat(exists("__manifest/extra/state.json")).isTrue();
    assertThat(exists("nodes/README")).isFalse();
    assertThat(exists("__doctor")).isFalse();
    assertThat(graph.repair(false).residue()).extracting(Residue::path)
        .containsExactly("__manifest/extra", unregistered, "notes.txt", "people.lance");
    load("main", person("bob"));
    assertThat(ids(dataset("main", "Person"))).containsExactly("ann", "bob");
  }

  /**
   * The acceptance's outside reader: lance-java alone (no OmniGraph table code), read-only, opens
   * a node table by the path and version {@code snapshot --json} names, and a branch's copy by its
   * Lance branch, and reads what the query answers, writing nothing under the root.
   */
  @Test
  void anOutsideReaderOpensATableByPathWithLanceJavaAloneAndWritesNothing() throws Exception {
    load("main", "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":31}}",
        "{\"type\":\"Person\",\"data\":{\"name\":\"bob\",\"age\":42}}");
    graph.branchCreate("feature", "main", Optional.empty());
    load("feature", "{\"type\":\"Person\",\"data\":{\"name\":\"cy\",\"age\":7}}");
    load("main", "{\"type\":\"Person\",\"data\":{\"name\":\"dan\"}}"); // main moves past the pin read below
    SnapshotOutput.Dataset feature = dataset("feature", "Person");
    List<Map<String, Object>> mainAnswer = people("main").rows();
    List<Map<String, Object>> featureAnswer = people("feature").rows();
    SnapshotOutput.Dataset main = dataset("main", "Person");
    graph.close(); // the writer's lease renews __lease.json: nothing of ours may write from here
    try {
      Map<String, String> before = listing();
      String uri = config.lanceUri(main.datasetPath());
      Map<String, String> storageOptions = config.lanceStorageOptions(); // empty locally; S3 endpoint, keys
      assertThat(readPeople(uri, storageOptions, main.publishedDatasetVersion(), Optional.empty()))
          .isEqualTo(asText(mainAnswer)).containsOnlyKeys("ann", "bob", "dan");
      assertThat(feature.nativeDatasetBranch()).isEqualTo("feature");
      assertThat(feature.datasetPath()).isEqualTo(main.datasetPath());
      assertThat(readPeople(uri, storageOptions, feature.publishedDatasetVersion(), Optional.of("feature")))
          .isEqualTo(asText(featureAnswer)).containsOnlyKeys("ann", "bob", "cy");
      // The branch's copy is also a dataset of its own by path (what a pylance reader opens).
      assertThat(readPeople(uri + "/tree/feature", storageOptions, feature.publishedDatasetVersion(), Optional.empty()))
          .isEqualTo(asText(featureAnswer));
      assertThat(listing()).isEqualTo(before);
    } finally {
      graph = Omnigraph.open(config, OpenMode.READ_ONLY); // for the fixture's close; writes nothing
    }
  }

  /** name → age of every row of the Person table at {@code version}, as a reader outside OmniGraph sees it. */
  private static Map<String, String> readPeople(String uri, Map<String, String> storageOptions, long version,
      Optional<String> branch) throws Exception {
    Map<String, String> out = new TreeMap<>();
    ReadOptions.Builder options = new ReadOptions.Builder().setStorageOptions(storageOptions);
    if (branch.isEmpty()) {
      options.setVersion(version);
    }
    try (BufferAllocator allocator = new RootAllocator();
        Dataset opened = Dataset.open().allocator(allocator).uri(uri).readOptions(options.build()).build();
        Dataset at = branch.isPresent() ? opened.checkout(Ref.ofBranch(branch.get(), version)) : null) {
      Dataset d = at != null ? at : opened;
      assertThat(d.version()).isEqualTo(version);
      try (LanceScanner scanner = LanceScanner.create(d,
              new ScanOptions.Builder().columns(List.of("name", "age")).build(), allocator);
          ArrowReader reader = scanner.scanBatches()) {
        VectorSchemaRoot batch = reader.getVectorSchemaRoot();
        while (reader.loadNextBatch()) {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Object age = batch.getVector("age").getObject(i);
            out.put(String.valueOf(batch.getVector("name").getObject(i)), age == null ? null : age.toString());
          }
        }
      }
    }
    return out;
  }

  private static Map<String, String> asText(List<Map<String, Object>> rows) {
    Map<String, String> out = new TreeMap<>();
    rows.forEach(r -> out.put(String.valueOf(r.get("name")), r.get("age") == null ? null : r.get("age").toString()));
    return out;
  }

  private ReadOutput people(String branch) {
    return graph.query(Optional.of(dev.omnigraph.api.BranchName.existing(branch)), Optional.empty(), PEOPLE, "people", new ObjectMapper().createObjectNode());
  }

  /** Every object under the root with the SHA-256 of its bytes. */
  private Map<String, String> listing() throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (StorageAdapter s = StorageAdapters.open(config)) {
      for (String key : s.list("")) {
        out.put(key, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.read(key))));
      }
    }
    return out;
  }

  private boolean exists(String key) {
    try (StorageAdapter s = StorageAdapters.open(config)) {
      return s.exists(key);
    }
  }

  /** A small Lance dataset at {@code key}, made the way any Lance client makes one. */
  private void createForeignDataset(String key) {
    Schema schema = new Schema(List.of(
        new Field("object_id", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
        new Field("object_type", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null)));
    try (BufferAllocator allocator = new RootAllocator();
        Dataset created = Dataset.write().allocator(allocator).uri(config.lanceUri(key)).schema(schema)
            .mode(WriteParams.WriteMode.CREATE).storageOptions(config.lanceStorageOptions()).execute()) {
      assertThat(created.version()).isEqualTo(1);
    }
  }
}
