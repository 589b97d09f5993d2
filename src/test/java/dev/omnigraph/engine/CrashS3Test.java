package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The crash matrix on S3 (S3Mock): every child JVM costs seconds of S3 round trips, so this runs a
 * representative subset in which every write and recovery failpoint still appears at least once,
 * for both writers and for a first-touch graph branch; the full matrix runs on the local backend.
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
        Arguments.of(Writer.MUTATION, "main", "write.after_prepare"),
        Arguments.of(Writer.LOAD, "main", "recovery.sidecar_write"),
        Arguments.of(Writer.MUTATION, "main", "write.after_arm"),
        Arguments.of(Writer.MUTATION, "main", "write.after_table_commit"),
        Arguments.of(Writer.LOAD, "main", "write.after_table_commit"),
        Arguments.of(Writer.LOAD, "main", "write.after_commits"),
        Arguments.of(Writer.MUTATION, "main", "recovery.sidecar_confirm"),
        Arguments.of(Writer.MUTATION, "main", "write.after_confirm"),
        Arguments.of(Writer.LOAD, "main", "write.before_publish"),
        Arguments.of(Writer.MUTATION, "main", "write.after_publish"),
        Arguments.of(Writer.LOAD, "main", "recovery.sidecar_delete"),
        Arguments.of(Writer.MUTATION, FEATURE, "write.after_ref_create"),
        Arguments.of(Writer.LOAD, FEATURE, "write.after_table_commit"),
        Arguments.of(Writer.LOAD, FEATURE, "write.after_confirm"));
  }

  @Override
  Stream<Arguments> recoveryCrashCases() {
    return Stream.of(
        Arguments.of(Writer.MUTATION, "main", "write.after_commits", "recovery.after_restore"),
        Arguments.of(Writer.LOAD, "main", "write.before_publish", "recovery.after_publish"),
        Arguments.of(Writer.MUTATION, "main", "write.after_table_commit", "recovery.record_audit"),
        Arguments.of(Writer.MUTATION, FEATURE, "write.after_ref_create", "recovery.sidecar_delete"));
  }
}
