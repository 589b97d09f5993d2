package dev.omnigraph.engine;

import dev.omnigraph.Versions;
import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.manifest.CommitCursor;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.read.AdjacencyCache;
import dev.omnigraph.read.GraphExport;
import dev.omnigraph.read.ReadRunner;
import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.DataTables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The reads of a handle: queries, exports, commit history, commit diffs and the change feed, each
 * over one captured state. The facade ({@link Omnigraph}) authorizes the call first; what depends on
 * the state read (a commit's branch, the actor's type scope) asks the {@code gate} passed in.
 */
final class GraphReads {

  private final StorageConfig config;
  private final StorageAdapter storage;
  private final GraphManifest manifest;
  private final DataTables tables;
  private final AdjacencyCache adjacency;
  private final SchemaHolder schemas;
  private final StoreEvidence evidence;

  GraphReads(StorageConfig config, StorageAdapter storage, GraphManifest manifest, DataTables tables,
      AdjacencyCache adjacency, SchemaHolder schemas, StoreEvidence evidence) {
    this.config = config;
    this.storage = storage;
    this.manifest = manifest;
    this.tables = tables;
    this.adjacency = adjacency;
    this.schemas = schemas;
    this.evidence = evidence;
  }

  private static String orMain(String branch) {
    return branch == null || branch.isBlank() ? BranchNames.MAIN : branch;
  }
  ReadOutput read(PolicyGate gate, Optional<BranchName> branch, Optional<CommitId> commitId, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets, Optional<String> actor) {
    ManifestState state;
    ReadOutput.Target target;
    Optional<String> head;
    String readBranch;
    SchemaContract contract = schemas.current();
    dev.omnigraph.schema.SchemaIr ir = contract.ir();
    if (commitId.isPresent()) {
      // Resolved once per root and remembered: a commit's state never changes.
      String id = commitId.get().value();
      GraphManifest.CommitState at = manifest.commitState(id).orElseThrow(() -> new NotFound("commit", id));
      GraphCommit c = at.commit();
      gate.check(actor, PolicyAction.READ, Optional.of(c.branch()), Optional.empty());
      state = at.state();
      // Time travel reads with the schema accepted when the commit was published: its table
      // versions have that schema's tables and columns.
      ir = contract.irAt(storage, c.manifestVersion());
      target = new ReadOutput.Target(null, c.id());
      head = Optional.of(c.id());
      readBranch = c.branch();
    } else {
      String b = branch.orElse(BranchName.MAIN).value();
      readBranch = b;
      BranchAuthority authority = manifest.captureForRead(b);
      state = authority.state();
      target = new ReadOutput.Target(b, null);
      head = authority.head();
    }
    return new ReadRunner(config.rootUri(), tables, adjacency, schemas.checkedReads())
        .run(ir, state, target, head, source, name, params, budgets,
            TypeScopes.admitTypes(gate, actor, PolicyAction.READ, Optional.of(readBranch)));
  }

  /**
   * How a read would run at the head of main ({@link ReadRunner#explain}): the plan, then whether the
   * column cache holds each scan's columns of the table versions main pins now. No table data is
   * read; main's state is captured, as a read captures it, only when the root's cache holds columns
   * at all (a fresh process, as the CLI's, reads nothing).
   */
  List<String> explain(String source, String name, com.fasterxml.jackson.databind.JsonNode params) {
    dev.omnigraph.schema.Catalog catalog = schemas.current().ir().catalog();
    if (dev.omnigraph.table.LanceRoot.columnCacheBytes() == 0) {
      return ReadRunner.explain(catalog, source, name, params, null);
    }
    if (!tables.columnsCached()) {
      return ReadRunner.explain(catalog, source, name, params, (table, columns) -> false);
    }
    ManifestState state = manifest.captureForRead(BranchNames.MAIN).state();
    return ReadRunner.explain(catalog, source, name, params, (table, columns) -> {
      dev.omnigraph.manifest.TablePin pin = state.tables().get(table);
      return pin != null && tables.columnsCached(pin.at(), columns);
    });
  }

  /** The export of {@code branch}'s state now, limited to the actor's type scope (authorized by the caller). */
  GraphExport export(PolicyGate gate, BranchName branch, List<String> typeNames, Optional<String> actor) {
    String b = branch.value();
    ManifestState state = evidence.call(() -> manifest.state(b));
    return TypeScopes.inTypeScope(gate, new GraphExport(tables, schemas.current().ir().catalog(), state, typeNames),
        !typeNames.isEmpty(), actor, PolicyAction.EXPORT, b);
  }

  CommitListOutput commitPage(BranchName branch, CommitPage page, Optional<CommitCursor> after) {
    BranchAuthority authority = manifest.capture(branch.value());
    // The lineage is read newest first and only as far as this page (and the commits before
    // the cursor) need: a page costs what it shows, not what the history holds.
    List<GraphCommit> rows = new ArrayList<>();
    manifest.lineage(authority, c -> {
      if (after.isEmpty() || after.get().isAfter(c)) {
        rows.add(c);
      }
      return rows.size() <= page.limit();
    });
    boolean more = rows.size() > page.limit();
    List<GraphCommit> shown = more ? rows.subList(0, page.limit()) : rows;
    String next = more ? CommitCursor.of(shown.get(shown.size() - 1)).encode() : null;
    return new CommitListOutput(shown.stream().map(GraphReads::toOutput).toList(), next);
  }

  /**
   * The diff, after {@code check} accepted the commit and gave the filter of its rows (the change feed
   * checked its branch already, and filters its blocks itself).
   */
  dev.omnigraph.api.CommitChangesOutput commitChanges(CommitId commitId, dev.omnigraph.api.ChangesPage page,
      java.util.function.Function<GraphCommit,
          java.util.function.UnaryOperator<List<dev.omnigraph.api.CommitChangesOutput.EntityChange>>> check) {
    String id = commitId.value();
    return evidence.call(() -> {
      GraphManifest.CommitState at = manifest.commitState(id).orElseThrow(() -> new NotFound("commit", id));
      GraphCommit c = at.commit();
      java.util.function.UnaryOperator<List<dev.omnigraph.api.CommitChangesOutput.EntityChange>> inScope =
          check.apply(c);
      if (c.parent().isEmpty()) {
        throw new dev.omnigraph.api.ChangeDiffRefused(dev.omnigraph.api.ChangeDiffRefused.Reason.PARENTLESS_COMMIT,
            c.id(), Optional.empty(), "commit " + c.id() + " has no parent to diff against (the genesis commit)");
      }
      GraphManifest.CommitState parentAt = manifest.commitState(c.parent().get()).orElseThrow(() -> new NotFound(
          "commit", c.parent().get(), "the first parent of " + c.id()));
      GraphCommit parent = parentAt.commit();
      ManifestState before = parentAt.state();
      ManifestState after = at.state();
      SchemaContract contract = schemas.current();
      dev.omnigraph.schema.SchemaIr was = contract.irAt(storage, parent.manifestVersion());
      dev.omnigraph.schema.SchemaIr is = contract.irAt(storage, c.manifestVersion());
      if (!was.identity().equals(is.identity())) {
        // A schema apply's commit: rows of different schemas have no row diff (the reference's
        // schema_boundary); its tables' contents did not change, only their shape.
        throw new dev.omnigraph.api.ChangeDiffRefused(dev.omnigraph.api.ChangeDiffRefused.Reason.SCHEMA_BOUNDARY,
            c.id(), Optional.empty(), "commit " + c.id() + " applied a schema change (" + was.identity().substring(0, 12)
            + " -> " + is.identity().substring(0, 12) + "); rows are not diffed across it: read the commits before and"
            + " after it instead");
      }
      dev.omnigraph.api.CommitChangesOutput out = new dev.omnigraph.read.CommitChanges(tables,
          is.catalog()).page(c, before, after, page);
      return new dev.omnigraph.api.CommitChangesOutput(out.cause(), inScope.apply(out.changes()), out.nextPageToken());
    });
  }

  /** One poll of {@code branch}'s change feed, limited to the actor's type scope (authorized by the caller). */
  dev.omnigraph.api.ChangeFeedOutput changes(PolicyGate gate, BranchName on, Optional<String> cursor,
      Optional<String> start, Optional<String> pageToken, dev.omnigraph.api.ChangesPage filter, Optional<String> actor) {
    String branch = on.value();
    ChangeFeed.History history = new ChangeFeed.History() {
      @Override
      public Optional<String> head(String b) {
        return evidence.call(() -> manifest.capture(b)).head();
      }

      @Override
      public java.util.Map<String, String> firstParents(String b) {
        java.util.Map<String, String> parents = new java.util.HashMap<>();
        evidence.call(() -> {
          manifest.lineage(manifest.capture(b), c -> {
            parents.put(c.id(), c.parent().orElse(null));
            return true;
          });
          return null;
        });
        return parents;
      }

      @Override
      public dev.omnigraph.api.CommitChangesOutput changes(String commitId, dev.omnigraph.api.ChangesPage page) {
        // An id off the branch's own lineage, looked up as any read's commit is.
        return commitChanges(CommitId.existing(commitId), page, c -> changes -> changes);
      }
    };
    java.util.function.UnaryOperator<List<dev.omnigraph.api.CommitChangesOutput.EntityChange>> inScope =
        TypeScopes.changesInScope(gate, schemas.current().ir().catalog(), actor, orMain(branch), filter);
    dev.omnigraph.api.ChangeFeedOutput out = ChangeFeed.poll(history, branch, cursor, start, pageToken, filter);
    return new dev.omnigraph.api.ChangeFeedOutput(out.blocks().stream()
        .map(b -> new dev.omnigraph.api.ChangeFeedOutput.Block(b.cause(), inScope.apply(b.changes()))).toList(),
        out.cursor(), out.caughtUp(), out.nextPageToken());
  }

  /** The baseline handshake of {@code branch}, limited to the actor's type scope (authorized by the caller). */
  Omnigraph.ChangeBaseline changeBaseline(PolicyGate gate, BranchName on, dev.omnigraph.api.ChangesPage scope,
      Optional<String> actor) {
    String branch = on.value();
    BranchAuthority authority = evidence.call(() -> manifest.capture(branch));
    dev.omnigraph.schema.Catalog catalog = schemas.current().ir().catalog();
    // Validates the type names (400 for an unknown one) before anything is streamed.
    GraphExport all = new GraphExport(tables, catalog, authority.state(),
        List.copyOf(scope.types()));
    Optional<GraphExport> export = Optional.of(all);
    if (!scope.kinds().isEmpty()) {
      List<String> names = new ArrayList<>();
      boolean anyType = scope.types().isEmpty();
      if (scope.kinds().contains("node")) {
        catalog.nodes().values().stream().map(n -> n.name()).filter(n -> anyType || scope.types().contains(n))
            .forEach(names::add);
      }
      if (scope.kinds().contains("edge")) {
        catalog.edges().values().stream().map(e -> e.name())
            .filter(e -> anyType || scope.types().stream().anyMatch(t -> t.equalsIgnoreCase(e))).forEach(names::add);
      }
      // An empty list would mean every type: a scope that selects none streams no rows.
      export = names.isEmpty() ? Optional.empty()
          : Optional.of(new GraphExport(tables, catalog, authority.state(), names));
    }
    export = export.map(e -> TypeScopes.inTypeScope(gate, e, !scope.types().isEmpty(), actor, PolicyAction.EXPORT, orMain(branch)));
    String head = authority.head().orElseThrow(() -> new NotFound("commit", "head of " + branch));
    String cursor = ChangeFeed.cursor(branch, ChangeFeed.sorted(scope.kinds()), ChangeFeed.sorted(scope.types()),
        ChangeFeed.opsOf(scope.ops()), Optional.of(head));
    return new Omnigraph.ChangeBaseline(export.map(e -> e), head, cursor);
  }

  static SnapshotOutput toSnapshot(ManifestState state) {
    List<SnapshotOutput.Dataset> datasets = new ArrayList<>();
    for (TablePin pin : state.tables().values()) {
      datasets.add(new SnapshotOutput.Dataset(pin.entityKind(), pin.typeName(), pin.location(), pin.version(),
          pin.rowCount(), pin.nativeBranch().orElse(null)));
    }
    datasets.sort(Comparator.comparing(SnapshotOutput.Dataset::entityKind)
        .thenComparing(SnapshotOutput.Dataset::typeName));
    return new SnapshotOutput(state.branch(), state.manifestVersion(), Versions.INTERNAL_SCHEMA_VERSION, datasets);
  }

  static CommitOutput toOutput(GraphCommit c) {
    // The reference spells main as the absence of graph-branch metadata (null), every other branch by name.
    String branch = c.branch().equals(ManifestState.MAIN) ? null : c.branch();
    return new CommitOutput(c.id(), branch, c.manifestVersion(), c.parent().orElse(null),
        c.mergedParent().orElse(null), c.actor().orElse(null), c.createdAtMicros());
  }
}
