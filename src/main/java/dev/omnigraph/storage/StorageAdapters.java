package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;

/** Opens the {@link StorageAdapter} a {@link StorageConfig} names. */
public final class StorageAdapters {

  private StorageAdapters() {}

  /** A new adapter over {@code config.rootUri()}; the caller closes it. */
  public static StorageAdapter open(StorageConfig config) {
    return new CountingStorageAdapter(switch (config.backend()) {
      case LOCAL -> new LocalStorageAdapter(config);
      case S3 -> new S3StorageAdapter(config);
    });
  }
}
