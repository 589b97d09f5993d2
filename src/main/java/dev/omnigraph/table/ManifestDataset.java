package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Branch;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Ref;
import org.lance.ipc.LanceScanner;
import org.lance.ipc.ScanOptions;

/**
 * Lance access to the {@code __manifest} dataset. Only the manifest package (the publisher, init and
 * branch control) may use it; an architecture rule keeps it so. Graph branches are Lance branches
 * of this dataset.
 */
public final class ManifestDataset implements AutoCloseable {

  /** The dataset key under the graph root. */
  public static final String KEY = "__manifest";

  private final StorageConfig config;
  private final BufferAllocator allocator;
  private Dataset dataset;
  private final Optional<String> branch;
  /**
   * The checked-out version's number and stamp, asked of Lance once per checkout: each ask is a JNI
   * call that builds the whole version (a parsed timestamp, its metadata), and a head read asked twice
   * (docs/performance.md, "Where the served route's time went"). Tied to the {@link Dataset} it was
   * read from, so a handle that moved to the version it committed is asked again; cleared when
   * {@link #refreshLatest} moves this one.
   */
  private Checked checked;

  private record Checked(Dataset of, long version, String stamp) {}

  private ManifestDataset(StorageConfig config, BufferAllocator allocator, Dataset dataset, Optional<String> branch) {
    this.config = config;
    this.allocator = allocator;
    this.dataset = dataset;
    this.branch = branch;
  }

  /**
   * Creates an empty {@code __manifest} with the given (stamped) schema, without stable row ids:
   * nothing addresses its rows by id, and with them Lance keeps per-row id and version runs inline
   * in every manifest and transaction, ~33 bytes per publish of history (docs/write-path.md, "The history-flat manifest";
   * docs/lance-write-layer.md, "Why a publish writes ~N KB").
   */
  public static void create(StorageConfig config, Schema schema) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = LanceSupport.createEmpty(config, KEY, schema, allocator, false)) {
      // nothing else to do
    }
  }

  /**
   * Opens the manifest on {@code branch} (empty: main) at {@code version} (empty: latest), with a
   * session of its own (a test, a tool): nothing it caches is shared with the root's handles.
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public static ManifestDataset open(StorageConfig config, Optional<String> branch, OptionalLong version) {
    return open(new LanceRoot(config.rootUri()), config, branch, version);
  }

  /**
   * Opens the manifest on {@code branch} (empty: main) at {@code version} (empty: latest), in
   * {@code root}'s session.
   *
   * @throws RuntimeException from Lance when the dataset, branch or version does not exist
   */
  public static ManifestDataset open(LanceRoot root, StorageConfig config, Optional<String> branch,
      OptionalLong version) {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_OPEN,
        dev.omnigraph.storage.StoreRequests.Kind.MANIFEST, 0);
    BufferAllocator allocator = new RootAllocator();
    Dataset ds = null;
    try {
      ReadOptions.Builder options = new ReadOptions.Builder().setStorageOptions(config.lanceStorageOptions())
        .setSession(root.session());
      if (branch.isEmpty() && version.isPresent()) {
        options.setVersion(version.getAsLong());
      }
      ds = Dataset.open().allocator(allocator).uri(config.lanceUri(KEY)).readOptions(options.build())
          .session(root.session()).build();
      if (branch.isPresent()) {
        Ref ref = version.isPresent()
            ? Ref.ofBranch(branch.get(), version.getAsLong())
            : Ref.ofBranch(branch.get());
        Dataset onBranch = ds.checkout(ref);
        ds.close();
        ds = onBranch;
      }
      return new ManifestDataset(config, allocator, ds, branch);
    } catch (RuntimeException e) {
      if (ds != null) {
        ds.close();
      }
      allocator.close();
      throw e;
    }
  }

  /** The checked-out manifest version. */
  public long version() {
    return checked().version();
  }

  /**
   * The exact identity of the checked-out version: its number and commit time. Two handles with the
   * same stamp read the same immutable manifest; a branch deleted and recreated at the same version
   * number gets a different stamp.
   */
  public String stamp() {
    return checked().stamp();
  }

  private synchronized Checked checked() {
    Dataset ds = dataset;
    Checked c = checked;
    if (c == null || c.of() != ds) {
      org.lance.Version v = ds.getVersion();
      c = new Checked(ds, v.getId(), stamp(v));
      checked = c;
    }
    return c;
  }

  private static String stamp(Dataset ds) {
    return stamp(ds.getVersion());
  }

  private static String stamp(org.lance.Version v) {
    return v.getId() + "@" + v.getDataTime().toInstant();
  }

  /** What an upsert produced: the new version, its stamp and its fragment count. */
  public record Landed(long version, String stamp, int fragments) {}

  /** The graph branch this handle reads ({@code empty} for main). */
  public Optional<String> branch() {
    return branch;
  }

  /** The manifest's schema-level metadata (where the storage stamp lives). */
  public Map<String, String> schemaMetadata() {
    Schema schema = dataset.getSchema();
    return schema.getCustomMetadata() == null ? Map.of() : schema.getCustomMetadata();
  }

  /**
   * Streams every row of the checked-out version, one batch at a time; the batch is only valid
   * inside the callback.
   */
  public void scan(Consumer<VectorSchemaRoot> batches) {
    ScanOptions options = new ScanOptions.Builder().batchSize(8192).build();
    try (LanceScanner scanner = dataset.newScan(options);
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        batches.accept(root);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("manifest scan failed: " + e.getMessage(), e);
    }
  }

  /**
   * Streams every row of the checked-out version with its {@code _rowaddr} column (the physical
   * address a later {@link #replace} deletes by).
   */
  public void scanWithAddresses(Consumer<VectorSchemaRoot> batches) {
    ScanOptions options = new ScanOptions.Builder().batchSize(8192).withRowAddress(true).build();
    try (LanceScanner scanner = dataset.newScan(options);
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        batches.accept(root);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("manifest scan failed: " + e.getMessage(), e);
    }
  }

  /** The name of the row-address column {@link #scanWithAddresses} adds. */
  public static final String ROW_ADDRESS = org.lance.MetadataColumns.ROWADDR;

  /**
   * What a {@link #replace} produced: the upsert result plus the physical address of every written
   * row, in input order (the rows live in one new fragment).
   */
  public record Replaced(Landed landed, List<Long> addresses) {}

  /**
   * Commits, against exactly the checked-out version and with zero Lance conflict retries, one
   * {@code Update} that deletes the rows at {@code deleteAddresses} and appends the rows
   * {@code encode} builds. Two such commits from the same read version that delete a common row
   * cannot both land (Lance rejects the second as a conflict on the same fragment), which is the
   * publisher's compare-and-swap; unlike a merge-insert it reads no existing data file, so its cost
   * does not grow with the manifest's history.
   *
   * @throws RuntimeException when Lance rejects the commit (contention or any other failure)
   */
  public Replaced replace(Function<BufferAllocator, VectorSchemaRoot> encode, List<Long> deleteAddresses) {
    java.util.TreeMap<Integer, List<Integer>> byFragment = new java.util.TreeMap<>();
    for (long address : deleteAddresses) {
      byFragment.computeIfAbsent((int) (address >>> 32), k -> new java.util.ArrayList<>())
          .add((int) (address & 0xffffffffL));
    }
    try (VectorSchemaRoot rows = encode.apply(allocator)) {
      int count = rows.getRowCount();
      // The new rows' file and the head row's deletion file are independent writes: side by side
      // (one round trip, not two). Writing the fragment needs only the dataset's URI, not this
      // handle, so the handle is still used by one thread at a time.
      String uri = dataset.uri();
      java.util.concurrent.CompletableFuture<List<org.lance.FragmentMetadata>> staging =
          dev.omnigraph.util.Background.start(() -> LanceSupport.stage(config, uri, rows, allocator));
      List<org.lance.FragmentMetadata> updated = new java.util.ArrayList<>();
      List<Long> removed = new java.util.ArrayList<>();
      List<org.lance.FragmentMetadata> written;
      try {
        byFragment.forEach((fragmentId, offsets) -> {
          org.lance.FragmentMetadata after = dataset.getFragment(fragmentId).deleteRows(offsets.stream().sorted().toList());
          if (after == null) {
            removed.add((long) fragmentId);
          } else {
            updated.add(after);
          }
        });
      } finally {
        // Never leave the staging write running over rows about to be closed.
        written = dev.omnigraph.util.Background.join(staging);
      }
      org.lance.operation.Update update = LanceSupport.rewriteRowsUpdate(written, updated, removed,
          dataset.getLanceSchema());
      int maxBefore = dataset.getFragments().stream().mapToInt(f -> f.getId()).max().orElse(-1);
      Dataset next = LanceSupport.commit(dataset, update, dataset.version(),
          java.util.UUID.randomUUID().toString(), Map.of());
      {
        List<org.lance.Fragment> fragments = next.getFragments();
        List<org.lance.Fragment> fresh = fragments.stream().filter(f -> f.getId() > maxBefore)
            .sorted(java.util.Comparator.comparingInt(f -> f.getId())).toList();
        List<Long> addresses = new java.util.ArrayList<>(count);
        for (org.lance.Fragment f : fresh) {
          long rowsInFragment = f.metadata().getPhysicalRows();
          for (long i = 0; i < rowsInFragment && addresses.size() < count; i++) {
            addresses.add(((long) f.getId() << 32) | i);
          }
        }
        if (addresses.size() != count) {
          addresses = List.of(); // unknown layout: the caller rescans instead of guessing
        }
        Replaced replaced = new Replaced(new Landed(next.version(), stamp(next), fragments.size()), addresses);
        // This handle now reads the version it just wrote: a held handle never re-reads it.
        Dataset old = dataset;
        dataset = next;
        old.close();
        return replaced;
      }
    }
  }

  /**
   * The branch's latest version number, asked from storage now (one listing); the handle stays on
   * its checked-out version.
   */
  public long latestVersion() {
    return dataset.latestVersion();
  }

  /** How many fragments the checked-out version has. */
  public int fragmentCount() {
    return dataset.getFragments().size();
  }

  /**
   * The checked-out version's fragments in manifest order, as (id, physical rows) pairs; read from
   * the open manifest, no storage request. Every commit this binary makes appends its new fragments
   * at the end, so the order is the order the rows were written in.
   */
  public List<FragmentRef> fragments() {
    return dataset.getFragments().stream()
        .map(f -> new FragmentRef(f.getId(), f.metadata().getPhysicalRows(), f.metadata().getDeletionFile() != null))
        .toList();
  }

  /** One fragment of the checked-out version: its id, physical row count, and whether rows of it are deleted. */
  public record FragmentRef(int id, long physicalRows, boolean hasDeletions) {}

  /**
   * Streams the rows of one fragment of the checked-out version (deleted rows excluded), in
   * physical order, projected to {@code columns} (empty: all) and filtered by {@code filter}
   * (a Lance SQL predicate built from constants only, never from user input; empty: none), in
   * batches of at most {@code batchRows}, until {@code batches} returns false: a reader that needs
   * only a fragment's first rows stops there.
   */
  public void scanFragment(int fragmentId, List<String> columns, Optional<String> filter, int batchRows,
      java.util.function.Predicate<VectorSchemaRoot> batches) {
    dev.omnigraph.storage.StoreRequests.record(dev.omnigraph.storage.StoreRequests.Op.LANCE_SCAN,
        dev.omnigraph.storage.StoreRequests.Kind.MANIFEST, 0);
    ScanOptions.Builder options = new ScanOptions.Builder().batchSize(batchRows).fragmentIds(List.of(fragmentId));
    if (!columns.isEmpty()) {
      options.columns(columns);
    }
    filter.ifPresent(options::filter);
    try (LanceScanner scanner = dataset.newScan(options.build());
        ArrowReader reader = scanner.scanBatches()) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      while (reader.loadNextBatch()) {
        if (!batches.test(root)) {
          return;
        }
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("manifest scan of fragment " + fragmentId + " failed: " + e.getMessage(), e);
    }
  }

  /** As above, every row, in batches of 8,192. */
  public void scanFragment(int fragmentId, List<String> columns, Optional<String> filter,
      Consumer<VectorSchemaRoot> batches) {
    scanFragment(fragmentId, columns, filter, 8192, batch -> {
      batches.accept(batch);
      return true;
    });
  }

  /**
   * Commits, against exactly the checked-out version and with zero Lance conflict retries, one
   * {@code Update} that removes the fragments {@code removeFragments} whole, deletes the rows at
   * {@code deleteAddresses}, and appends one new fragment per entry of {@code newFragments}, in
   * that order (so the last entry becomes the version's last fragment). Two such commits from the
   * same read version that remove a common fragment or delete a common row cannot both land: Lance
   * rejects the second as a conflict, which is the publisher's compare-and-swap. It reads no
   * existing data file. The handle moves to the committed version.
   *
   * @throws RuntimeException when Lance rejects the commit (contention or any other failure)
   */
  public Landed rewrite(List<Integer> removeFragments, List<Long> deleteAddresses,
      List<Function<BufferAllocator, VectorSchemaRoot>> newFragments) {
    java.util.TreeMap<Integer, List<Integer>> byFragment = new java.util.TreeMap<>();
    for (long address : deleteAddresses) {
      byFragment.computeIfAbsent((int) (address >>> 32), k -> new java.util.ArrayList<>())
          .add((int) (address & 0xffffffffL));
    }
    String uri = dataset.uri();
    List<VectorSchemaRoot> roots = new java.util.ArrayList<>();
    try {
      for (Function<BufferAllocator, VectorSchemaRoot> encode : newFragments) {
        roots.add(encode.apply(allocator));
      }
      // The new fragments' files and any deletion file are independent writes: side by side (one
      // round trip, not several). Writing a fragment needs only the dataset's URI, not this handle,
      // so the handle is still used by one thread at a time.
      List<java.util.concurrent.CompletableFuture<List<org.lance.FragmentMetadata>>> staging = new java.util.ArrayList<>();
      for (VectorSchemaRoot rows : roots) {
        staging.add(dev.omnigraph.util.Background.start(() -> LanceSupport.stage(config, uri, rows, allocator)));
      }
      List<org.lance.FragmentMetadata> updated = new java.util.ArrayList<>();
      List<Long> removed = new java.util.ArrayList<>();
      removeFragments.forEach(id -> removed.add((long) id));
      List<org.lance.FragmentMetadata> written = new java.util.ArrayList<>();
      try {
        byFragment.forEach((fragmentId, offsets) -> {
          if (removeFragments.contains(fragmentId)) {
            return;
          }
          org.lance.FragmentMetadata after = dataset.getFragment(fragmentId).deleteRows(offsets.stream().sorted().toList());
          if (after == null) {
            removed.add((long) fragmentId);
          } else {
            updated.add(after);
          }
        });
      } finally {
        // Never leave a staging write running over rows about to be closed; join all, in order.
        RuntimeException first = null;
        for (var f : staging) {
          try {
            written.addAll(dev.omnigraph.util.Background.join(f));
          } catch (RuntimeException e) {
            first = first == null ? e : first;
          }
        }
        if (first != null) {
          throw first;
        }
      }
      org.lance.operation.Update update = LanceSupport.rewriteRowsUpdate(written, updated, removed,
          dataset.getLanceSchema());
      Dataset next = LanceSupport.commit(dataset, update, dataset.version(),
          java.util.UUID.randomUUID().toString(), Map.of());
      Landed landed = new Landed(next.version(), stamp(next), next.getFragments().size());
      // This handle now reads the version it just wrote: a held handle never re-reads it.
      Dataset old = dataset;
      dataset = next;
      old.close();
      return landed;
    } finally {
      roots.forEach(VectorSchemaRoot::close);
    }
  }

  /** Re-reads the checked-out branch's latest version (after {@link #compact()}); returns its stamp. */
  public String refreshLatest() {
    synchronized (this) {
      dataset.checkoutLatest();
      checked = null; // the same Dataset, now at another version
    }
    return stamp();
  }

  /** Every native branch of the manifest (the graph branches other than main). */
  public List<NativeBranch> branches() {
    return dataset.branches().list().stream().map(ManifestDataset::nativeBranch).toList();
  }

  static NativeBranch nativeBranch(Branch b) {
    StringBuilder id = new StringBuilder();
    for (Branch.BranchVersionMapping m : b.getBranchIdentifier()) {
      if (id.length() > 0) {
        id.append(',');
      }
      id.append(m.getVersion()).append(':').append(m.getUuid());
    }
    return new NativeBranch(b.getName(), b.getParentBranch().filter(p -> !p.isEmpty() && !p.equals("main")),
        b.getParentVersion(), id.toString());
  }

  /**
   * Creates the native branch {@code name} from {@code from} (empty: main) at {@code version}. Lance
   * clones {@code tree/<name>} before writing the branch contents, so a failure may leave a tree that
   * no ref names (reclaimed by the next create of that name).
   */
  public void createBranch(String name, Optional<String> from, long version) {
    Ref ref = from.isPresent() ? Ref.ofBranch(from.get(), version) : Ref.ofMain(version);
    Map<String, String> options = config.lanceStorageOptions();
    // The two-argument form resolves S3 from the process environment only; the three-argument form
    // rejects an empty map, so a local root keeps the two-argument form.
    try (Dataset created = options.isEmpty()
        ? dataset.createBranch(name, ref)
        : dataset.createBranch(name, ref, options)) {
      // the handle is not needed
    }
  }

  /** Deletes the native branch {@code name}: contents first, then its tree. */
  public void deleteBranch(String name) {
    dataset.branches().delete(name);
  }

  @Override
  public void close() {
    dataset.close();
    allocator.close();
  }
}
