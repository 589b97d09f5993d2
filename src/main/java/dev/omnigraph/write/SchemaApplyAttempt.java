package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.UncoveredDrift;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.SchemaApplyBlocked;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.api.UnsupportedSchemaChange;
import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.BranchAuthority;
import dev.omnigraph.api.GraphCommit;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.recovery.RecoverySidecar;
import dev.omnigraph.recovery.WriterKind;
import dev.omnigraph.recovery.SchemaApplyRecovery;
import dev.omnigraph.recovery.SchemaContracts;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.schema.SchemaPlanner;
import dev.omnigraph.table.CommitOutcome;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.util.Failpoint;
import dev.omnigraph.util.Failpoints;
import dev.omnigraph.util.Ulid;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The SchemaApply writer (docs/schema-evolution.md; its sidecar: docs/recovery.md, "Schema apply
 * sidecars"). On main only, with the schema gate held exclusively (so concurrent applies, and every
 * writer of the process, serialise behind it), main's branch gate and every table gate of the
 * accepted and desired schemas:
 * <ol>
 *   <li>refuse what cannot apply, writing nothing: a pending sidecar ({@link RecoveryRequired}),
 *       a branch other than main ({@link SchemaApplyBlocked}, the reference's rule), an unsupported
 *       plan ({@link UnsupportedSchemaChange}), existing rows that break an added constraint
 *       ({@link ConstraintViolation}, naming the row), a live HEAD off its pin or a dataset at a new
 *       type's path ({@link UncoveredDrift});
 *   <li>stage: an exact Overwrite per table whose columns change (added null, renamed, dropped;
 *       streamed), an exact version-one create per new type, each with a pre-minted uuid; the
 *       target schema's contract files, durable but not accepted;
 *   <li>arm the v9 sidecar (protocol_v7: accepted and target identities, the effects, the complete
 *       registration/rename/tombstone delta, hard drops), commit each effect with zero retries,
 *       confirm, publish once with the exact graph head, accept the target schema, run hard drops,
 *       retire the sidecar.
 * </ol>
 * A pure type rename is metadata only: same stable id, incarnation, path and Lance version, only
 * registered under its new key. Any failure after arming is {@link RecoveryRequired}; recovery
 * completes or rolls back the apply from the sidecar ({@code SchemaApplyRecovery}).
 */
public final class SchemaApplyAttempt {

  private static final String MAIN = ManifestState.MAIN;

  /**
   * What an apply did.
   *
   * @param steps the plan's steps (drops in the mode they ran)
   * @param manifestVersion main's manifest version after the apply (unchanged when nothing applied)
   * @param commit the published commit; empty when the schemas were equal
   * @param rowCounts rows of every table the apply rewrote or created
   * @param hardDropped datasets whose earlier versions (or whole data) a hard drop removed
   */
  public record Result(List<SchemaStep> steps, long manifestVersion, Optional<GraphCommit> commit,
      Map<String, Long> rowCounts, List<String> hardDropped) {}

  private final WriterParts parts;
  private final SchemaContracts contracts;

  public SchemaApplyAttempt(WriterParts parts, SchemaContracts contracts) {
    this.parts = java.util.Objects.requireNonNull(parts);
    this.contracts = java.util.Objects.requireNonNull(contracts);
  }

  /** Plans and applies the migration to {@code desiredSource}; see the class comment. */
  public Result run(String desiredSource, boolean allowDataLoss, Optional<String> actor) {
    Catalog desiredWithHints = SchemaParser.parse(desiredSource);
    parts.recovery().heal(MAIN);
    SchemaIr planned = parts.accepted().get();
    Set<TableKey> keys = new TreeSet<>(planned.catalog().tableKeys());
    keys.addAll(desiredWithHints.tableKeys());
    try (GateManager.Held held = parts.gates().acquireExclusive(List.of(MAIN),
        keys.stream().map(k -> GateManager.tableGate(k, MAIN)).toList())) {
      SchemaIr now = parts.accepted().get();
      String live = contracts.liveIdentity();
      if (!live.equals(now.identity())) {
        // Another process accepted a schema this process has not read: planning against either
        // would be a guess. Nothing was written; reopening reads the live one.
        throw new ReadSetChanged(new dev.omnigraph.api.ReadSetMember.Schema(), Optional.of(now.identity()), Optional.of(live));
      }
      // An apply of this process accepted since `planned` was read is simply the base now: the
      // plan below is made under the exclusive schema gate, so concurrent applies serialise, the
      // later one planning against the earlier one's schema. (The gate set taken from `planned`
      // suffices: no writer holds a table gate without the schema gate.)
      // A schema apply is graph-global: any unresolved intent anywhere must be settled first.
      parts.template().barrier(pending -> true, "a schema apply");
      List<String> branches = parts.manifest().branches().stream().map(b -> b.name()).sorted().toList();
      if (!branches.isEmpty()) {
        throw new SchemaApplyBlocked(branches);
      }
      List<SchemaStep> steps = withDropMode(SchemaPlanner.plan(now.catalog(), desiredWithHints), allowDataLoss);
      List<SchemaStep.UnsupportedChange> unsupported = steps.stream()
          .filter(s -> s instanceof SchemaStep.UnsupportedChange).map(s -> (SchemaStep.UnsupportedChange) s).toList();
      if (!unsupported.isEmpty()) {
        throw new UnsupportedSchemaChange(unsupported);
      }
      BranchAuthority authority = parts.manifest().capture(MAIN);
      if (steps.isEmpty()) {
        return new Result(steps, authority.manifestVersion(), Optional.empty(), Map.of(), List.of());
      }
      Plan plan = plan(now, desiredWithHints, steps, authority, allowDataLoss);
      Failpoints.hit(Failpoint.SCHEMA_APPLY_AFTER_STAGE);
      contracts.stage(desiredSource, plan.target);
      return parts.template().commit(new ApplyPlan(now, plan, authority, actor, steps));
    }
  }

  private static List<SchemaStep> withDropMode(List<SchemaStep> steps, boolean hard) {
    if (!hard) {
      return steps;
    }
    List<SchemaStep> out = new ArrayList<>();
    for (SchemaStep s : steps) {
      if (s instanceof SchemaStep.DropType d) {
        out.add(new SchemaStep.DropType(d.typeKind(), d.name(), SchemaStep.DropMode.HARD));
      } else if (s instanceof SchemaStep.DropProperty d) {
        out.add(new SchemaStep.DropProperty(d.typeKind(), d.typeName(), d.propertyName(), SchemaStep.DropMode.HARD));
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** Everything the apply will do, staged and identity-bearing, before the sidecar is armed. */
  private static final class Plan {
    SchemaIr target;
    final List<RecoverySidecar.TableIntent> intents = new ArrayList<>();
    final List<StagedWrite> staged = new ArrayList<>();
    final List<TableKey> creates = new ArrayList<>();
    final List<RecoverySidecar.TableRef> registrations = new ArrayList<>();
    final List<RecoverySidecar.PointerPin> pointers = new ArrayList<>();
    final List<RecoverySidecar.TableRef> tombstones = new ArrayList<>();
    final List<RecoverySidecar.HardDrop> hardDrops = new ArrayList<>();
  }

  private Plan plan(SchemaIr now, Catalog desiredWithHints, List<SchemaStep> steps, BranchAuthority authority,
      boolean allowDataLoss) {
    Catalog desired = SchemaPlanner.withoutRenameHints(desiredWithHints);
    Map<TableKey, TableKey> typeRenames = new TreeMap<>(); // new key -> old key
    for (SchemaStep s : steps) {
      if (s instanceof SchemaStep.RenameType r && r.typeKind() != SchemaStep.TypeKind.INTERFACE) {
        TableKey.Kind kind = r.typeKind() == SchemaStep.TypeKind.NODE ? TableKey.Kind.NODE : TableKey.Kind.EDGE;
        typeRenames.put(new TableKey(kind, r.to()), new TableKey(kind, r.from()));
      }
    }
    // Renamed properties keep their stable property ids (the reference's stable_property_id).
    Map<TableKey, Map<String, String>> propertyRenames = new TreeMap<>();
    for (TableKey key : desired.tableKeys()) {
      TableKey from = typeRenames.getOrDefault(key, key);
      if (now.table(from).isPresent()) {
        Map<String, String> renamed = new TreeMap<>();
        sourceColumns(now.catalog(), from, desiredWithHints, key).forEach((to, source) -> {
          if (!to.equals(source)) {
            renamed.put(to, source);
          }
        });
        propertyRenames.put(key, renamed);
      }
    }
    // A soft-dropped type declared again is revived: the same identity and dataset, at its last pin
    // (its data comes back), when that dataset is still there exactly as it was dropped. Otherwise
    // (a hard drop removed it, or it moved since) the type is a new, empty incarnation.
    ManifestState state = authority.state();
    Map<TableKey, TablePin> revived = new TreeMap<>();
    for (SchemaIr.TableEntry r : now.retiredTables()) {
      TableKey key = r.tableKey();
      TablePin last = state.retired().get(new dev.omnigraph.manifest.TableIdentity(r.stableTableId(),
          r.incarnationId()));
      if (!desired.tableKeys().contains(key) || typeRenames.containsKey(key) || last == null
          || last.nativeBranch().isPresent() || !parts.tables().datasetExists(last.location())
          || parts.tables().head(TableRef.main(last.location())) != last.version()) {
        continue;
      }
      revived.put(key, last);
    }
    Plan plan = new Plan();
    plan.target = SchemaIr.evolve(now, desired, Set.of(), typeRenames, propertyRenames, revived.keySet());
    Set<TableKey> carried = new TreeSet<>();
    for (SchemaIr.TableEntry entry : plan.target.tables()) {
      TableKey key = entry.tableKey();
      TableKey from = typeRenames.getOrDefault(key, key);
      Schema arrow = Effects.schemaOf(desired, key);
      if (revived.containsKey(key)) {
        planRevival(plan, entry, arrow, revived.get(key), desired);
        continue;
      }
      if (now.table(from).isEmpty()) {
        planCreate(plan, entry, arrow);
        continue;
      }
      carried.add(from);
      TablePin pin = state.tables().get(from);
      if (pin == null || !pin.identity().equals(new dev.omnigraph.manifest.TableIdentity(entry.stableTableId(),
          entry.incarnationId())) || pin.nativeBranch().isPresent()) {
        throw new IllegalStateException("schema apply expected " + from + " pinned on main at its accepted identity "
            + entry.stableTableId() + "/" + entry.incarnationId() + ", found " + pin);
      }
      long live = parts.tables().head(TableRef.main(pin.location()).at(pin.version()));
      if (live != pin.version()) {
        throw new UncoveredDrift(from.toString(), "live HEAD is version " + live + " but the manifest pins " + pin.version());
      }
      Map<String, String> sourceOf = sourceColumns(now.catalog(), from, desiredWithHints, key);
      Schema before = Effects.schemaOf(now.catalog(), from);
      boolean rewrite = !before.equals(arrow)
          || sourceOf.entrySet().stream().anyMatch(e -> !e.getKey().equals(e.getValue()));
      validateAdded(now.catalog(), desired, from, key, pin, sourceOf);
      if (rewrite) {
        String uuid = UUID.randomUUID().toString();
        Map<String, Long> revivedFrom = revivedColumns(pin, arrow, sourceOf);
        StagedWrite staged = parts.tables().staging().stageSchemaRewrite(pin.at(), arrow, sourceOf, revivedFrom, uuid);
        plan.staged.add(staged);
        plan.intents.add(new RecoverySidecar.TableIntent(key, entry.stableTableId(), entry.incarnationId(),
            pin.location(), null, pin.version(), pin.version(), uuid, pin.version() + 1, staged.insertedRows(), false,
            null, null));
        boolean dropsColumns = before.getFields().stream().map(Field::getName)
            .anyMatch(name -> !sourceOf.containsValue(name));
        if (allowDataLoss && dropsColumns) {
          plan.hardDrops.add(new RecoverySidecar.HardDrop(key, pin.location(), false, pin.version() + 1));
        }
      } else if (!from.equals(key)) {
        plan.pointers.add(new RecoverySidecar.PointerPin(key, entry.stableTableId(), entry.incarnationId(),
            pin.location(), null, pin.version(), pin.rowCount()));
      }
      if (!from.equals(key)) {
        plan.registrations.add(new RecoverySidecar.TableRef(key, entry.stableTableId(), entry.incarnationId(),
            pin.location()));
      }
    }
    for (SchemaIr.TableEntry old : now.tables()) {
      if (carried.contains(old.tableKey())) {
        continue;
      }
      TablePin pin = state.tables().get(old.tableKey());
      String location = pin != null ? pin.location() : old.datasetPath();
      plan.tombstones.add(new RecoverySidecar.TableRef(old.tableKey(), old.stableTableId(), old.incarnationId(),
          location));
      if (allowDataLoss) {
        plan.hardDrops.add(new RecoverySidecar.HardDrop(old.tableKey(), location, true, 0));
      }
    }
    return plan;
  }

  /** Versions searched back for a soft-dropped property declared again (cleanup bounds them anyway). */
  static final int REVIVAL_SEARCH_VERSIONS = 256;

  /**
   * A property the accepted schema lacks but an earlier version of the table still has, with the same
   * type (a soft drop declared again): column → the latest such version, whose values come back.
   */
  private Map<String, Long> revivedColumns(TablePin pin, Schema target, Map<String, String> sourceOf) {
    Map<String, Field> wanted = new TreeMap<>();
    for (Field f : target.getFields()) {
      if (!sourceOf.containsKey(f.getName())) {
        wanted.put(f.getName(), f);
      }
    }
    Map<String, Long> out = new TreeMap<>();
    if (wanted.isEmpty()) {
      return out;
    }
    List<Long> versions = parts.tables().versions().list(TableRef.main(pin.location()));
    int searched = 0;
    for (int i = versions.size() - 1; i >= 0 && searched < REVIVAL_SEARCH_VERSIONS && out.size() < wanted.size();
        i--) {
      long v = versions.get(i);
      if (v >= pin.version()) {
        continue;
      }
      searched++;
      for (Field had : parts.tables().arrowSchema(pin.ref().at(v)).getFields()) {
        Field w = wanted.get(had.getName());
        if (w != null && !out.containsKey(had.getName()) && w.getType().equals(had.getType())
            && w.getChildren().size() == had.getChildren().size()) {
          out.put(had.getName(), v);
        }
      }
    }
    return out;
  }

  /**
   * A soft-dropped type declared again: registered again under its old identity (the tombstone is
   * superseded), at its last pin, rewritten only if its columns differ from the declaration's (kept
   * by name, new ones null). Its rows are checked against every constraint it declares now.
   */
  private void planRevival(Plan plan, SchemaIr.TableEntry entry, Schema arrow, TablePin last, Catalog desired) {
    TableKey key = entry.tableKey();
    Schema before = parts.tables().arrowSchema(last.at());
    Set<String> had = new TreeSet<>();
    before.getFields().forEach(f -> had.add(f.getName()));
    Map<String, String> sourceOf = new LinkedHashMap<>();
    for (Field f : arrow.getFields()) {
      if (had.contains(f.getName())) {
        sourceOf.put(f.getName(), f.getName());
      }
    }
    boolean rewrite = before.getFields().size() != arrow.getFields().size();
    for (int i = 0; !rewrite && i < arrow.getFields().size(); i++) {
      Field a = arrow.getFields().get(i);
      Field b = before.getFields().get(i);
      rewrite = !a.getName().equals(b.getName()) || !a.getType().equals(b.getType()) || a.isNullable() != b.isNullable();
    }
    validateAll(desired, key, last, sourceOf);
    if (rewrite) {
      String uuid = UUID.randomUUID().toString();
      StagedWrite staged = parts.tables().staging().stageSchemaRewrite(last.at(), arrow, sourceOf, uuid);
      plan.staged.add(staged);
      plan.intents.add(new RecoverySidecar.TableIntent(key, entry.stableTableId(), entry.incarnationId(),
          last.location(), null, last.version(), last.version(), uuid, last.version() + 1, staged.insertedRows(),
          false, null, null));
    } else {
      plan.pointers.add(new RecoverySidecar.PointerPin(key, entry.stableTableId(), entry.incarnationId(),
          last.location(), null, last.version(), last.rowCount()));
    }
    plan.registrations.add(new RecoverySidecar.TableRef(key, entry.stableTableId(), entry.incarnationId(),
        last.location()));
  }

  /** Every row of a revived table against every constraint its declaration has now. */
  private void validateAll(Catalog desired, TableKey key, TablePin pin, Map<String, String> sourceOf) {
    String name = key.typeName();
    List<List<String>> uniques = key.isNode() ? desired.node(name).orElseThrow().uniques()
        : desired.edge(name).orElseThrow().uniques();
    NodeType node = key.isNode() ? desired.node(name).orElseThrow() : null;
    boolean rangesOrChecks = node != null && (!node.ranges().isEmpty() || !node.checks().isEmpty());
    scanConstraints(key, pin, sourceOf, rangesOrChecks ? node : null, uniques);
  }

  /** A new type: the exact version-one create of its dataset, at a path nothing may occupy yet. */
  private void planCreate(Plan plan, SchemaIr.TableEntry entry, Schema arrow) {
    String location = entry.datasetPath();
    if (parts.tables().datasetExists(location)) {
      throw new UncoveredDrift(entry.tableKey().toString(), "a dataset no registration names already exists at " + location
          + "; a new type is created only at an absent path (inspect it, then remove it)");
    }
    String uuid = UUID.randomUUID().toString();
    plan.staged.add(parts.tables().staging().stageCreate(location, arrow, uuid));
    plan.creates.add(entry.tableKey());
    plan.intents.add(new RecoverySidecar.TableIntent(entry.tableKey(), entry.stableTableId(), entry.incarnationId(),
        location, null, 0, 0, uuid, 1, 0, false, null, null));
    plan.registrations.add(new RecoverySidecar.TableRef(entry.tableKey(), entry.stableTableId(),
        entry.incarnationId(), location));
  }

  /**
   * For each column of the desired table, the accepted column it is filled from: {@code id},
   * {@code src}, {@code dst} and kept properties from themselves, a renamed property from its old
   * name ({@code @rename_from}); an added property is absent (null in every row).
   */
  private static Map<String, String> sourceColumns(Catalog accepted, TableKey fromKey, Catalog desiredWithHints,
      TableKey toKey) {
    List<Property> before = properties(accepted, fromKey);
    Set<String> had = new TreeSet<>();
    before.forEach(p -> had.add(p.name()));
    Map<String, String> out = new LinkedHashMap<>();
    out.put("id", "id");
    if (toKey.isEdge()) {
      out.put("src", "src");
      out.put("dst", "dst");
    }
    for (Property p : properties(desiredWithHints, toKey)) {
      Optional<String> hint = SchemaPlanner.renameHint(p.annotations()).filter(h -> !h.equals(p.name()));
      if (hint.isPresent() && had.contains(hint.get()) && !had.contains(p.name())) {
        out.put(p.name(), hint.get());
      } else if (had.contains(p.name())) {
        out.put(p.name(), p.name());
      }
    }
    return out;
  }

  private static List<Property> properties(Catalog catalog, TableKey tableKey) {
    String name = tableKey.typeName();
    return tableKey.isNode() ? catalog.node(name).orElseThrow().properties()
        : catalog.edge(name).orElseThrow().properties();
  }

  /**
   * Checks every existing row against the constraints the desired type adds ({@code @range},
   * {@code @check}, {@code @unique}), reading the rows at their pin under the desired column names:
   * the first violating row refuses the apply, named. Streams the table; {@code @unique} keeps one
   * entry per distinct value tuple.
   */
  private void validateAdded(Catalog accepted, Catalog desired, TableKey fromKey, TableKey toKey, TablePin pin,
      Map<String, String> sourceOf) {
    String name = toKey.typeName();
    List<List<String>> uniques;
    NodeType node = null;
    boolean rangesOrChecks = false;
    if (toKey.isNode()) {
      node = desired.node(name).orElseThrow();
      NodeType before = accepted.node(fromKey.typeName()).orElseThrow();
      rangesOrChecks = !before.ranges().containsAll(node.ranges()) || !before.checks().containsAll(node.checks());
      uniques = added(before.uniques(), node.uniques(), sourceOf);
    } else {
      EdgeType edge = desired.edge(name).orElseThrow();
      uniques = added(accepted.edge(fromKey.typeName()).orElseThrow().uniques(), edge.uniques(), sourceOf);
    }
    scanConstraints(toKey, pin, sourceOf, rangesOrChecks ? node : null, uniques);
  }

  /**
   * Streams the rows at {@code pin} under the desired column names ({@code sourceOf}) through the
   * {@code @range}/{@code @check} of {@code checked} (null: none) and the {@code uniques}; the first
   * violating row refuses the apply, named.
   */
  private void scanConstraints(TableKey toKey, TablePin pin, Map<String, String> sourceOf, NodeType checked,
      List<List<String>> uniques) {
    if (checked == null && uniques.isEmpty()) {
      return;
    }
    List<Map<String, String>> seen = new ArrayList<>();
    uniques.forEach(u -> seen.add(new HashMap<>()));
    parts.tables().scan(TableRef.main(pin.location()).at(pin.version()), Filter.TRUE, List.of(), source -> {
      Map<String, Object> row = new HashMap<>();
      sourceOf.forEach((to, from) -> row.put(to, source.get(from)));
      if (checked != null) {
        RowValidator.checkRow(checked, row);
      }
      for (int i = 0; i < uniques.size(); i++) {
        List<String> columns = uniques.get(i);
        List<Object> tuple = new ArrayList<>();
        for (String c : columns) {
          tuple.add(row.get(c));
        }
        if (tuple.contains(null)) {
          continue; // a tuple with a null is not a value (as on the write path)
        }
        String id = String.valueOf(row.get("id"));
        String other = seen.get(i).putIfAbsent(tuple.toString(), id);
        if (other != null) {
          throw new ConstraintViolation(toKey, "@unique(" + String.join(", ", columns) + ")", id,
              "the same value " + tuple + " as " + other + "; schema apply changed nothing");
        }
      }
    });
  }

  /** The {@code @unique} sets of {@code after} that {@code before} did not have (renames followed). */
  private static List<List<String>> added(List<List<String>> before, List<List<String>> after,
      Map<String, String> sourceOf) {
    Set<List<String>> had = new java.util.HashSet<>(before);
    List<List<String>> out = new ArrayList<>();
    for (List<String> u : after) {
      List<String> asBefore = u.stream().map(c -> sourceOf.getOrDefault(c, c)).sorted().toList();
      if (!had.contains(u) && !had.contains(asBefore)) {
        out.add(u);
      }
    }
    return out;
  }

  /**
   * The apply's plan: commit each staged rewrite or create; after the publish, accept the target
   * schema and run the hard drops, which belong to the commit (no effect-free finalizer once armed).
   */
  private final class ApplyPlan implements CommitPlan<Map<String, Long>, Result> {
    private final Plan plan;
    private final BranchAuthority authority;
    private final List<SchemaStep> steps;
    private final RecoverySidecar sidecar;

    ApplyPlan(SchemaIr now, Plan plan, BranchAuthority authority, Optional<String> actor, List<SchemaStep> steps) {
      this.plan = plan;
      this.authority = authority;
      this.steps = steps;
      Optional<String> head = authority.head();
      long createdAt = dev.omnigraph.util.Micros.now();
      this.sidecar = new RecoverySidecar(new WriterKind.SchemaApply(new RecoverySidecar.SchemaApplyPayload(
              now.identity(), plan.target.identity(), plan.creates, plan.registrations, plan.pointers,
              plan.tombstones, plan.hardDrops)),
          Ulid.next(), actor.orElse(null), new RecoverySidecar.Authority(MAIN, null, head.orElse(null), now.identity()),
          plan.intents, RecoverySidecar.State.ARMED,
          new RecoverySidecar.Lineage(Ulid.next(), head.orElse(null), createdAt, Ulid.next()), createdAt);
    }

    @Override
    public Header header() {
      return new Header(Failpoint.WriterPhases.SCHEMA_APPLY, "schema apply", Optional.of(sidecar), Optional.of(authority));
    }

    @Override
    public boolean finalizesEffectFree() {
      return false;
    }

    /** The row count of every table committed. */
    @Override
    public Map<String, Long> effect(CommitTemplate.Armed armed) {
      Map<String, Long> rowCounts = new LinkedHashMap<>();
      for (int i = 0; i < plan.staged.size(); i++) {
        StagedWrite write = plan.staged.get(i);
        RecoverySidecar.TableIntent t = plan.intents.get(i);
        CommitOutcome outcome = parts.tables().commit(write);
        if (outcome.kind() != CommitOutcome.Kind.LANDED) {
          throw new IllegalStateException("the " + (t.expectedVersion() == 0 ? "create" : "rewrite") + " of "
              + t.tableKey() + " did not land exactly (" + outcome.kind() + ": " + outcome.detail() + ")");
        }
        rowCounts.put(t.tableKey().toString(), t.rowCount());
        Failpoints.hit(Failpoint.SCHEMA_APPLY_AFTER_TABLE_COMMIT);
      }
      return rowCounts;
    }

    @Override
    public ManifestBatchPublisher.Intent intent(Optional<RecoverySidecar> confirmed, Map<String, Long> rowCounts) {
      return SchemaApplyRecovery.intent(confirmed.orElseThrow());
    }

    @Override
    public boolean completesAfterPublish() {
      return true;
    }

    @Override
    public void completePublished(ManifestBatchPublisher.Published published) {
      contracts.accept(plan.target.identity(), published.manifestVersion());
      SchemaApplyRecovery.hardDrops(parts.tables(), plan.hardDrops);
    }

    @Override
    public Result result(Map<String, Long> rowCounts, Optional<ManifestBatchPublisher.Published> published) {
      ManifestBatchPublisher.Published p = published.orElseThrow();
      List<String> dropped = plan.hardDrops.stream().map(RecoverySidecar.HardDrop::location).sorted().toList();
      return new Result(steps, p.manifestVersion(), Optional.of(p.commit()), rowCounts, dropped);
    }
  }
}
