package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.lance.Dataset;

/**
 * The Lance branches of a data table (a graph branch that touched the table has one; its main is
 * the dataset's own): whether one exists, create (the first touch forks from the pinned version),
 * delete, identity and listing, and the fork lineage reads depend on (a branch forked from another
 * branch cannot use its inherited scalar indexes). Reached through {@link DataTables#branches()}.
 */
public final class TableBranches {

  private final StorageConfig config;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableBranches(StorageConfig config, LanceRoot lance) {
    this.lance = lance;
    this.config = config;
  }

  /** Whether the table's Lance branch {@code branch} (a dataset branch, never its main) exists. */
  public boolean exists(TableRef branch) {
    String name = named(branch);
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, TableRef.main(branch.location()), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().anyMatch(b -> b.getName().equals(name));
      }
    });
  }

  /** {@code branch}'s native branch name: these calls list or change a dataset's refs, never its main. */
  private static String named(TableRef branch) {
    return branch.nativeBranch().orElseThrow(
        () -> new IllegalArgumentException("a dataset's main is not one of its Lance branches: " + branch.location()));
  }

  /**
   * Creates the Lance branch {@code branch} of the table at {@code from} (a version of one of its
   * branches, or of its main). Lance clones {@code tree/<branch>} before it writes the branch
   * contents, so a failure may leave an unreferenced tree (reclaimed by the next create of the
   * name). The storage options go to Lance explicitly (see
   * {@link LanceSupport#createBranch(StorageConfig, Dataset, String, org.lance.Ref)}).
   *
   * <p>The call is made on the source branch's handle: lance-core 7.0.0 resolves the version of a
   * {@code Ref.ofBranch(source, v)} in the tree of the dataset handle it is called on, so from
   * main's handle it looked for main's {@code _versions/v.manifest} and failed (or would find the
   * wrong version).
   *
   * @throws RuntimeException from Lance, e.g. when the branch already exists or the version does not
   */
  public void create(TableAt from, String branch) {
    String location = from.location();
    // Handles of an earlier branch of this name (see PinnedHandles.forgetBranch) must not serve it.
    lance.handles.forgetBranch(TableRef.branch(location, branch));
    forgetFork(branch);
    lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, from.ref(), OptionalLong.empty());
          Dataset created = LanceSupport.createBranch(
              config, h.table, branch, LanceSupport.ref(from.nativeBranch(), OptionalLong.of(from.version())))) {
        // Only the side effect is wanted; the branch handle is closed at once.
      }
      return null;
    });
  }

  /**
   * Deletes the table's Lance branch {@code branch} (its contents first, then its tree).
   *
   * @throws RuntimeException from Lance, e.g. when the branch does not exist
   */
  public void delete(TableRef branch) {
    String name = named(branch);
    lance(() -> {
      lance.handles.forgetBranch(branch);
      try (TableHandle h = TableHandle.open(lance, config, TableRef.main(branch.location()), OptionalLong.empty())) {
        h.main.branches().delete(name);
      } finally {
        lance.handles.forgetBranch(branch);
        forgetFork(name);
      }
      return null;
    });
  }

  /**
   * The native identity of the table's Lance branch {@code branch} (its version/uuid chain, as
   * {@link NativeBranch#identifier()} spells it), or empty when no such ref exists. A delete and
   * re-create of the same name yields a different identity.
   */
  public Optional<String> identity(TableRef branch) {
    String name = named(branch);
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, TableRef.main(branch.location()), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().filter(b -> b.getName().equals(name)).findFirst()
            .map(b -> ManifestDataset.nativeBranch(b).identifier());
      }
    });
  }

  /** Every Lance branch of the table (its main is not listed), with parent and fork version. */
  public List<NativeBranch> list(String location) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, TableRef.main(location), OptionalLong.empty())) {
        return LanceSupport.listBranches(h.main).stream().map(ManifestDataset::nativeBranch).toList();
      }
    });
  }

  static long forkVersion(TableHandle h, String branch) {
    return LanceSupport.listBranches(h.main).stream().filter(b -> b.getName().equals(branch)).findFirst()
        .map(b -> b.getParentVersion()).orElse(0L);
  }

  /**
   * Per table branch ({@link #forkKey}), whether it was forked from another branch rather than from
   * main: Lance resolves the index files such a fork inherits under its parent branch's tree, where
   * they are not (lance-format/lance#7840, pinned by
   * {@code AbstractEnsureIndicesTest.aSecondGenerationForkCannotReadIndexesItsGrandparentBuiltUpstreamLimit}),
   * so every read there that used a scalar index would fail. A branch's parent never changes while
   * it exists; a create or delete of the name through this class forgets the answer.
   */
  private java.util.concurrent.ConcurrentHashMap<String, Boolean> forkedFromABranch() {
    return lance.forkedFromABranch; // per graph root (LanceRoot), not process-wide
  }

  private static String forkKey(String tableUri, String branch) {
    return tableUri + "#" + branch;
  }

  /** Forgets the answer for every table's branch of this name (a few listings again, never a wrong answer). */
  private void forgetFork(String branch) {
    forkedFromABranch().keySet().removeIf(k -> k.endsWith("#" + branch));
  }

  /** Whether {@code h} reads a table branch forked from another branch (one listing, then cached). */
  boolean forkedFromABranch(TableHandle h) {
    // A branch handle's uri is <table>/tree/<branch> (also when it is its own "main" handle).
    String uri = h.table.uri();
    int tree = uri.indexOf("/tree/");
    if (tree < 0) {
      return false;
    }
    String branch = uri.substring(tree + "/tree/".length());
    // A branch handle lists the root's branches too (the refs live at the root).
    return forkedFromABranch().computeIfAbsent(forkKey(uri.substring(0, tree), branch), k ->
        LanceSupport.listBranches(h.table).stream().filter(b -> b.getName().equals(branch)).findFirst()
            .flatMap(b -> b.getParentBranch()).map(p -> !p.isEmpty() && !p.equals("main")).orElse(false));
  }
}
