package dev.omnigraph.table;

import dev.omnigraph.api.storage.LanceProbeReport;
import dev.omnigraph.api.storage.LanceProbeCheck;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Branch;
import org.lance.Dataset;
import org.lance.FragmentMetadata;
import org.lance.Transaction;
import org.lance.ipc.ScanOptions;
import org.lance.schema.LanceField;

/**
 * A self-contained end-to-end check that this process can drive Lance against a graph root: create
 * a dataset with stable row ids and a primary-key annotation, stage and commit an insertion-only
 * {@code Update} with a pre-minted uuid and zero retries, confirm it through
 * {@code readTransaction()}, read it back through the async scanner, and create and list a branch.
 * Those are the Lance behaviours the write path depends on; {@code omnigraph doctor} runs this probe
 * so a deployment (packaged jar, JVM flags, S3 endpoint and credentials) is checked before use.
 *
 * <p>The probe writes only under its scratch key and never deletes it: the caller owns the scratch
 * prefix and removes it afterwards. Every Lance handle, scanner and the probe's own allocator are
 * closed before {@link #run} returns, whether the checks pass or not.
 */
public final class LanceProbe {

  /** The branch the probe creates. The {@code /} exercises Lance's nested branch directories. */
  public static final String BRANCH = "probe/b1";

  /** The transaction property the probe commits and then expects to read back. */
  public static final String PROPERTY_KEY = "omnigraph.probe";

  public static final String PROPERTY_VALUE = "v1";

  /** LanceProbeCheck names, in the order the probe runs them. */
  public static final List<String> CHECKS = List.of(
      "create-dataset",
      "primary-key",
      "stage-fragments",
      "commit-update",
      "read-transaction",
      "async-scan",
      "create-branch",
      "list-branches");

  private static final List<String> IDS = List.of("probe-a", "probe-b", "probe-c");

  private LanceProbe() {}

  /**
   * Runs every check against a fresh dataset at {@code scratchKey} under {@code config}'s root.
   * Never throws for a Lance or storage failure: each becomes a failed {@link LanceProbeCheck}.
   *
   * @param config the graph root and its S3 settings
   * @param scratchKey a key under the root where no dataset exists yet; left in place afterwards
   */
  public static LanceProbeReport run(StorageConfig config, String scratchKey) {
    String uri = config.lanceUri(scratchKey);
    Steps steps = new Steps();
    try (BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE)) {
      new Run(config, scratchKey, allocator, steps).execute();
    } catch (Exception | LinkageError e) {
      // Closing the allocator reports leaked buffers; a failure here is a failure of the probe.
      steps.recordFailure("close", e);
    }
    return new LanceProbeReport(uri, steps.finish());
  }

  /** The probe's dataset schema: a primary-key {@code id} column and one payload column. */
  static Schema schema() {
    Field id = new Field(
        "id",
        new FieldType(false, ArrowType.Utf8.INSTANCE, null, Map.of(LanceSupport.PRIMARY_KEY_METADATA, "true")),
        null);
    Field n = new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null);
    return new Schema(List.of(id, n));
  }

  /** One probe run's state; each step reads what the previous one produced. */
  private static final class Run {
    private final StorageConfig config;
    private final String key;
    private final BufferAllocator allocator;
    private final Steps steps;

    Run(StorageConfig config, String key, BufferAllocator allocator, Steps steps) {
      this.config = config;
      this.key = key;
      this.allocator = allocator;
      this.steps = steps;
    }

    void execute() {
      try (Dataset created = steps.run("create-dataset", this::create)) {
        if (created == null) {
          return;
        }
        if (!steps.check("primary-key", () -> checkPrimaryKey(created))) {
          return;
        }
        long readVersion = created.version();
        List<FragmentMetadata> staged = steps.run("stage-fragments", () -> stage(created, readVersion));
        if (staged == null) {
          return;
        }
        String uuid = UUID.randomUUID().toString();
        Map<String, String> properties = Map.of(PROPERTY_KEY, PROPERTY_VALUE);
        try (Dataset committed =
            steps.run("commit-update", () -> commit(created, staged, readVersion, uuid, properties))) {
          if (committed == null) {
            return;
          }
          long mainVersion = committed.version();
          // Steps skips every check after the first failure, since each relies on the ones before.
          steps.check("read-transaction", () -> checkTransaction(readVersion, uuid, properties));
          steps.check("async-scan", () -> checkAsyncScan(committed));
          steps.check("create-branch", () -> checkCreateBranch(committed, mainVersion));
          steps.check("list-branches", () -> checkListBranches(mainVersion));
        }
      }
    }

    private Dataset create() {
      Dataset dataset = LanceSupport.createEmpty(config, key, schema(), allocator);
      if (!dataset.hasStableRowIds()) {
        dataset.close();
        throw new ProbeFailure("created dataset does not report stable row ids");
      }
      steps.note("version " + dataset.version() + ", stable row ids");
      return dataset;
    }

    private void checkPrimaryKey(Dataset dataset) {
      List<String> key = LanceSupport.primaryKey(dataset).stream().map(LanceField::getName).toList();
      if (!key.equals(List.of("id"))) {
        throw new ProbeFailure("unenforced primary key is " + key + ", expected [id]");
      }
      steps.note("id is the unenforced primary key");
    }

    private List<FragmentMetadata> stage(Dataset dataset, long readVersion) {
      List<FragmentMetadata> fragments;
      try (VectorSchemaRoot rows = rows()) {
        fragments = LanceSupport.stage(config, dataset, rows, allocator);
      }
      long staged = fragments.stream().mapToLong(FragmentMetadata::getPhysicalRows).sum();
      if (staged != IDS.size()) {
        throw new ProbeFailure("staged " + staged + " rows, expected " + IDS.size());
      }
      // Staging must not move HEAD: a fresh handle sees the version the probe read.
      try (Dataset fresh = LanceSupport.open(config, key, allocator)) {
        if (fresh.version() != readVersion) {
          throw new ProbeFailure("HEAD moved from " + readVersion + " to " + fresh.version() + " by staging");
        }
      }
      steps.note(fragments.size() + " fragment(s), " + staged + " rows; HEAD still " + readVersion);
      return fragments;
    }

    private Dataset commit(
        Dataset base, List<FragmentMetadata> staged, long readVersion, String uuid, Map<String, String> properties) {
      Dataset committed = LanceSupport.commit(
          base, LanceSupport.insertOnlyUpdate(staged, base.getLanceSchema()), uuid, properties);
      if (committed.version() != readVersion + 1) {
        long actual = committed.version();
        committed.close();
        throw new ProbeFailure("committed at version " + actual + ", expected " + (readVersion + 1));
      }
      steps.note("version " + readVersion + " -> " + committed.version() + ", maxRetries 0");
      return committed;
    }

    private void checkTransaction(long readVersion, String uuid, Map<String, String> properties) {
      // Read through a fresh handle: confirmation after a crash has only storage to go on.
      try (Dataset fresh = LanceSupport.open(config, key, allocator)) {
        Optional<Transaction> read = LanceSupport.readTransaction(fresh);
        if (read.isEmpty()) {
          throw new ProbeFailure("no transaction recorded for version " + fresh.version());
        }
        try (Transaction tx = read.get()) {
          if (!uuid.equals(tx.uuid())) {
            throw new ProbeFailure("transaction uuid " + tx.uuid() + ", expected " + uuid);
          }
          if (tx.readVersion() != readVersion) {
            throw new ProbeFailure("transaction read version " + tx.readVersion() + ", expected " + readVersion);
          }
          Map<String, String> got = tx.transactionProperties().orElse(Map.of());
          if (!properties.equals(got)) {
            throw new ProbeFailure("transaction properties " + got + ", expected " + properties);
          }
          if (!"Update".equals(tx.operation().name())) {
            throw new ProbeFailure("transaction operation " + tx.operation().name() + ", expected Update");
          }
        }
      }
      steps.note("uuid " + uuid + ", read version " + readVersion + ", " + PROPERTY_KEY + "=" + PROPERTY_VALUE);
    }

    private void checkAsyncScan(Dataset committed) throws Exception {
      List<Map<String, Object>> rows = LanceSupport.scanAsync(committed, new ScanOptions.Builder().build(), allocator);
      List<String> ids = rows.stream().map(r -> String.valueOf(r.get("id"))).sorted().toList();
      if (!ids.equals(IDS)) {
        throw new ProbeFailure("async scan returned ids " + ids + ", expected " + IDS);
      }
      steps.note(rows.size() + " rows via AsyncScanner");
    }

    private void checkCreateBranch(Dataset main, long mainVersion) {
      try (Dataset branch = LanceSupport.createBranch(config, main, BRANCH, mainVersion)) {
        steps.note("branch at version " + branch.version() + ", " + branch.uri());
      }
      try (Dataset fresh = LanceSupport.open(config, key, allocator)) {
        if (fresh.version() != mainVersion) {
          throw new ProbeFailure("main moved from " + mainVersion + " to " + fresh.version());
        }
      }
    }

    private void checkListBranches(long mainVersion) {
      try (Dataset fresh = LanceSupport.open(config, key, allocator)) {
        List<String> names = LanceSupport.listBranches(fresh).stream().map(Branch::getName).toList();
        if (!names.contains(BRANCH)) {
          throw new ProbeFailure("branch list " + names + " lacks " + BRANCH);
        }
        steps.note("branches " + names + ", main at " + mainVersion);
      }
    }

    private VectorSchemaRoot rows() {
      VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator);
      try {
        VarCharVector id = (VarCharVector) root.getVector("id");
        BigIntVector n = (BigIntVector) root.getVector("n");
        id.allocateNew(IDS.size());
        n.allocateNew(IDS.size());
        for (int i = 0; i < IDS.size(); i++) {
          id.setSafe(i, IDS.get(i).getBytes(StandardCharsets.UTF_8));
          n.setSafe(i, i + 1L);
        }
        root.setRowCount(IDS.size());
        return root;
      } catch (RuntimeException e) {
        root.close();
        throw e;
      }
    }
  }

  /** Runs named checks in order and records each outcome with its wall time. */
  private static final class Steps {
    private final List<LanceProbeCheck> done = new ArrayList<>();
    private String detail = "";
    private String firstFailure;

    /** A step producing what later steps build on. */
    interface Step<T> {
      T call() throws Exception;
    }

    /** A step that only observes. */
    interface Action {
      void call() throws Exception;
    }

    /** Runs {@code action}; false when it failed or an earlier step had failed. */
    boolean check(String name, Action action) {
      return run(name, () -> {
        action.call();
        return Boolean.TRUE;
      }) != null;
    }

    /** Runs {@code step}; {@code null} when it failed or an earlier step had failed. */
    <T> T run(String name, Step<T> step) {
      if (firstFailure != null) {
        return null;
      }
      detail = "";
      long start = System.nanoTime();
      try {
        T value = Objects.requireNonNull(step.call(), name);
        done.add(new LanceProbeCheck(name, true, detail, elapsedMillis(start)));
        return value;
      } catch (Exception | LinkageError e) {
        done.add(new LanceProbeCheck(name, false, describe(e), elapsedMillis(start)));
        firstFailure = name;
        return null;
      }
    }

    void note(String text) {
      detail = text;
    }

    void recordFailure(String name, Throwable e) {
      done.add(new LanceProbeCheck(name, false, describe(e), 0));
      if (firstFailure == null) {
        firstFailure = name;
      }
    }

    List<LanceProbeCheck> finish() {
      List<LanceProbeCheck> all = new ArrayList<>(done);
      for (String name : CHECKS) {
        if (all.stream().noneMatch(c -> c.name().equals(name))) {
          all.add(new LanceProbeCheck(name, false, "not run: " + firstFailure + " failed", 0));
        }
      }
      return all;
    }

    private static long elapsedMillis(long startNanos) {
      return (System.nanoTime() - startNanos) / 1_000_000;
    }

    private static String describe(Throwable e) {
      if (e instanceof ProbeFailure) {
        return e.getMessage();
      }
      String message = e.getMessage();
      return e.getClass().getName() + (message == null ? "" : ": " + message.strip());
    }
  }

  /** A check whose observation contradicted its expectation (as opposed to a Lance error). */
  private static final class ProbeFailure extends RuntimeException {
    ProbeFailure(String message) {
      super(message, null, false, false);
    }
  }
}
