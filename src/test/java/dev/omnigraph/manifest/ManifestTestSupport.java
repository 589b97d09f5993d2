package dev.omnigraph.manifest;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ManifestDataset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Test access to manifest internals that production code never needs. */
public final class ManifestTestSupport {

  private ManifestTestSupport() {}

  /** Creates an empty {@code __manifest} stamped at {@code stamp} (for the stamp-refusal tests). */
  public static void createStamped(StorageConfig config, int stamp) {
    ManifestDataset.create(config, ManifestColumns.schema(stamp));
  }

  /** Lineage rows the lineage reader decodes per batch. */
  public static int lineageBatchRows() {
    return Lineage.BATCH_ROWS;
  }

  /** Manifest rows decoded by this process so far. */
  public static long decodedRows() {
    return ManifestColumns.DECODED.sum();
  }

  /** Drops this process's cached manifest states and held handles of the root: the next read is cold. */
  public static void forgetProcessState(StorageConfig config) {
    dev.omnigraph.engine.EngineTestSupport.forgetManifestStates(config.rootUri());
  }

  /**
   * Deepens {@code branch}'s history by {@code commits} graph commits in one manifest version, laid
   * out as the lineage merges of that many one-row publishes would leave it
   * ({@link ManifestLayout#sizesAfter}): a 10,000-commit history in seconds instead of hours. The
   * commits chain from the branch's head; the last becomes the head. Table pins are unchanged, so
   * the graph's data reads exactly as before. The commits carry the new version as their manifest
   * version (time travel to any of them reads that version).
   */
  public static void deepenLineage(StorageConfig config, String branch, int commits) {
    dev.omnigraph.engine.EngineTestSupport.forgetManifestStates(config.rootUri());
    try (ManifestDataset m = ManifestDataset.open(config,
        branch.equals(ManifestState.MAIN) ? Optional.empty() : Optional.of(branch), OptionalLong.empty())) {
      ManifestLayout.Read read = ManifestLayout.read(m);
      if (read.stateFragment().isEmpty()) {
        throw new IllegalStateException("deepenLineage needs a manifest in the state-fragment layout");
      }
      List<String> chain = ManifestReader.parentChain(m, branch);
      ManifestState state = ManifestState.decode(branch, m.version(), read.rows());
      Optional<String> parent = state.effectiveHead(chain);
      long version = m.version() + 1;
      long t0 = System.currentTimeMillis() * 1000;
      // The existing lineage and the new commits, rewritten as the merges of that many one-row
      // publishes would leave them (ManifestLayout.sizesAfter), oldest fragment first.
      List<ManifestRow> all = new ArrayList<>();
      List<Integer> remove = new ArrayList<>();
      List<ManifestDataset.FragmentRef> old = ManifestLayout.lineageFragments(m, read.stateFragment());
      for (int i = old.size() - 1; i >= 0; i--) {
        List<ManifestRow> rows = new ArrayList<>();
        m.scanFragment(old.get(i).id(), List.of(), Optional.empty(), batch -> rows.addAll(ManifestColumns.decode(batch)));
        java.util.Collections.reverse(rows); // stored newest first
        all.addAll(0, rows);
        remove.add(old.get(i).id());
      }
      for (int i = 0; i < commits; i++) {
        String id = String.format("DEEP%022d", i);
        all.add(ManifestRows.commit(id, parent, Optional.empty(), Optional.of("deepen"), t0 + i, branch, version));
        parent = Optional.of(id);
      }
      List<ManifestRow> newState = ManifestLayout.apply(read.rows(),
          List.of(ManifestRows.head(branch, parent.orElseThrow(), version)));
      List<Function<BufferAllocator, VectorSchemaRoot>> fragments = new ArrayList<>();
      int from = 0;
      for (long size : ManifestLayout.sizesAfter(all.size())) {
        List<ManifestRow> slice = new ArrayList<>(all.subList(from, from + (int) size));
        java.util.Collections.reverse(slice); // each fragment stores its commits newest first
        fragments.add(allocator -> ManifestColumns.encode(slice, allocator));
        from += (int) size;
      }
      List<ManifestRow> stateRows = new ArrayList<>();
      stateRows.add(ManifestRows.stateMarker(version));
      stateRows.addAll(newState);
      fragments.add(allocator -> ManifestColumns.encode(stateRows, allocator));
      remove.add(read.stateFragment().get());
      m.rewrite(remove, List.of(), fragments);
    }
    dev.omnigraph.engine.EngineTestSupport.forgetManifestStates(config.rootUri());
  }
}
