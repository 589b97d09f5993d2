package dev.omnigraph.table;

import dev.omnigraph.storage.StorageConfig;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;

/**
 * The engine's entry to graph datasets (node and edge tables). Every Lance write and commit of a
 * data table goes through this class and its package.
 */
public final class TableStore {

  private final StorageConfig config;

  public TableStore(StorageConfig config) {
    this.config = config;
  }

  /**
   * Creates the empty dataset at {@code key} with stable row ids.
   *
   * @return its first version
   */
  public long createEmpty(String key, Schema schema) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = LanceSupport.createEmpty(config, key, schema, allocator)) {
      return ds.version();
    }
  }
}
