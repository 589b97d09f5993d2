package dev.omnigraph.util;

import java.util.HashMap;
import java.util.Map;

/**
 * Every failpoint the code can hit, by name: a phase boundary of a writer or of recovery where a test
 * stops the process (docs/testing.md, "Failpoints"). A call site names a constant, so a mistyped name
 * does not compile; a test that names one as text ({@link #named}) fails at once on a name that is not
 * here. Hitting one does nothing unless test code installed an action ({@link Failpoints}).
 */
public enum Failpoint {
  BLOB_WRITE_AFTER_ARM("blob_write.after_arm"),
  BLOB_WRITE_AFTER_COMMITS("blob_write.after_commits"),
  BLOB_WRITE_AFTER_CONFIRM("blob_write.after_confirm"),
  BLOB_WRITE_AFTER_PUBLISH("blob_write.after_publish"),
  BLOB_WRITE_BEFORE_PUBLISH("blob_write.before_publish"),

  BRANCH_DELETE_BEFORE_TABLE_REFS("branch_delete.before_table_refs"),

  ENSURE_INDICES_AFTER_ARM("ensure_indices.after_arm"),
  ENSURE_INDICES_AFTER_COMMITS("ensure_indices.after_commits"),
  ENSURE_INDICES_AFTER_CONFIRM("ensure_indices.after_confirm"),
  ENSURE_INDICES_AFTER_PLAN("ensure_indices.after_plan"),
  ENSURE_INDICES_AFTER_PUBLISH("ensure_indices.after_publish"),
  ENSURE_INDICES_AFTER_REF_CREATE("ensure_indices.after_ref_create"),
  ENSURE_INDICES_AFTER_TABLE_COMMIT("ensure_indices.after_table_commit"),
  ENSURE_INDICES_BEFORE_PUBLISH("ensure_indices.before_publish"),

  MANIFEST_AFTER_PUBLISH_COMMIT("manifest.after_publish_commit"),
  MANIFEST_BRANCH_CREATE_AFTER_NATIVE("manifest.branch_create.after_native"),
  MANIFEST_BRANCH_DELETE_AFTER_NATIVE("manifest.branch_delete.after_native"),
  MANIFEST_BRANCH_DELETE_BEFORE_NATIVE("manifest.branch_delete.before_native"),

  MERGE_AFTER_ARM("merge.after_arm"),
  MERGE_AFTER_CAPTURE("merge.after_capture"),
  MERGE_AFTER_CHUNK_COMMIT("merge.after_chunk_commit"),
  MERGE_AFTER_COMMITS("merge.after_commits"),
  MERGE_AFTER_CONFIRM("merge.after_confirm"),
  MERGE_AFTER_PUBLISH("merge.after_publish"),
  MERGE_AFTER_REF_CREATE("merge.after_ref_create"),
  MERGE_BEFORE_PUBLISH("merge.before_publish"),

  OPTIMIZE_AFTER_ARM("optimize.after_arm"),
  OPTIMIZE_AFTER_COMMITS("optimize.after_commits"),
  OPTIMIZE_AFTER_COMPACT("optimize.after_compact"),
  OPTIMIZE_AFTER_CONFIRM("optimize.after_confirm"),
  OPTIMIZE_AFTER_PUBLISH("optimize.after_publish"),
  OPTIMIZE_BEFORE_PUBLISH("optimize.before_publish"),

  RECOVERY_AFTER_PUBLISH("recovery.after_publish"),
  RECOVERY_AFTER_RESTORE("recovery.after_restore"),
  RECOVERY_RECORD_AUDIT("recovery.record_audit"),
  RECOVERY_SIDECAR_CONFIRM("recovery.sidecar_confirm"),
  RECOVERY_SIDECAR_DELETE("recovery.sidecar_delete"),
  RECOVERY_SIDECAR_LIST("recovery.sidecar_list"),
  RECOVERY_SIDECAR_WRITE("recovery.sidecar_write"),

  REPAIR_AFTER_RESTORE("repair.after_restore"),

  REVERT_AFTER_ARM("revert.after_arm"),
  REVERT_AFTER_COMMITS("revert.after_commits"),
  REVERT_AFTER_CONFIRM("revert.after_confirm"),
  REVERT_AFTER_PUBLISH("revert.after_publish"),
  REVERT_AFTER_TABLE_COMMIT("revert.after_table_commit"),
  REVERT_BEFORE_PUBLISH("revert.before_publish"),

  SCHEMA_APPLY_AFTER_ARM("schema_apply.after_arm"),
  SCHEMA_APPLY_AFTER_COMMITS("schema_apply.after_commits"),
  SCHEMA_APPLY_AFTER_CONFIRM("schema_apply.after_confirm"),
  SCHEMA_APPLY_AFTER_PROMOTE_STATE("schema_apply.after_promote_state"),
  SCHEMA_APPLY_AFTER_PUBLISH("schema_apply.after_publish"),
  SCHEMA_APPLY_AFTER_STAGE("schema_apply.after_stage"),
  SCHEMA_APPLY_AFTER_TABLE_COMMIT("schema_apply.after_table_commit"),
  SCHEMA_APPLY_BEFORE_HARD_DROP("schema_apply.before_hard_drop"),
  SCHEMA_APPLY_BEFORE_PROMOTE("schema_apply.before_promote"),
  SCHEMA_APPLY_BEFORE_PUBLISH("schema_apply.before_publish"),

  WRITE_AFTER_ARM("write.after_arm"),
  WRITE_AFTER_COMMITS("write.after_commits"),
  WRITE_AFTER_CONFIRM("write.after_confirm"),
  WRITE_AFTER_PREPARE("write.after_prepare"),
  WRITE_AFTER_PUBLISH("write.after_publish"),
  WRITE_AFTER_REF_CREATE("write.after_ref_create"),
  WRITE_AFTER_TABLE_COMMIT("write.after_table_commit"),
  WRITE_BEFORE_PUBLISH("write.before_publish");

  /** The five phase boundaries the commit template hits, for each writer it drives. */
  public enum WriterPhases {
    WRITE(WRITE_AFTER_ARM, WRITE_AFTER_COMMITS, WRITE_AFTER_CONFIRM, WRITE_BEFORE_PUBLISH, WRITE_AFTER_PUBLISH),
    MERGE(MERGE_AFTER_ARM, MERGE_AFTER_COMMITS, MERGE_AFTER_CONFIRM, MERGE_BEFORE_PUBLISH, MERGE_AFTER_PUBLISH),
    SCHEMA_APPLY(SCHEMA_APPLY_AFTER_ARM, SCHEMA_APPLY_AFTER_COMMITS, SCHEMA_APPLY_AFTER_CONFIRM, SCHEMA_APPLY_BEFORE_PUBLISH, SCHEMA_APPLY_AFTER_PUBLISH),
    ENSURE_INDICES(ENSURE_INDICES_AFTER_ARM, ENSURE_INDICES_AFTER_COMMITS, ENSURE_INDICES_AFTER_CONFIRM, ENSURE_INDICES_BEFORE_PUBLISH, ENSURE_INDICES_AFTER_PUBLISH),
    OPTIMIZE(OPTIMIZE_AFTER_ARM, OPTIMIZE_AFTER_COMMITS, OPTIMIZE_AFTER_CONFIRM, OPTIMIZE_BEFORE_PUBLISH, OPTIMIZE_AFTER_PUBLISH),
    REVERT(REVERT_AFTER_ARM, REVERT_AFTER_COMMITS, REVERT_AFTER_CONFIRM, REVERT_BEFORE_PUBLISH, REVERT_AFTER_PUBLISH),
    BLOB_WRITE(BLOB_WRITE_AFTER_ARM, BLOB_WRITE_AFTER_COMMITS, BLOB_WRITE_AFTER_CONFIRM, BLOB_WRITE_BEFORE_PUBLISH,
        BLOB_WRITE_AFTER_PUBLISH);

    private final Failpoint afterArm;
    private final Failpoint afterCommits;
    private final Failpoint afterConfirm;
    private final Failpoint beforePublish;
    private final Failpoint afterPublish;

    WriterPhases(Failpoint afterArm, Failpoint afterCommits, Failpoint afterConfirm, Failpoint beforePublish,
        Failpoint afterPublish) {
      this.afterArm = afterArm;
      this.afterCommits = afterCommits;
      this.afterConfirm = afterConfirm;
      this.beforePublish = beforePublish;
      this.afterPublish = afterPublish;
    }

    /** Once the sidecar is durable, before the first effect. */
    public Failpoint afterArm() {
      return afterArm;
    }

    /** Once every table effect landed, before the sidecar is confirmed. */
    public Failpoint afterCommits() {
      return afterCommits;
    }

    /** Once the sidecar records the effects as confirmed, before revalidation. */
    public Failpoint afterConfirm() {
      return afterConfirm;
    }

    /** Just before the manifest compare-and-swap. */
    public Failpoint beforePublish() {
      return beforePublish;
    }

    /** Once the publish is durable, before the sidecar is retired. */
    public Failpoint afterPublish() {
      return afterPublish;
    }
  }

  private static final Map<String, Failpoint> BY_NAME = new HashMap<>();

  static {
    for (Failpoint f : values()) {
      BY_NAME.put(f.wireName, f);
    }
  }

  private final String wireName;

  Failpoint(String wireName) {
    this.wireName = wireName;
  }

  /** The name tests and crash-matrix reports use, e.g. {@code write.after_arm}. */
  public String wireName() {
    return wireName;
  }

  /** The failpoint of that name; an unknown name is refused, never ignored. */
  public static Failpoint named(String name) {
    Failpoint f = BY_NAME.get(name);
    if (f == null) {
      throw new IllegalArgumentException("no failpoint is named '" + name + "'");
    }
    return f;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
