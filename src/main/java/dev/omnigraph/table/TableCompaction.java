package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.compaction.CompactionOptions;

/**
 * Physical compaction of one data table's Lance branch (the Optimize writer's compaction half) and
 * the cheap fragment statistics that decide when it is due. Reached through
 * {@link DataTables#compaction()}; nothing else in the code base calls Lance's {@code compact}.
 *
 * <p>Lance's compaction commits by itself with a Lance-minted transaction uuid (lance-java 7.0.0
 * exposes no staged compaction whose transaction a caller could pre-mint), so its outcome is
 * settled exactly like {@link DataTables#commit}: from the transactions re-read at every version
 * after the expected one, never from the type of an exception (docs/lance-write-layer.md,
 * "Compaction").
 */
public final class TableCompaction {

  /**
   * Lance operation names a compaction writes: {@code ReserveFragments} (fragment ids for the
   * rewritten files) and {@code Rewrite} (old fragments replaced by new ones holding the same rows,
   * same stable row ids). Neither changes a table's logical content.
   */
  static final Set<String> COMPACTION_OPERATIONS = Set.of("Rewrite", "ReserveFragments", "CreateIndex");

  /** A step whose recorded transaction lance-java cannot decode (see {@link #classify}). */
  static final String UNDECODABLE = "undecodable";

  /** The most versions one pass over a table may add: its index commits, ReserveFragments and Rewrite. */
  static final int MAX_COMPACTION_VERSIONS = 2 + KeyIndexes.MAX_INDEX_COMMITS;

  private final StorageConfig config;
  private final DataTables tables;

  TableCompaction(StorageConfig config, DataTables tables) {
    this.config = Objects.requireNonNull(config);
    this.tables = Objects.requireNonNull(tables);
  }

  /**
   * Fragment statistics of {@code version} (empty: latest) of the branch, from that version's
   * manifest only: fragment count and fragments carrying deletion files. No data file is read.
   */
  public TableStats stats(String location, Optional<String> nativeBranch, OptionalLong version) {
    if (version.isPresent()) {
      // An exact version: the shared pinned handle (a write's committed version is already held).
      return tables.atVersion(location, nativeBranch, version.getAsLong(), TableCompaction::stats);
    }
    return lance(() -> {
      try (BufferAllocator allocator = new RootAllocator();
          Dataset main = LanceSupport.open(tables.lanceRoot(), config, location, OptionalLong.empty(), allocator);
          Dataset at = nativeBranch.isEmpty() && version.isEmpty() ? null
              : main.checkout(LanceSupport.ref(nativeBranch, version))) {
        return stats(at == null ? main : at);
      }
    });
  }

  private static TableStats stats(Dataset d) {
    int fragments = 0;
    int withDeletions = 0;
    long physical = 0;
    long deleted = 0;
    // Fragment metadata comes from the version's manifest: no data file is read.
    for (Fragment f : d.getFragments()) {
      FragmentMetadata m = f.metadata();
      fragments++;
      physical += m.getPhysicalRows();
      if (m.getDeletionFile() != null) {
        withDeletions++;
        deleted += m.getNumDeletions();
      }
    }
    FragmentStats indexes = TableStatistics.fragmentStats(d);
    return new TableStats(d.version(), fragments, withDeletions, physical, deleted,
        TableStatistics.unindexedFragments(indexes), TableStatistics.staleIndexes(indexes));
  }

  /**
   * Compacts the branch (Lance {@code compact}, deletions materialized), which commits by itself
   * with a Lance-minted uuid, then classifies what landed from the transactions recorded after
   * {@code expectedVersion} (see {@link CompactionOutcome.Kind}).
   *
   * @throws TableHeadMoved when the live HEAD is not {@code expectedVersion} (nothing written)
   * @throws TableCommitUnknownException when the history cannot be re-read afterwards (the
   *     compaction may have landed)
   */
  public CompactionOutcome compact(String location, Optional<String> nativeBranch, long expectedVersion) {
    long live = tables.head(location, nativeBranch);
    if (live != expectedVersion) {
      throw new TableHeadMoved(location, nativeBranch, expectedVersion, live);
    }
    TableStats before = stats(location, nativeBranch, OptionalLong.of(expectedVersion));
    Exception failure = null;
    // Indexes first: Lance's compaction planner never merges fragments that different index
    // segments cover (or that one index covers and another does not), so compacting before the
    // fold left a table written by single-row writes in several fragments for good. Folded first,
    // every fragment is covered alike and compacts into one, and the compaction remaps the indexes
    // onto it (docs/lance-write-layer.md, "Index maintenance"). Derived, content-preserving state
    // on the same maintenance chain.
    try {
      tables.indexes().optimizeIndices(location, nativeBranch, expectedVersion);
    } catch (RuntimeException e) {
      failure = e;
    }
    if (failure == null) {
      try {
        lance(() -> {
          try (BufferAllocator allocator = new RootAllocator();
              Dataset main = LanceSupport.open(tables.lanceRoot(), config, location, OptionalLong.empty(), allocator);
              Dataset at = nativeBranch.isEmpty() ? null
                  : main.checkout(LanceSupport.ref(nativeBranch, OptionalLong.empty()))) {
            Dataset d = at == null ? main : at;
            // Deletion files are folded into the rewritten fragments (materialized), so the
            // deletion-file count drops along with the fragment count.
            d.compact(CompactionOptions.builder().withMaterializeDeletions(true).build());
          }
          return null;
        });
      } catch (RuntimeException e) {
        // Not inspected: what landed is decided below from the table's history.
        failure = e;
      }
    }
    try {
      return classify(location, nativeBranch, expectedVersion, before, failure);
    } catch (RuntimeException e) {
      if (failure != null) {
        e.addSuppressed(failure);
      }
      throw new TableCommitUnknownException(location, nativeBranch, expectedVersion, "(lance-minted compaction)", e);
    }
  }

  /**
   * Classifies the branch's history after {@code expectedVersion} as {@link #compact} does, without
   * compacting: what recovery of an interrupted optimize reads.
   */
  public CompactionOutcome compactionSince(String location, Optional<String> nativeBranch, long expectedVersion) {
    return classify(location, nativeBranch, expectedVersion,
        stats(location, nativeBranch, OptionalLong.of(expectedVersion)), null);
  }

  /** Reads HEAD and every transaction after {@code expectedVersion}, and classifies them. */
  CompactionOutcome classify(String location, Optional<String> nativeBranch, long expectedVersion, TableStats before,
      Exception failure) {
    long head = tables.head(location, nativeBranch);
    List<CompactionOutcome.Step> steps = new ArrayList<>();
    for (long v = expectedVersion + 1; v <= head; v++) {
      Optional<TxInfo> tx;
      try {
        tx = tables.transactionAt(location, nativeBranch, v);
      } catch (RuntimeException undecodable) {
        // lance-java 7.0.0 cannot decode a Rewrite that remapped an index (its native code calls a
        // RewrittenIndex constructor the Java class does not have), which every compaction of
        // fragments a key index covers records. Without this, the pass that made it can never be
        // classified and its sidecar blocks the branch's writes for good.
        steps.add(new CompactionOutcome.Step(v, UNDECODABLE, -1L, null));
        continue;
      }
      steps.add(new CompactionOutcome.Step(v, tx.map(TxInfo::operation).orElse("none"),
          tx.map(TxInfo::readVersion).orElse(-1L), tx.map(TxInfo::uuid).orElse(null)));
    }
    String cause = failure == null ? "the compact call returned normally"
        : "the compact call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    TableStats after = stats(location, nativeBranch, OptionalLong.of(head));
    CompactionOutcome.Kind kind = classify(expectedVersion, head, steps);
    return new CompactionOutcome(kind, expectedVersion, head, steps, before, after,
        kind + " " + location + nativeBranch.map(b -> "@" + b).orElse("") + " " + expectedVersion + " -> " + head
            + " " + steps + "; " + cause);
  }

  /** The bounded maintenance classification (shared with recovery, which has no sidecar uuid). */
  static CompactionOutcome.Kind classify(long expectedVersion, long head, List<CompactionOutcome.Step> steps) {
    if (head < expectedVersion) {
      return CompactionOutcome.Kind.BEHIND;
    }
    if (head == expectedVersion) {
      return CompactionOutcome.Kind.NOT_COMPACTED;
    }
    if (steps.size() > MAX_COMPACTION_VERSIONS) {
      return CompactionOutcome.Kind.FOREIGN;
    }
    for (CompactionOutcome.Step s : steps) {
      if (s.operation().equals(UNDECODABLE)) {
        // Accepted as this pass's own step, as the bounded classifier's single-writer-process model
        // allows (docs/maintenance.md): under the gates nothing else in the process commits to
        // this ref, and a decodable foreign operation is still refused below.
        continue;
      }
      // Every version is a compaction transaction planned on a version of this chain (the pin or a
      // later compaction step), never on something older than the pin.
      if (!COMPACTION_OPERATIONS.contains(s.operation()) || s.readVersion() < expectedVersion
          || s.readVersion() >= s.version()) {
        return CompactionOutcome.Kind.FOREIGN;
      }
    }
    if (steps.stream().allMatch(s -> s.operation().equals("ReserveFragments"))) {
      // Fragment ids reserved but no rewrite committed: content unchanged, nothing to publish
      // except that HEAD moved. Still content-preserving.
      return CompactionOutcome.Kind.RESERVED_ONLY;
    }
    return CompactionOutcome.Kind.COMPACTED;
  }
}
