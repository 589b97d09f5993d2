package dev.omnigraph.manifest;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;

/** Test access to manifest internals that production code never needs. */
public final class ManifestTestSupport {

  private ManifestTestSupport() {}

  /** Creates an empty {@code __manifest} stamped at {@code stamp} (for the stamp-refusal tests). */
  public static void createStamped(StorageConfig config, int stamp) {
    ManifestDataset.create(config, ManifestColumns.schema(stamp));
  }
}
