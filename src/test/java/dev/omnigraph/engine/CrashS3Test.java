package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The crash matrix on S3 (S3Mock). Every child JVM costs seconds of S3 round trips, so this runs a
 * representative subset: each write failpoint exactly once (both writers, main and a first-touch
 * graph branch, rollback of a partial and of a complete effect set, roll-forward on both), a halt
 * inside a restore and inside an interrupted first-touch rollback, and one in-process error
 * injection. The full matrix (every recovery failpoint, every injection) runs on the local backend
 * ({@link CrashLocalTest}); the S3-specific sidecar I/O faults are real HTTP errors in
 * {@link RecoveryS3Test}.
 */
class CrashS3Test extends AbstractCrashTest {

  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("crash");
  }

  @Override
  Stream<Arguments> crashCases() {
    return Stream.of(
        Arguments.of(Writer.MUTATION, "main", "recovery.sidecar_list"),
        Arguments.of(Writer.LOAD, "main", "write.after_prepare"),
        Arguments.of(Writer.MUTATION, "main", "recovery.sidecar_write"),
        Arguments.of(Writer.LOAD, "main", "write.after_arm"),
        Arguments.of(Writer.MUTATION, FEATURE, "write.after_ref_create"),
        Arguments.of(Writer.LOAD, "main", "write.after_table_commit"),
        Arguments.of(Writer.MUTATION, FORKED, "write.after_commits"),
        Arguments.of(Writer.LOAD, "main", "recovery.sidecar_confirm"),
        Arguments.of(Writer.LOAD, FEATURE, "write.after_confirm"),
        Arguments.of(Writer.MUTATION, "main", "write.before_publish"),
        Arguments.of(Writer.LOAD, "main", "write.after_publish"),
        Arguments.of(Writer.MUTATION, "main", "recovery.sidecar_delete"));
  }

  @Override
  Stream<Arguments> recoveryCrashCases() {
    return Stream.of(
        Arguments.of(Writer.MUTATION, "main", "write.after_table_commit", "recovery.after_restore"),
        Arguments.of(Writer.LOAD, FEATURE, "write.after_commits", "recovery.record_audit"));
  }

  @Override
  Stream<String> injectedErrorPoints() {
    return Stream.of("write.after_commits");
  }

  /** Optimize on S3: a halt after a compaction (rolled forward by the reopen). */
  @Override
  Stream<Arguments> optimizeCrashCases() {
    return Stream.of(Arguments.of("optimize.after_compact", null));
  }

  /** A Blob load on S3: a halt between its table commit and its confirm (rolled back). */
  @Override
  Stream<Arguments> blobLoadCrashCases() {
    return Stream.of(Arguments.of("write.after_table_commit", "RolledBack"));
  }

  /** A merge carrying Blob rows on S3: a halt after its confirm (rolled forward); the rollback runs locally. */
  @Override
  Stream<Arguments> blobMergeCrashCases() {
    return Stream.of(Arguments.of("merge.after_confirm", "RolledForward"));
  }

  /** Branch merge on S3: a halt inside its chain (rolled back) and after confirm (rolled forward). */
  @Override
  Stream<Arguments> mergeCrashCases() {
    return Stream.of(Arguments.of("merge.after_chunk_commit", "main", "RolledBack"),
        Arguments.of("merge.after_confirm", "second", "RolledForward"));
  }

  /**
   * Schema apply on S3: a halt between its table commits (rolled back: the version-one create removed,
   * the rewrite restored), after its publish (the acceptance completed by recovery) and before its
   * hard drop (completed on S3 too). The other seven points run on the local backend.
   */
  @Override
  Stream<Arguments> schemaApplyCrashCases() {
    return Stream.of(Arguments.of("schema_apply.after_table_commit", "RolledBack"),
        Arguments.of("schema_apply.after_publish", "RolledForward"),
        Arguments.of("schema_apply.before_hard_drop", "RolledForward"));
  }

  /**
   * EnsureIndices on S3: a halt between its table commits on main (rolled back: the indexed table
   * restored), after a first-touch ref was created on a branch (discarded: the ref removed) and after
   * its confirm on a branch (rolled forward). The other eleven points run on the local backend.
   */
  @Override
  Stream<Arguments> ensureCrashCases() {
    return Stream.of(Arguments.of("ensure_indices.after_table_commit", "main", "RolledBack"),
        Arguments.of("ensure_indices.after_ref_create", FEATURE, "Discarded"),
        Arguments.of("ensure_indices.after_confirm", FEATURE, "RolledForward"));
  }

  /**
   * Revert on S3: a halt between its table restores (rolled back) and after its confirm (rolled
   * forward). The other five cases run on the local backend.
   */
  @Override
  Stream<Arguments> revertCrashCases() {
    return Stream.of(Arguments.of("revert.after_table_commit", "RolledBack", null),
        Arguments.of("revert.after_confirm", "RolledForward", null));
  }

  /**
   * A Blob cell write on S3: a halt after its table commit (rolled back: the old bytes) and after its
   * confirm (rolled forward: the new bytes). The other four cases run on the local backend.
   */
  @Override
  Stream<Arguments> blobWriteCrashCases() {
    return Stream.of(Arguments.of("blob_write.after_commits", "RolledBack"),
        Arguments.of("blob_write.after_confirm", "RolledForward"));
  }
}
