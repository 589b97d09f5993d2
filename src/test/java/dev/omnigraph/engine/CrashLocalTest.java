package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The full crash matrix on a local directory. */
class CrashLocalTest extends AbstractCrashTest {

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("crash"));
  }

  @Override
  Stream<Arguments> crashCases() {
    return fullMatrix();
  }

  @Override
  Stream<Arguments> recoveryCrashCases() {
    return Stream.of(
        Arguments.of(Writer.MUTATION, "main", "write.after_commits", "recovery.after_restore"),
        Arguments.of(Writer.MUTATION, "main", "write.after_commits", "recovery.after_publish"),
        Arguments.of(Writer.MUTATION, "main", "write.after_commits", "recovery.record_audit"),
        Arguments.of(Writer.MUTATION, "main", "write.after_commits", "recovery.sidecar_delete"),
        Arguments.of(Writer.LOAD, "main", "write.after_table_commit", "recovery.after_restore"),
        Arguments.of(Writer.MUTATION, "main", "write.before_publish", "recovery.after_publish"),
        Arguments.of(Writer.MUTATION, "main", "write.before_publish", "recovery.record_audit"),
        Arguments.of(Writer.LOAD, "main", "write.before_publish", "recovery.sidecar_delete"),
        Arguments.of(Writer.LOAD, "main", "write.after_arm", "recovery.record_audit"),
        Arguments.of(Writer.MUTATION, FEATURE, "write.after_ref_create", "recovery.sidecar_delete"),
        Arguments.of(Writer.LOAD, FEATURE, "write.after_commits", "recovery.record_audit"),
        Arguments.of(Writer.MUTATION, FEATURE, "write.after_confirm", "recovery.after_publish"),
        Arguments.of(Writer.LOAD, FORKED, "write.after_commits", "recovery.after_restore"),
        Arguments.of(Writer.MUTATION, FORKED, "write.after_commits", "recovery.record_audit"));
  }
}
