package dev.omnigraph.manifest;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;

/** Creates a new graph's empty {@code __manifest}, stamped at the served internal schema version. */
public final class ManifestBootstrap {

  /** The dataset key of the manifest under the graph root. */
  public static final String MANIFEST_KEY = ManifestDataset.KEY;

  private ManifestBootstrap() {}

  public static void create(StorageConfig config) {
    ManifestDataset.create(config, ManifestColumns.schema());
  }
}
