package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
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

  /**
   * Creates the empty dataset at {@code key} with stable row ids, then a BTree key index on each
   * of its key columns ({@code id}; {@code src} and {@code dst} on an edge table): one
   * {@code CreateIndex} commit per index, so an edge table's returned version is its first version
   * plus three. Init pins the returned version, which is the table's live HEAD when this returns.
   *
   * @return the version after the last index commit (the live HEAD)
   * @throws RuntimeException from Lance, e.g. when a dataset already exists at {@code key}
   */
  public long createWithKeyIndexes(String key, Schema schema) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset ds = LanceSupport.createEmpty(config, key, schema, allocator)) {
      for (String column : KeyIndexes.keyColumns(schema)) {
        KeyIndexes.create(ds, column);
      }
      return ds.version();
    }
  }
}
