package dev.omnigraph.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * The writer boundaries, as rules (the seed's forbidden-API guard): only {@code dev.omnigraph.table}
 * calls Lance write and commit APIs; only {@code dev.omnigraph.storage} talks to the AWS SDK.
 * Later rules (only the publisher writes {@code __manifest}, only recovery writes sidecars) join here.
 */
final class WriterBoundaryRules {

  private WriterBoundaryRules() {}

  /** Lance types whose only purpose is to write, stage or commit. */
  private static final Set<String> LANCE_WRITE_TYPES = Set.of(
      "org.lance.CommitBuilder",
      "org.lance.Transaction",
      "org.lance.Transaction$Builder",
      "org.lance.SourcedTransaction",
      "org.lance.SourcedTransaction$Builder",
      "org.lance.WriteDatasetBuilder",
      "org.lance.WriteFragmentBuilder",
      "org.lance.WriteParams",
      "org.lance.WriteParams$Builder",
      "org.lance.FragmentOperation",
      "org.lance.merge.MergeInsertParams",
      "org.lance.compaction.Compaction",
      "org.lance.compaction.CompactionOptions",
      "org.lance.cleanup.CleanupPolicy");

  /** Methods of Lance's read-side types that write, stage or commit. */
  private static final Set<String> LANCE_WRITE_METHODS = Set.of(
      "write", "create", "commit", "commitAppend", "commitOverwrite", "commitTransaction",
      "newTransactionBuilder", "mergeInsert", "delete", "deleteRows", "truncateTable", "restore",
      "createBranch", "shallowClone", "addColumns", "dropColumns", "alterColumns", "createIndex",
      "dropIndex", "optimizeIndices", "compact", "cleanupWithPolicy", "updateConfig",
      "deleteConfigKeys", "migrateManifestPathsV2", "drop", "mergeColumns", "updateColumns",
      "initializeMemWal", "commitExistingIndexSegments", "mergeIndexMetadata");

  static final DescribedPredicate<JavaClass> LANCE_WRITE_TYPE =
      DescribedPredicate.describe("a Lance write/commit type",
          c -> LANCE_WRITE_TYPES.contains(c.getName()) || c.getPackageName().equals("org.lance.operation"));

  static final DescribedPredicate<JavaAccess<?>> LANCE_WRITE_CALL =
      DescribedPredicate.describe("a Lance write/commit method",
          a -> a.getTargetOwner().getPackageName().startsWith("org.lance")
              && LANCE_WRITE_METHODS.contains(a.getName()));

  /**
   * STYLE habit 4: one retry loop. Nothing waits to retry but {@code util.BoundedRetry} (the CLI's
   * progress renderer sleeps to redraw, not to retry; the service's background loops use
   * schedulers).
   */
  static final ArchRule ONE_RETRY_LOOP =
      noClasses().that().doNotHaveFullyQualifiedName("dev.omnigraph.util.BoundedRetry")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.cli.Progress")
          .should().callMethod(Thread.class, "sleep", long.class)
          .orShould().callMethod(Math.class, "random")
          .because("bounded retries go through util.BoundedRetry with named limits and an injectable sleeper");

  static final ArchRule ONLY_TABLE_STORE_USES_LANCE_WRITE_TYPES =
      noClasses().that().resideOutsideOfPackage("dev.omnigraph.table..")
          .should().dependOnClassesThat(LANCE_WRITE_TYPE)
          .because("only the table-store layer stages and commits Lance transactions");

  static final ArchRule ONLY_TABLE_STORE_CALLS_LANCE_WRITE_METHODS =
      noClasses().that().resideOutsideOfPackage("dev.omnigraph.table..")
          .should().callMethodWhere(describeCall())
          .because("only the table-store layer calls Lance write and commit APIs");

  static final ArchRule ONLY_THE_MANIFEST_PACKAGE_TOUCHES_MANIFEST_DATASET =
      noClasses().that().resideOutsideOfPackages("dev.omnigraph.manifest..", "dev.omnigraph.table..")
          .should().dependOnClassesThat().haveFullyQualifiedName("dev.omnigraph.table.ManifestDataset")
          .because("only the publisher (and init/branch control beside it) writes __manifest");

  static final ArchRule ONLY_STORAGE_USES_THE_AWS_SDK =
      noClasses().that().resideOutsideOfPackage("dev.omnigraph.storage..")
          .should().dependOnClassesThat().resideInAPackage("software.amazon.awssdk..")
          .because("object-store I/O goes through the StorageAdapter");

  static final ArchRule STORAGE_DEPENDS_ON_NOTHING_ABOVE_IT =
      noClasses().that().resideInAPackage("dev.omnigraph.storage..")
          .should().dependOnClassesThat().resideInAnyPackage(
              "dev.omnigraph.table..", "dev.omnigraph.cli..", "dev.omnigraph.server..", "org.lance..")
          .because("storage is the bottom layer");

  static final ArchRule POLICY_DEPENDS_ONLY_ON_THE_API =
      noClasses().that().resideInAPackage("dev.omnigraph.engine.policy..")
          .should().dependOnClassesThat().resideInAnyPackage("dev.omnigraph.engine", "dev.omnigraph.engine.gqt..",
              "dev.omnigraph.server..",
              "dev.omnigraph.cli..", "dev.omnigraph.write..", "dev.omnigraph.table..", "dev.omnigraph.storage..",
              "io.quarkus..", "jakarta..")
          .because("the policy engine is shared by the engine gate, the server and the CLI tooling");

  /**
   * The layers server and cli may use besides their own: the engine's entry points, the api's
   * values and errors, and {@code util}, a leaf of generic helpers (JSON strictness, ULIDs, micros)
   * that depends on nothing in {@code dev.omnigraph}, so it exposes no layer below the engine.
   */
  private static final java.util.List<String> FRONT_END_MAY_USE = java.util.List.of(
      "dev.omnigraph.engine", "dev.omnigraph.api", "dev.omnigraph.server", "dev.omnigraph.cli", "dev.omnigraph.util");

  static final DescribedPredicate<JavaClass> BELOW_THE_ENGINE =
      DescribedPredicate.describe("classes below the engine (not engine, api or util)",
          c -> c.getPackageName().startsWith("dev.omnigraph.")
              && FRONT_END_MAY_USE.stream().noneMatch(p -> c.getPackageName().equals(p)
                  || c.getPackageName().startsWith(p + ".")));

  static final ArchRule SERVER_AND_CLI_USE_ONLY_ENGINE_AND_API =
      noClasses().that().resideInAnyPackage("dev.omnigraph.server..", "dev.omnigraph.cli..")
          .should().dependOnClassesThat(BELOW_THE_ENGINE)
          .because("the service and the CLI are front ends of the engine: they reach storage, writes, recovery,"
              + " leases and tables only through engine entry points and api types (move a needed value or error"
              + " type into dev.omnigraph.api, or add an engine entry point in a new engine/ file)");

  /** The sidecar store's methods that write a writer's recovery record. */
  private static final Set<String> SIDECAR_WRITES = Set.of("arm", "update", "retire", "delete", "deleteQuietly");

  static final DescribedPredicate<JavaAccess<?>> SIDECAR_WRITE_OR_PUBLISH =
      DescribedPredicate.describe("a sidecar write or a manifest publish",
          a -> a.getTargetOwner().getFullName().equals("dev.omnigraph.recovery.SidecarStore")
              && SIDECAR_WRITES.contains(a.getName())
              || a.getTargetOwner().getFullName().equals("dev.omnigraph.manifest.ManifestBatchPublisher")
              && a.getName().equals("publish"));

  /**
   * One commit template and one settle template (issue 35): every writer's arm, confirm, publish and
   * retire go through {@code write.CommitTemplate}, and every recovery's publish, state update and
   * sidecar delete through {@code recovery.SettleTemplate}; the sidecar store's own methods call
   * each other. Graph init publishes the first commit before any writer exists; repair adopts drift
   * by an operator's explicit request with no sidecar (docs/recovery.md).
   */
  static final ArchRule ONLY_THE_TEMPLATE_ARMS_AND_PUBLISHES =
      noClasses().that().doNotHaveFullyQualifiedName("dev.omnigraph.write.CommitTemplate")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.recovery.SettleTemplate")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.recovery.SidecarStore")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.manifest.ManifestBatchPublisher")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.engine.GraphInit")
          .and().doNotHaveFullyQualifiedName("dev.omnigraph.maintenance.Repair")
          .should().callMethodWhere(describeAnyCall(SIDECAR_WRITE_OR_PUBLISH))
          .because("the commit protocol is written once, in write.CommitTemplate, and its recovery once, in "
              + "recovery.SettleTemplate");

  /**
   * The static maps production may hold, each keyed by something that is not a graph root (or a
   * constant table): per-root state lives in the root's context ({@code engine.GraphRoot}, built by
   * the application's {@code engine.GraphRoots}), so two registries never share it by accident and
   * closing a root's last handle releases it.
   */
  static final Set<String> LISTED_STATIC_MAPS = Set.of(
      "dev.omnigraph.util.Failpoint.BY_NAME", // the catalog by wire name, a constant table
      "dev.omnigraph.engine.SchemaContract.IR_CACHE", // by schema identity, a content hash
      "dev.omnigraph.write.RowValidator.PATTERNS", // compiled regexes by pattern text
      "dev.omnigraph.storage.StoreRequests.COUNTS", // request counters by operation
      "dev.omnigraph.query.AstBuilder.PARAM_SCALARS", // constant table
      "dev.omnigraph.query.SearchCalls.TEXT_FUNCTIONS", // constant table
      "dev.omnigraph.table.StagedKeys.HASHES", // bounded, by data file (a uuid path)
      // Bounded LRU of open handles of exact dataset versions: the bound is the process's, so it is
      // one cache (a key names root, table and version only to be unique).
      "dev.omnigraph.table.PinnedHandles.ENTRIES");

  static final DescribedPredicate<JavaField> UNLISTED =
      DescribedPredicate.describe("not listed in LISTED_STATIC_MAPS",
          f -> !LISTED_STATIC_MAPS.contains(f.getOwner().getName() + "." + f.getName()));

  /** One graph-root context (issue 35): no process-wide static map keyed by a root. */
  static final ArchRule NO_STATIC_MAP_BUT_THE_LISTED =
      noFields().that().areStatic().and(UNLISTED)
          .should().haveRawType(DescribedPredicate.describe("a java.util.Map",
              (JavaClass t) -> t.isAssignableTo(java.util.Map.class)))
          .because("per-root state lives in engine.GraphRoot, handed down through constructors");

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall> describeAnyCall(
      DescribedPredicate<JavaAccess<?>> predicate) {
    return (DescribedPredicate) predicate;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static DescribedPredicate<com.tngtech.archunit.core.domain.JavaMethodCall> describeCall() {
    return (DescribedPredicate) LANCE_WRITE_CALL;
  }
}
