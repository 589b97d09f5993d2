package dev.omnigraph.engine;

import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.storage.StorageAdapter;

/**
 * What a front end may ask of a root without opening its graph (the service's readiness, the
 * CLI's doctor): cheap existence checks, no recovery, no lease.
 */
public final class RootContents {

  private RootContents() {}

  /**
   * Whether the root holds a graph (its manifest exists): one existence check.
   *
   * @throws dev.omnigraph.api.storage.StorageException when the store cannot answer
   */
  public static boolean holdsGraph(StorageAdapter storage) {
    return storage.exists(ManifestBootstrap.MANIFEST_KEY);
  }
}
