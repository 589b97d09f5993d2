package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;

/**
 * An allocator, the dataset's main handle, and the branch/version it checked out: either opened
 * for this call (latest versions) or leased from {@link PinnedHandles} (exact versions). Every
 * class of the data-table layer opens what it reads or stages through here and closes it before
 * returning.
 */
final class TableHandle implements AutoCloseable {
  final BufferAllocator allocator;
  final Dataset main;
  final Dataset table;
  private final PinnedHandles.Entry lease;

  TableHandle(BufferAllocator allocator, Dataset main, Dataset table) {
    this.allocator = allocator;
    this.main = main;
    this.table = table;
    this.lease = null;
  }

  private TableHandle(PinnedHandles.Entry lease) {
    this.allocator = PinnedHandles.allocator();
    this.main = lease.main;
    this.table = lease.table;
    this.lease = lease;
  }

  /**
   * The id map of this handle's exact version ({@link PinnedHandles#idRowIds}), counting this probe;
   * empty for a handle of this call's own, or when the version has none (yet).
   */
  Optional<IdRowIds> idRowIds() {
    return lease == null ? Optional.empty() : PinnedHandles.idRowIds(lease, this);
  }

  @Override
  public void close() {
    if (lease != null) {
      PinnedHandles.release(lease);
      return;
    }
    // Datasets before the allocator they were opened with.
    try {
      if (table != main) {
        table.close();
      }
    } finally {
      try {
        main.close();
      } finally {
        allocator.close();
      }
    }
  }

  /** The handle of {@code ref} at {@code version} (empty: its latest version, opened for this call). */
  static TableHandle open(LanceRoot lance, StorageConfig config, TableRef ref, OptionalLong version) {
    if (version.isPresent()) {
      return open(lance, config, ref.at(version.getAsLong()));
    }
    return openFresh(lance, config, ref, version);
  }

  /** The shared handle of exactly {@code at}: a version never changes, so one open serves (see PinnedHandles). */
  static TableHandle open(LanceRoot lance, StorageConfig config, TableAt at) {
    return new TableHandle(lance.handles.lease(lance, config, at));
  }

  /** A handle of this call's own, for operations that move the handle they run on. */
  static TableHandle openFresh(LanceRoot lance, StorageConfig config, TableRef ref, OptionalLong version) {
    String location = ref.location();
    Optional<String> branch = ref.nativeBranch();
    BufferAllocator allocator = new RootAllocator();
    Dataset main = null;
    try {
      if (branch.isEmpty()) {
        main = LanceSupport.open(lance, config, location, version, allocator);
        return new TableHandle(allocator, main, main);
      }
      main = LanceSupport.open(lance, config, location, OptionalLong.empty(), allocator);
      Dataset table = main.checkout(LanceSupport.ref(branch, version));
      return new TableHandle(allocator, main, table);
    } catch (RuntimeException e) {
      if (main != null) {
        main.close();
      }
      allocator.close();
      throw e;
    }
  }
}
