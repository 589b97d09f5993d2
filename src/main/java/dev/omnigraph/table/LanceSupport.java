package dev.omnigraph.table;

import dev.omnigraph.storage.StoreRequests;

import dev.omnigraph.api.storage.StorageConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;
import org.lance.Branch;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.Ref;
import org.lance.Transaction;
import org.lance.WriteParams;
import org.lance.ipc.AsyncScanner;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;
import org.lance.operation.Operation;
import org.lance.operation.Update;
import org.lance.schema.LanceField;
import org.lance.schema.LanceSchema;

/**
 * The Lance calls this package is built on, each with the exact options the write path relies on.
 * Nothing outside {@code dev.omnigraph.table} calls Lance's write or commit APIs, so every dataset is
 * created, staged and committed the same way (stable row ids on data tables, zero commit retries,
 * pre-minted uuid).
 *
 * <p>Every method that returns a {@link Dataset} hands ownership to the caller, who must close it
 * before closing the allocator it was opened with.
 */
final class LanceSupport {

  /** Arrow field metadata that Lance reads as "this column is the unenforced primary key". */
  static final String PRIMARY_KEY_METADATA = "lance-schema:unenforced-primary-key";

  /**
   * How long an async scan may take to hand back its reader. The reader is delivered by Lance's
   * native dispatcher thread; if that thread died (the fast-jar class-loader failure in PRODUCT.md
   * §2) the future never completes, and a bounded wait turns a hang into a reported failure.
   */
  static final Duration ASYNC_SCAN_TIMEOUT = Duration.ofSeconds(60);

  private LanceSupport() {}

  /**
   * Opens the latest version of the dataset at {@code key} under the graph root, with a session of
   * its own (a probe, a test): nothing it caches is shared with the root's handles.
   */
  static Dataset open(StorageConfig config, String key, BufferAllocator allocator) {
    return open(new LanceRoot(config.rootUri()), config, key, OptionalLong.empty(), allocator);
  }

  /** Opens main of the dataset at {@code key} at {@code version} (empty: latest), in {@code root}'s session. */
  static Dataset open(LanceRoot root, StorageConfig config, String key, OptionalLong version,
      BufferAllocator allocator) {
    StoreRequests.record(StoreRequests.Op.LANCE_OPEN, StoreRequests.Kind.ofKey(key), 0);
    ReadOptions.Builder options = new ReadOptions.Builder().setStorageOptions(config.lanceStorageOptions())
        .setSession(root.session());
    version.ifPresent(options::setVersion);
    return Dataset.open()
        .allocator(allocator)
        .uri(config.lanceUri(key))
        .readOptions(options.build())
        .session(root.session())
        .build();
  }

  /**
   * Creates an empty data table at {@code key} with stable row ids: row ids must survive compaction
   * because the write path and recovery address rows by them. Fails if a dataset already exists.
   */
  static Dataset createEmpty(
      StorageConfig config, String key, Schema schema, BufferAllocator allocator) {
    return createEmpty(config, key, schema, allocator, true);
  }

  /** Creates an empty dataset with stable row ids on or off as given (a dataset keeps the choice for life). */
  static Dataset createEmpty(
      StorageConfig config, String key, Schema schema, BufferAllocator allocator, boolean stableRowIds) {
    return Dataset.write()
        .allocator(allocator)
        .uri(config.lanceUri(key))
        .schema(schema)
        .mode(WriteParams.WriteMode.CREATE)
        .enableStableRowIds(stableRowIds)
        .storageOptions(config.lanceStorageOptions())
        .execute();
  }

  /**
   * Writes {@code rows} as data files of {@code target} (main or a branch: its {@link Dataset#uri()}
   * decides where the files go) without committing. The returned fragments are invisible until a
   * commit names them; abandoned ones are garbage for cleanup, never visible data.
   */
  static List<FragmentMetadata> stage(
      StorageConfig config, Dataset target, VectorSchemaRoot rows, BufferAllocator allocator) {
    return stage(config, target.uri(), rows, allocator);
  }

  /** As above, by the dataset's URI: touches no open handle, so it may run beside one in use. */
  static List<FragmentMetadata> stage(
      StorageConfig config, String targetUri, VectorSchemaRoot rows, BufferAllocator allocator) {
    return fragmentWriter(config, targetUri, allocator).data(rows).execute();
  }

  private static org.lance.WriteFragmentBuilder fragmentWriter(StorageConfig config, String targetUri,
      BufferAllocator allocator) {
    return Fragment.write().datasetUri(targetUri).allocator(allocator).storageOptions(config.lanceStorageOptions());
  }

  /**
   * As above, from a stream of batches: Lance pulls them one at a time and cuts fragments by its
   * own file size, so the rows need never be in memory together.
   */
  static List<FragmentMetadata> stage(
      StorageConfig config, String targetUri, org.apache.arrow.vector.ipc.ArrowReader rows, BufferAllocator allocator) {
    try (org.apache.arrow.c.ArrowArrayStream stream = org.apache.arrow.c.ArrowArrayStream.allocateNew(allocator)) {
      org.apache.arrow.c.Data.exportArrayStream(allocator, rows, stream);
      return fragmentWriter(config, targetUri, allocator).data(stream).execute();
    }
  }

  /**
   * An insertion-only {@code Update}: new fragments only, nothing removed or rewritten, no modified
   * fields. {@code fieldsForPreservingFragBitmap} names every field so existing indices keep covering
   * the new fragments (the insertion certificate lists the same full field preorder).
   */
  static Update insertOnlyUpdate(List<FragmentMetadata> newFragments, LanceSchema schema) {
    return rewriteRowsUpdate(newFragments, List.of(), List.of(), schema);
  }

  /**
   * A row-rewriting {@code Update} (an upsert): {@code updatedFragments} carry the deletion vectors
   * of the rows being replaced, {@code removedFragmentIds} name fragments all of whose rows go, and
   * {@code newFragments} hold the replacement and new rows. No field is "modified" in place, and the
   * full field preorder keeps existing indices from claiming coverage of the new fragments, exactly
   * as for an insertion-only update.
   */
  static Update rewriteRowsUpdate(
      List<FragmentMetadata> newFragments,
      List<FragmentMetadata> updatedFragments,
      List<Long> removedFragmentIds,
      LanceSchema schema) {
    return Update.builder()
        .newFragments(newFragments)
        .removedFragmentIds(removedFragmentIds)
        .updatedFragments(updatedFragments)
        .fieldsModified(new long[0])
        .fieldsForPreservingFragBitmap(fieldIdsPreorder(schema))
        .updateMode(Optional.of(Update.UpdateMode.RewriteRows))
        .build();
  }

  /**
   * Commits {@code update} on top of {@code base}'s version with our pre-minted {@code uuid} and
   * zero Lance retries, so that a concurrent writer makes the commit fail (or, for a rebasable
   * insert, land at a later version) instead of being silently retried with a different read
   * version. The caller confirms the outcome by reading the new version's transaction: lance-java
   * reports conflicts as plain {@code RuntimeException}s that cannot be classified by type.
   *
   * @return the dataset at the committed version
   * @throws RuntimeException from Lance; the outcome is then unknown until re-read
   */
  static Dataset commit(
      Dataset base, Update update, String uuid, Map<String, String> transactionProperties) {
    return commit(base, update, base.version(), uuid, transactionProperties);
  }

  /**
   * Commits any operation exactly as {@link #commit(Dataset, Update, String, Map)} does, with an
   * explicit read version (the version the operation was planned against; {@code base} should be
   * checked out at it). {@code operation} is released (its native schema export freed) on return,
   * so build a fresh one per call.
   *
   * @throws RuntimeException from Lance; the outcome is then unknown until re-read
   */
  static Dataset commit(
      Dataset base,
      Operation operation,
      long readVersion,
      String uuid,
      Map<String, String> transactionProperties) {
    StoreRequests.record(StoreRequests.Op.LANCE_COMMIT,
        base.uri().contains("/" + ManifestDataset.KEY) ? StoreRequests.Kind.MANIFEST : StoreRequests.Kind.TABLE, 0);
    try (Transaction tx = new Transaction.Builder()
        .readVersion(readVersion)
        .uuid(uuid)
        .operation(operation)
        .transactionProperties(transactionProperties)
        .build()) {
      return new CommitBuilder(base).maxRetries(0).execute(tx);
    }
  }

  /**
   * Commits {@code operation} as the first version of a dataset that does not exist yet, with the
   * pre-minted {@code uuid}, read version 0, stable row ids and zero retries: the exact version-one
   * create of schema apply (an existing dataset at the URI makes it fail).
   *
   * @throws RuntimeException from Lance; the outcome is then unknown until re-read
   */
  static Dataset commitCreate(StorageConfig config, String key, Operation operation, String uuid,
      Map<String, String> transactionProperties, BufferAllocator allocator) {
    StoreRequests.record(StoreRequests.Op.LANCE_COMMIT, StoreRequests.Kind.TABLE, 0);
    try (Transaction tx = new Transaction.Builder()
        .readVersion(0)
        .uuid(uuid)
        .operation(operation)
        .transactionProperties(transactionProperties)
        .build()) {
      return new CommitBuilder(config.lanceUri(key), allocator)
          .writeParams(config.lanceStorageOptions())
          .useStableRowIds(true)
          .maxRetries(0)
          .execute(tx);
    }
  }

  /** The transaction that produced {@code dataset}'s checked-out version, if Lance recorded one. */
  static Optional<Transaction> readTransaction(Dataset dataset) {
    return dataset.readTransaction();
  }

  /**
   * Creates the Lance branch {@code name} at main's {@code version} and returns it.
   *
   * <p>The storage options are passed explicitly: lance-java 7.0.0's two-argument
   * {@code createBranch(name, ref)} builds a new object store for the branch from the process
   * environment ({@code AWS_*}) and ignores the options the dataset was opened with, so on S3 it
   * fails ("Failed to resolve region") or reaches another endpoint unless the environment happens to
   * match. The three-argument overload uses the options given, and rejects an empty map, which is
   * why a local root (no options) takes the two-argument form.
   */
  static Dataset createBranch(StorageConfig config, Dataset main, String name, long version) {
    return createBranch(config, main, name, Ref.ofMain(version));
  }

  /** Creates the Lance branch {@code name} at {@code from} (main or another branch, at a version). */
  static Dataset createBranch(StorageConfig config, Dataset main, String name, Ref from) {
    Map<String, String> options = config.lanceStorageOptions();
    return options.isEmpty()
        ? main.createBranch(name, from)
        : main.createBranch(name, from, options);
  }

  /**
   * The ref naming {@code version} of {@code branch} (empty: main), or its latest version when
   * {@code version} is empty. Versions are numbered per branch, so a bare version number would be
   * ambiguous on a branch dataset; every checkout in this package goes through a full ref.
   */
  static Ref ref(Optional<String> branch, OptionalLong version) {
    if (branch.isPresent()) {
      return version.isPresent() ? Ref.ofBranch(branch.get(), version.getAsLong()) : Ref.ofBranch(branch.get());
    }
    return version.isPresent() ? Ref.ofMain(version.getAsLong()) : Ref.ofMain();
  }

  /** Every Lance branch of {@code dataset}. */
  static List<Branch> listBranches(Dataset dataset) {
    return dataset.branches().list();
  }

  /** The unenforced primary key fields of the dataset's Lance schema, in key order. */
  static List<LanceField> primaryKey(Dataset dataset) {
    return dataset.getLanceSchema().getUnenforcedPrimaryKey();
  }

  /** Reads every row through the synchronous scanner, as column-name → value maps. */
  static List<Map<String, Object>> scan(
      Dataset dataset, ScanOptions options, BufferAllocator allocator) throws Exception {
    try (LanceScanner scanner = LanceScanner.create(dataset, options, allocator);
        ArrowReader reader = scanner.scanBatches()) {
      return drain(reader);
    }
  }

  /**
   * Streams the scan one batch at a time: {@code batches} sees each batch in turn, valid only inside
   * the call, so memory stays bounded by the batch size however large the table is.
   */
  static void scanBatches(
      Dataset dataset, ScanOptions options, BufferAllocator allocator, Consumer<VectorSchemaRoot> batches)
      throws Exception {
    try (LanceScanner scanner = LanceScanner.create(dataset, options, allocator);
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot batch = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        batches.accept(batch);
      }
    }
  }

  /**
   * Reads every row through {@link AsyncScanner}, whose reader is handed over by Lance's native
   * dispatcher thread. That thread resolves Java classes through the system class loader, so this
   * is the call that proves the packaged application's class path is visible to Lance.
   *
   * @throws TimeoutException if no reader arrives within {@link #ASYNC_SCAN_TIMEOUT}
   */
  static List<Map<String, Object>> scanAsync(
      Dataset dataset, ScanOptions options, BufferAllocator allocator) throws Exception {
    try (AsyncScanner scanner = AsyncScanner.create(dataset, options, allocator)) {
      ArrowReader reader;
      try {
        reader = scanner.scanBatchesAsync()
            .get(ASYNC_SCAN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      } catch (TimeoutException e) {
        TimeoutException named = new TimeoutException("no reader from AsyncScanner within "
            + ASYNC_SCAN_TIMEOUT.toSeconds() + " s; Lance's native lance-jni-dispatcher thread may"
            + " have died (look for NoClassDefFoundError on stderr): Lance needs its classes on the"
            + " system class path, as in the uber-jar");
        named.initCause(e);
        throw named;
      }
      try (reader) {
        return drain(reader);
      }
    }
  }

  /** Field ids of the schema in nested preorder (parent before children, declaration order). */
  static long[] fieldIdsPreorder(LanceSchema schema) {
    List<Long> ids = new ArrayList<>();
    for (LanceField field : schema.fields()) {
      collectPreorder(field, ids);
    }
    return ids.stream().mapToLong(Long::longValue).toArray();
  }

  private static void collectPreorder(LanceField field, List<Long> ids) {
    ids.add((long) field.getId());
    for (LanceField child : field.getChildren()) {
      collectPreorder(child, ids);
    }
  }

  private static List<Map<String, Object>> drain(ArrowReader reader) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    VectorSchemaRoot batch = reader.getVectorSchemaRoot();
    while (reader.loadNextBatch()) {
      for (int i = 0; i < batch.getRowCount(); i++) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (FieldVector vector : batch.getFieldVectors()) {
          Object value = vector.getObject(i);
          // Arrow hands Utf8 back as its mutable Text buffer; callers want an immutable String.
          row.put(vector.getName(), value instanceof Text text ? text.toString() : value);
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
