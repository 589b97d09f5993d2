package dev.omnigraph.engine;

import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.ProgressListener;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.maintenance.Maintenance;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.write.MergeAttempt;
import dev.omnigraph.api.WriteResult;
import java.util.List;
import java.util.Optional;

/**
 * Graph branch operations of a handle: create, delete and merge. The facade ({@link Omnigraph})
 * authorizes each call and checks the writer lease first.
 */
final class BranchOps {

  private final StorageConfig config;
  private final GateManager gates;
  private final GraphManifest manifest;
  private final SchemaHolder schemas;
  private final Recovery recovery;
  private final Maintenance maintenance;
  private final MergeAttempt merges;
  private final AutoOptimizer optimizer;
  private final StoreEvidence evidence;

  BranchOps(StorageConfig config, GateManager gates, GraphManifest manifest, SchemaHolder schemas, Recovery recovery,
      Maintenance maintenance, MergeAttempt merges, AutoOptimizer optimizer, StoreEvidence evidence) {
    this.config = config;
    this.gates = gates;
    this.manifest = manifest;
    this.schemas = schemas;
    this.recovery = recovery;
    this.maintenance = maintenance;
    this.merges = merges;
    this.optimizer = optimizer;
    this.evidence = evidence;
  }

  /** Creates graph branch {@code created} from {@code from}. */
  BranchCreateOutput create(BranchName created, BranchName from, Optional<String> actor) {
    String name = created.value();
    String source = from.value();
    try (GateManager.Held held = gates.acquireExclusive(List.of(name, source), tableGates(name))) {
      evidence.call(() -> {
        recovery.refusePendingSchemaApply("branch create");
        return null;
      });
      evidence.call(() -> {
        manifest.createBranch(name, source, live -> {
          BranchNames.requireDisjoint(name, live);
          // A name used before may have left table refs behind (a delete interrupted after its
          // manifest step): the new branch's first write to such a table would find its ref taken.
          maintenance.reclaimBranchName(name);
        });
        return null;
      });
    }
    return new BranchCreateOutput(config.rootUri(), source, name, actor.orElse(null));
  }

  /** The table gates of every table of the accepted schema on graph branch {@code branch}. */
  private List<String> tableGates(String branch) {
    return schemas.current().ir().catalog().tableKeys().stream().map(k -> GateManager.tableGate(k, branch)).toList();
  }

  /** Deletes graph branch {@code name} and the data-table refs only it used. */
  BranchDeleteOutput delete(BranchName deleted, Optional<String> actor) {
    String name = deleted.value();
    // Seed, "Branch-delete orphaning exception": schema, the branch and every table gate of it.
    try (GateManager.Held held = gates.acquireExclusive(List.of(name), tableGates(name))) {
      evidence.call(() -> {
        recovery.refusePendingSchemaApply("branch delete");
        ManifestState last = manifest.state(name);
        manifest.deleteBranch(name);
        // The manifest ref was the authority: with it gone, the table refs this branch forked are
        // unreachable; a crash before they go leaves them to the next create of the name.
        Failpoints.hit(Failpoint.BRANCH_DELETE_BEFORE_TABLE_REFS);
        maintenance.removeRefsOfDeletedBranch(name, last);
        return null;
      });
    }
    return new BranchDeleteOutput(config.rootUri(), name, actor.orElse(null));
  }

  /**
   * Merges {@code source} into {@code into}; with {@code deleteBranch}, then runs {@code deleteSource}
   * (the facade's gated delete), reporting its failure instead of raising it.
   */
  dev.omnigraph.api.BranchMergeOutput merge(BranchName from, BranchName to, boolean deleteBranch, Optional<String> actor,
      dev.omnigraph.merge.MergeLimits limits, ProgressListener progress, Runnable deleteSource) {
    String source = from.value();
    String into = to.value();
    MergeAttempt.MergeResult result = evidence.call(() -> merges.run(from, to, actor,
        limits, progress));
    result.commit().ifPresent(c -> optimizer.afterWrite(into, new WriteResult(Optional.of(c.id()),
        c.manifestVersion(), result.rowCounts(), 1, result.rowCounts(), 1, Optional.of(c))));
    Boolean deleted = null;
    String deleteError = null;
    if (deleteBranch) {
      try {
        deleteSource.run();
        deleted = true;
      } catch (RuntimeException e) {
        // The merge is durable by now: the deletion's failure is reported, never raised.
        deleted = false;
        deleteError = ErrorKind.of(e).exposesMessage() ? e.getMessage() : "internal error; see the server log";
      }
    }
    return new dev.omnigraph.api.BranchMergeOutput(source, into, result.outcome(), actor.orElse(null), deleted,
        deleteError, result.commit().map(GraphCommit::id).orElse(null));
  }
}
