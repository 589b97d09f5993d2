package dev.omnigraph.manifest;

import dev.omnigraph.Versions;
import dev.omnigraph.api.UnsupportedStorageVersion;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads manifest state: the stamp check, the one coherent scan, branch parent chains. */
public final class ManifestReader {

  private ManifestReader() {}

  /**
   * Refuses any stamp but the served one, before anything else of the graph is read; performs no
   * writes, so it is safe under a read-only open.
   */
  public static int checkStamp(StorageConfig config, ManifestDataset manifest) {
    String raw = manifest.schemaMetadata().get(ManifestColumns.STAMP_KEY);
    int stamp;
    try {
      stamp = raw == null ? 0 : Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new ManifestCorrupt(ManifestColumns.STAMP_KEY, "stamp is not an integer: " + raw);
    }
    if (stamp != Versions.INTERNAL_SCHEMA_VERSION) {
      throw new UnsupportedStorageVersion(config.rootUri(), stamp, Versions.INTERNAL_SCHEMA_VERSION);
    }
    return stamp;
  }

  /** Decodes the state of the handle's checked-out version (its state fragment; legacy: every row). */
  public static ManifestState read(ManifestDataset manifest, String branch) {
    return ManifestState.decode(branch, manifest.version(), ManifestLayout.read(manifest).rows());
  }

  /** Ancestor branches of {@code branch}, nearest first, ending with main. */
  public static List<String> parentChain(ManifestDataset manifest, String branch) {
    if (branch.equals(ManifestState.MAIN)) {
      return List.of();
    }
    return parentChain(manifest.branches(), branch);
  }

  /** Ancestor branches of {@code branch} in the native listing {@code live}, nearest first, ending with main. */
  static List<String> parentChain(List<NativeBranch> live, String branch) {
    if (branch.equals(ManifestState.MAIN)) {
      return List.of();
    }
    Map<String, NativeBranch> byName = new HashMap<>();
    for (NativeBranch b : live) {
      byName.put(b.name(), b);
    }
    List<String> chain = new ArrayList<>();
    Optional<String> parent = Optional.ofNullable(byName.get(branch)).flatMap(NativeBranch::parent);
    while (parent.isPresent() && !chain.contains(parent.get())) {
      chain.add(parent.get());
      parent = Optional.ofNullable(byName.get(parent.get())).flatMap(NativeBranch::parent);
    }
    chain.add(ManifestState.MAIN);
    return chain;
  }
}
