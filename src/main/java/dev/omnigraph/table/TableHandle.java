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

  TableHandle(PinnedHandles.Entry lease) {
    this.allocator = PinnedHandles.allocator();
    this.main = lease.main;
    this.table = lease.table;
    this.lease = lease;
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

  static TableHandle open(LanceRoot lance, StorageConfig config, String location, Optional<String> branch, OptionalLong version) {
    if (version.isPresent()) {
      // An exact version never changes: share one open handle of it (see PinnedHandles).
      return new TableHandle(PinnedHandles.lease(lance, config, location, branch, version.getAsLong()));
    }
    return openFresh(lance, config, location, branch, version);
  }

  /** A handle of this call's own, for operations that move the handle they run on. */
  static TableHandle openFresh(LanceRoot lance, StorageConfig config, String location, Optional<String> branch, OptionalLong version) {
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
