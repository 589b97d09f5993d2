package dev.omnigraph.engine;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SchemaApplyBlocked;
import dev.omnigraph.api.SchemaApplyOutput;
import dev.omnigraph.api.SchemaStep;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.api.UnsupportedSchemaChange;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.write.ConstraintViolation;
import dev.omnigraph.api.LoadMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The schema apply contract on one backend (issue 15, docs/schema-evolution.md): every step kind
 * planned and applied on a graph with data, with exact rows before and after, time travel to the
 * pre-apply commit unchanged, and the refusals (unsupported plan, violated added constraint, live
 * branches) changing nothing. Subclasses name the backend.
 */
abstract class AbstractSchemaApplyTest extends AbstractGraphFixture {

  static final String BASE = AbstractGraphEngineTest.schemaText();

  static final String QUERIES = """
      query people() {
        match { $p: Person }
        return { $p.name, $p.age }
        order { $p.name asc }
      }
      query companies() {
        match { $c: Company }
        return { $c.name, $c.founded }
        order { $c.name asc }
      }
      """;

  @Override
  protected void buildTemplate(Omnigraph g) {
    g.load("main", new java.io.StringReader(String.join("\n",
        person("ada", 36), person("bob", null), person("cy", 36),
        "{\"type\":\"Company\",\"data\":{\"name\":\"acme\",\"founded\":\"2001-02-03\"}}",
        "{\"edge\":\"Knows\",\"from\":\"ada\",\"to\":\"bob\",\"data\":{\"since\":2020}}",
        "{\"edge\":\"WorksAt\",\"from\":\"ada\",\"to\":\"acme\",\"data\":{\"role\":\"cto\"}}")),
        LoadMode.APPEND, Optional.of("act-test"));
  }

  SchemaApplyOutput apply(String source) {
    return apply(source, false);
  }

  SchemaApplyOutput apply(String source, boolean allowDataLoss) {
    return graph.schemaApply(source, allowDataLoss, Optional.of("act-schema"));
  }

  List<List<Object>> rowsOf(ReadOutput out) {
    List<List<Object>> rows = new ArrayList<>();
    for (Map<String, Object> row : out.rows()) {
      List<Object> r = new ArrayList<>();
      for (String c : out.columns()) {
        Object v = row.get(c);
        r.add(v == null ? null : String.valueOf(v));
      }
      rows.add(r);
    }
    return rows;
  }

  ReadOutput query(Optional<String> commit, String source, String name) {
    return graph.query(commit.isPresent() ? Optional.empty() : Optional.of(dev.omnigraph.api.BranchName.MAIN), commit.map(dev.omnigraph.api.CommitId::existing), source, name,
        new ObjectMapper().createObjectNode());
  }

  String head() {
    return graph.commits("main", CommitPage.first(1)).commits().get(0).graphCommitId();
  }

  Map<String, SnapshotOutput.Dataset> datasets(Optional<String> commit) {
    SnapshotOutput s = commit.isPresent() ? graph.snapshotAtCommit(commit.get()) : graph.snapshot("main");
    Map<String, SnapshotOutput.Dataset> out = new TreeMap<>();
    s.datasets().forEach(d -> out.put(d.typeName(), d));
    return out;
  }

  @Test
  void addingAPropertyAndATypeKeepsEveryRowAndTimeTravel() {
    String before = head();
    List<List<Object>> companiesBefore = rowsOf(query(Optional.empty(), QUERIES, "companies"));
    Map<String, SnapshotOutput.Dataset> pinsBefore = datasets(Optional.empty());
    String desired = BASE.replace("  founded: Date?\n", "  founded: Date?\n  city: String?\n")
        + "\nnode City {\n  name: String @key\n  population: I64?\n}\n";

    SchemaApplyOutput out = apply(desired);

    assertThat(out.applied()).isTrue();
    assertThat(out.supported()).isTrue();
    assertThat(out.steps()).containsExactly(new SchemaStep.AddType(SchemaStep.TypeKind.NODE, "City"),
        new SchemaStep.AddProperty(SchemaStep.TypeKind.NODE, "Company", "city",
            new SchemaStep.PropType("String", true, false, null)));
    assertThat(out.graphCommitId()).isEqualTo(head());
    assertThat(graph.schema().schemaSource()).isEqualTo(desired);
    // The apply's commit is a schema boundary for the change feed; the commit before it still diffs.
    assertThatThrownBy(() -> graph.commitChanges(out.graphCommitId(), dev.omnigraph.api.ChangesPage.FIRST))
        .isInstanceOf(dev.omnigraph.api.ChangeDiffRefused.class)
        .satisfies(e -> assertThat(((dev.omnigraph.api.ChangeDiffRefused) e).reason())
            .isEqualTo(dev.omnigraph.api.ChangeDiffRefused.Reason.SCHEMA_BOUNDARY));
    assertThat(graph.commitChanges(before, dev.omnigraph.api.ChangesPage.FIRST).changes()).isNotEmpty();
    assertThat(sidecars()).isEmpty();
    // Company was rewritten exactly once, City created at version one; the others untouched.
    Map<String, SnapshotOutput.Dataset> after = datasets(Optional.empty());
    assertThat(after.get("Company").publishedDatasetVersion())
        .isGreaterThanOrEqualTo(pinsBefore.get("Company").publishedDatasetVersion() + 1);
    assertThat(after.get("Company").datasetPath()).isEqualTo(pinsBefore.get("Company").datasetPath());
    assertThat(after.get("City").entityCount()).isZero();
    assertThat(after.get("Person").datasetPath()).isEqualTo(pinsBefore.get("Person").datasetPath());
    assertThat(after.get("Person").entityCount()).isEqualTo(3);
    assertThat(after.get("Company").entityCount()).isEqualTo(1);

    String next = QUERIES + """
        query cities() {
          match { $c: Company }
          return { $c.name, $c.founded, $c.city }
          order { $c.name asc }
        }
        """;
    assertThat(rowsOf(query(Optional.empty(), next, "cities"))).containsExactly(
        java.util.Arrays.asList("acme", "2001-02-03", null));
    // Rows using the new property and type load and read back.
    load("main", LoadMode.APPEND, "{\"type\":\"City\",\"data\":{\"name\":\"oslo\",\"population\":700000}}",
        "{\"type\":\"Company\",\"data\":{\"name\":\"initech\",\"city\":\"oslo\"}}");
    assertThat(rowsOf(query(Optional.empty(), next, "cities"))).hasSize(2)
        .contains(java.util.Arrays.asList("initech", null, "oslo"));
    // Time travel: the pre-apply commit reads as it did, with the schema it was published under.
    assertThat(rowsOf(query(Optional.of(before), QUERIES, "companies"))).isEqualTo(companiesBefore);
    assertThat(datasets(Optional.of(before))).doesNotContainKey("City");
    assertThatThrownBy(() -> query(Optional.of(before), next, "cities"))
        .as("the old commit's schema has no Company.city").isInstanceOf(RuntimeException.class);
  }

  /**
   * Two property-adding applies with a load between them: each rewrite is an Overwrite of Person,
   * and the load after the second one probed its ids through the row ids Lance had cached for the
   * fragment id the first rewrite had used (see AbstractWritePathTest's overwrite case).
   */
  @Test
  void loadsBetweenAndAfterTwoPropertyAddingAppliesProbeTheRightRows() {
    String one = BASE.replace("  age: I32?\n", "  age: I32?\n  p1: String?\n");
    String two = BASE.replace("  age: I32?\n", "  age: I32?\n  p1: String?\n  p2: String?\n");
    assertThat(one).isNotEqualTo(BASE);
    apply(one);
    load("main", LoadMode.APPEND, person("dan", 40));
    apply(two);
    load("main", LoadMode.APPEND, person("eve", 41));
    load("main", LoadMode.MERGE, person("ada", 37));
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("dan", 1)))
        .isInstanceOfSatisfying(dev.omnigraph.api.KeyConflict.class, e -> assertThat(e.key()).isEqualTo("dan"));
    assertThat(rowsOf(query(Optional.empty(), QUERIES, "people"))).containsExactly(
        List.of("ada", "37"), java.util.Arrays.asList("bob", null), List.of("cy", "36"), List.of("dan", "40"),
        List.of("eve", "41"));
  }

  @Test
  void aTypeRenameKeepsIdentityPathAndVersion() {
    String before = head();
    Map<String, SnapshotOutput.Dataset> pins = datasets(Optional.empty());
    String desired = BASE.replace("node Person implements Named {", "node Human implements Named @rename_from(\"Person\") {")
        .replace("Person ->", "Human ->").replace("-> Person", "-> Human");

    SchemaApplyOutput out = apply(desired);

    assertThat(out.steps()).containsExactly(new SchemaStep.RenameType(SchemaStep.TypeKind.NODE, "Person", "Human"));
    SnapshotOutput.Dataset human = datasets(Optional.empty()).get("Human");
    assertThat(human.datasetPath()).isEqualTo(pins.get("Person").datasetPath());
    assertThat(human.publishedDatasetVersion()).isEqualTo(pins.get("Person").publishedDatasetVersion());
    assertThat(human.entityCount()).isEqualTo(3);
    assertThat(datasets(Optional.empty())).doesNotContainKey("Person");
    String humans = "query humans() { match { $h: Human } return { $h.name, $h.age } order { $h.name asc } }";
    List<List<Object>> now = rowsOf(query(Optional.empty(), humans, "humans"));
    assertThat(now).isEqualTo(rowsOf(query(Optional.of(before), QUERIES, "people")));
    assertThat(now).hasSize(3);
    // Planning the same file again is empty, and applying it changes nothing.
    SchemaApplyOutput again = apply(desired);
    assertThat(again.applied()).isFalse();
    assertThat(again.steps()).isEmpty();
  }

  dev.omnigraph.schema.SchemaIr acceptedIr() {
    try (dev.omnigraph.storage.StorageAdapter s = dev.omnigraph.storage.StorageAdapters.open(config)) {
      return dev.omnigraph.schema.SchemaIr.fromJson(s.readText("_schema.ir.json"));
    }
  }

  @Test
  void aPropertyRenameCarriesValuesAndTheOldCommitStillReads() {
    String before = head();
    long ageId = acceptedIr().propertyId(TableKey.node("Person"), "age").orElseThrow();
    String desired = BASE.replace("  age: I32?\n", "  years: I32? @rename_from(\"age\")\n")
        .replace("@range(age, 0..150)", "@range(years, 0..150)");

    SchemaApplyOutput out = apply(desired);

    assertThat(out.steps()).contains(new SchemaStep.RenameProperty(SchemaStep.TypeKind.NODE, "Person", "age",
        "years"));
    String years = "query y() { match { $p: Person } return { $p.name, $p.years } order { $p.name asc } }";
    assertThat(rowsOf(query(Optional.empty(), years, "y"))).isEqualTo(rowsOf(query(Optional.of(before), QUERIES,
        "people")));
    assertThat(rowsOf(query(Optional.empty(), years, "y")).get(0)).isEqualTo(List.of("ada", "36"));
    // The property keeps its stable id under its new name (the reference's stable_property_id).
    assertThat(acceptedIr().propertyId(TableKey.node("Person"), "years")).contains(ageId);
    assertThat(acceptedIr().propertyId(TableKey.node("Person"), "age")).isEmpty();
  }

  @Test
  void metadataAndEnumWideningPublishWithoutTouchingATable() {
    String withEnum = BASE.replace("  role: String?\n", "  role: String?\n  level: enum(junior, senior)?\n");
    apply(withEnum);
    Map<String, SnapshotOutput.Dataset> pins = datasets(Optional.empty());
    String desired = withEnum.replace("enum(junior, senior)", "enum(junior, senior, staff)")
        .replace("node Company implements Named {", "node Company implements Named @description(\"employers\") {")
        .replace("  since: I64?\n", "  since: I64? @description(\"year they met\")\n");

    SchemaApplyOutput out = apply(desired);

    assertThat(out.steps()).hasSize(3).anySatisfy(s -> assertThat(s).isInstanceOf(SchemaStep.ExtendEnum.class))
        .anySatisfy(s -> assertThat(s).isInstanceOf(SchemaStep.UpdateTypeMetadata.class))
        .anySatisfy(s -> assertThat(s).isInstanceOf(SchemaStep.UpdatePropertyMetadata.class));
    assertThat(out.applied()).isTrue();
    assertThat(out.graphCommitId()).isEqualTo(head());
    Map<String, SnapshotOutput.Dataset> after = datasets(Optional.empty());
    pins.forEach((type, d) -> assertThat(after.get(type).publishedDatasetVersion())
        .as(type).isEqualTo(d.publishedDatasetVersion()));
    // The new variant is accepted at once.
    load("main", LoadMode.APPEND, "{\"edge\":\"WorksAt\",\"from\":\"bob\",\"to\":\"acme\",\"data\":{\"level\":\"staff\"}}");
  }

  @Test
  void anUnsupportedChangeIsRefusedWithZeroEffect() {
    String identity = graph.schemaIdentity();
    String head = head();
    assertThatThrownBy(() -> apply(BASE.replace("  age: I32?\n", "  age: I64?\n")))
        .isInstanceOf(UnsupportedSchemaChange.class)
        .hasMessageContaining("node:Person.age")
        .satisfies(e -> assertThat(((UnsupportedSchemaChange) e).changes()).hasSize(1));
    assertThat(graph.schemaIdentity()).isEqualTo(identity);
    assertThat(head()).isEqualTo(head);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void anAddedConstraintExistingRowsBreakIsRefusedNamingTheRow() {
    String identity = graph.schemaIdentity();
    String head = head();
    String checked = BASE.replace("  @range(age, 0..150)\n", "  @range(age, 0..150)\n  @check(name, \"^[ab]\")\n");
    assertThat(checked).isNotEqualTo(BASE);
    assertThatThrownBy(() -> apply(checked))
        .isInstanceOf(ConstraintViolation.class)
        .satisfies(e -> assertThat(((ConstraintViolation) e).entityId()).isEqualTo("cy"));
    assertThatThrownBy(() -> apply(BASE.replace("  age: I32?\n", "  age: I32? @unique\n")))
        .isInstanceOf(ConstraintViolation.class)
        .hasMessageContaining("@unique(age)");
    assertThat(graph.schemaIdentity()).isEqualTo(identity);
    assertThat(head()).isEqualTo(head);
    assertThat(sidecars()).isEmpty();
    // A constraint the rows keep applies.
    assertThat(apply(checked.replace("^[ab]", "^[a-z]+$")).applied()).isTrue();
  }

  @Test
  void aSoftDropKeepsTheOldDataReachableAndIsUndoneByReAdding() {
    String before = head();
    List<List<Object>> companies = rowsOf(query(Optional.empty(), QUERIES, "companies"));
    String noFounded = BASE.replace("  founded: Date?\n", "");
    String noWorksAt = noFounded.substring(0, noFounded.indexOf("edge WorksAt"));

    SchemaApplyOutput out = apply(noWorksAt);

    assertThat(out.steps()).contains(new SchemaStep.DropProperty(SchemaStep.TypeKind.NODE, "Company", "founded",
        SchemaStep.DropMode.SOFT), new SchemaStep.DropType(SchemaStep.TypeKind.EDGE, "WorksAt",
        SchemaStep.DropMode.SOFT));
    assertThat(out.hardDropped()).isEmpty();
    assertThat(datasets(Optional.empty())).doesNotContainKey("WorksAt");
    assertThat(rowsOf(query(Optional.of(before), QUERIES, "companies"))).isEqualTo(companies);
    assertThat(datasets(Optional.of(before)).get("WorksAt").entityCount()).isEqualTo(1);

    SnapshotOutput.Dataset worksAtBefore = datasets(Optional.of(before)).get("WorksAt");
    SchemaApplyOutput back = apply(BASE);
    assertThat(back.steps()).contains(new SchemaStep.AddType(SchemaStep.TypeKind.EDGE, "WorksAt"));
    assertThat(graph.schema().schemaSource()).isEqualTo(BASE);
    // Undone by re-adding: the soft-dropped type comes back as the same dataset, with its rows.
    SnapshotOutput.Dataset revived = datasets(Optional.empty()).get("WorksAt");
    assertThat(revived.datasetPath()).isEqualTo(worksAtBefore.datasetPath());
    assertThat(revived.entityCount()).isEqualTo(1);
    assertThat(revived.publishedDatasetVersion()).isEqualTo(worksAtBefore.publishedDatasetVersion());
    assertThat(rowsOf(query(Optional.empty(),
        "query w() { match { $p: Person  $p worksAt $c } return { $p.name, $c.name } }", "w")))
        .containsExactly(List.of("ada", "acme"));
    assertThat(rowsOf(query(Optional.of(before), QUERIES, "companies"))).isEqualTo(companies);
    // The soft-dropped property comes back with its values too.
    assertThat(rowsOf(query(Optional.empty(), QUERIES, "companies"))).isEqualTo(companies);
    assertThat(companies).containsExactly(List.of("acme", "2001-02-03"));
    // A written edge lands in the revived table.
    load("main", LoadMode.APPEND, "{\"edge\":\"WorksAt\",\"from\":\"bob\",\"to\":\"acme\"}");
    assertThat(datasets(Optional.empty()).get("WorksAt").entityCount()).isEqualTo(2);
  }

  @Test
  void aHardDropRemovesTheOldVersions() {
    String before = head();
    SnapshotOutput.Dataset worksAt = datasets(Optional.empty()).get("WorksAt");
    SnapshotOutput.Dataset company = datasets(Optional.empty()).get("Company");
    String noFounded = BASE.replace("  founded: Date?\n", "");
    String desired = noFounded.substring(0, noFounded.indexOf("edge WorksAt"));

    SchemaApplyOutput out = apply(desired, true);

    assertThat(out.steps()).contains(new SchemaStep.DropType(SchemaStep.TypeKind.EDGE, "WorksAt",
        SchemaStep.DropMode.HARD));
    assertThat(out.hardDropped()).containsExactlyInAnyOrder(worksAt.datasetPath(), company.datasetPath());
    DataTables tables = new DataTables(config);
    assertThat(tables.datasetExists(worksAt.datasetPath())).isFalse();
    assertThat(tables.versions().readable(TableRef.main(company.datasetPath()).at(company.publishedDatasetVersion())))
        .isFalse();
    assertThatThrownBy(() -> query(Optional.of(before), QUERIES, "companies")).isInstanceOf(RuntimeException.class);
    assertThat(rowsOf(query(Optional.empty(), "query c() { match { $c: Company } return { $c.name } }", "c")))
        .containsExactly(List.of("acme"));
    // Nothing to revive after a hard drop: declaring the type again makes a new, empty incarnation.
    apply(BASE);
    SnapshotOutput.Dataset again = datasets(Optional.empty()).get("WorksAt");
    assertThat(again.datasetPath()).isNotEqualTo(worksAt.datasetPath());
    assertThat(again.entityCount()).isZero();
  }

  @Test
  void liveBranchesBlockTheApply() {
    graph.branchCreate("review", "main", Optional.of("act-test"));
    String head = head();
    assertThatThrownBy(() -> apply(BASE + "\nnode Tag { name: String @key }\n"))
        .isInstanceOf(SchemaApplyBlocked.class)
        .hasMessageContaining("review")
        .satisfies(e -> assertThat(((SchemaApplyBlocked) e).branches()).containsExactly("review"));
    assertThat(head()).isEqualTo(head);
    graph.branchDelete("review", Optional.of("act-test"));
    assertThat(apply(BASE + "\nnode Tag { name: String @key }\n").applied()).isTrue();
  }

  @Test
  void anUnchangedSchemaAppliesNothing() {
    String head = head();
    SchemaApplyOutput out = apply(BASE);
    assertThat(out.applied()).isFalse();
    assertThat(out.stepCount()).isZero();
    assertThat(out.graphCommitId()).isNull();
    assertThat(head()).isEqualTo(head);
  }

  @Test
  void twoConcurrentAppliesSerialise() throws Exception {
    String first = BASE + "\nnode Tag { name: String @key }\n";
    String second = first + "\nnode Topic { name: String @key }\n";
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<SchemaApplyOutput> a = pool.submit(() -> apply(first));
      Future<SchemaApplyOutput> b = pool.submit(() -> apply(second));
      SchemaApplyOutput ra = a.get();
      SchemaApplyOutput rb = b.get();
      assertThat(List.of(ra.applied(), rb.applied())).contains(true);
    } finally {
      pool.shutdownNow();
    }
    // Whatever the order, the second planned against the first's schema, and nothing was lost.
    Map<String, SnapshotOutput.Dataset> after = datasets(Optional.empty());
    assertThat(after.keySet()).contains("Tag", "Person", "Company");
    assertThat(after.get("Person").entityCount()).isEqualTo(3);
    assertThat(sidecars()).isEmpty();
  }

  @Test
  void aSecondHandleOnTheRootPlansWithTheAppliedSchema() {
    apply(BASE.replace("  founded: Date?\n", "  founded: Date?\n  city: String?\n"));
    try (Omnigraph other = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      assertThat(other.schemaIdentity()).isEqualTo(graph.schemaIdentity());
      other.load("main", new java.io.StringReader("{\"type\":\"Company\",\"data\":{\"name\":\"x\",\"city\":\"y\"}}"),
          LoadMode.APPEND, Optional.of("act-test"));
    }
    assertThat(datasets(Optional.empty()).get("Company").entityCount()).isEqualTo(2);
  }

  static final String WITH_CITY = BASE.replace("  founded: Date?\n", "  founded: Date?\n  city: String?\n")
      + "\nnode City {\n  name: String @key\n}\n";

  /**
   * A failure after the effects are confirmed is RecoveryRequired with the sidecar kept; the next
   * write on the same handle heals it forward in process (the commit lands, the schema is accepted),
   * and its own write runs under the new schema.
   */
  @Test
  void aFailureAfterConfirmIsHealedForwardByTheNextWrite() {
    String old = graph.schemaIdentity();
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("schema_apply.after_confirm")) {
      assertThatThrownBy(() -> apply(WITH_CITY)).isInstanceOf(dev.omnigraph.api.RecoveryRequired.class);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    assertThat(sidecars()).hasSize(1);
    assertThat(graph.schemaIdentity()).isEqualTo(old);
    assertThatThrownBy(() -> graph.branchCreate("x", "main", Optional.of("act-test")))
        .isInstanceOf(dev.omnigraph.api.RecoveryRequired.class).hasMessageContaining("schema apply is pending");
    // The next write's entry heal completes the apply. That write was planned under the old schema,
    // so it is refused, typed and effect-free, never coerced; its retry plans with the new schema.
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("dan", 1)))
        .isInstanceOf(dev.omnigraph.api.ReadSetChanged.class).hasMessageContaining("schema");
    assertThat(graph.schemaIdentity()).isNotEqualTo(old);
    load("main", LoadMode.APPEND, person("dan", 1));
    load("main", LoadMode.APPEND, "{\"type\":\"City\",\"data\":{\"name\":\"oslo\"}}");
    assertThat(graph.schema().schemaSource()).isEqualTo(WITH_CITY);
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo("RolledForward");
      assertThat(e.writerKind()).isEqualTo("schema_apply");
      assertThat(e.forActor()).isEqualTo("act-schema");
    });
    assertThat(datasets(Optional.empty()).get("City").entityCount()).isEqualTo(1);
    assertThat(sidecars()).isEmpty();
  }

  /**
   * A failure between table commits needs a rollback, which only a quiesced read-write open does:
   * writes are refused meanwhile, and the reopen restores the old schema and data.
   */
  @Test
  void aFailureBetweenTableCommitsIsRolledBackByAReadWriteOpen() throws Exception {
    String old = graph.schemaIdentity();
    Map<String, SnapshotOutput.Dataset> pins = datasets(Optional.empty());
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("schema_apply.after_table_commit")) {
      assertThatThrownBy(() -> apply(WITH_CITY)).isInstanceOf(dev.omnigraph.api.RecoveryRequired.class);
    }
    assertThatThrownBy(() -> load("main", LoadMode.APPEND, person("dan", 1)))
        .isInstanceOf(dev.omnigraph.api.RecoveryRequired.class);
    graph.close();
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.schemaIdentity()).isEqualTo(old);
    assertThat(graph.recoveryAudit()).singleElement().satisfies(e -> assertThat(e.kind()).isEqualTo("RolledBack"));
    assertThat(sidecars()).isEmpty();
    assertThat(datasets(Optional.empty()).keySet()).isEqualTo(pins.keySet());
    assertThat(datasets(Optional.empty()).get("Company").entityCount()).isEqualTo(1);
    assertThat(apply(WITH_CITY).applied()).isTrue();
  }

  /**
   * Published but not yet accepted: a read-only open refuses (its tables would not match the
   * catalog it would serve), a read-write open completes the acceptance.
   */
  @Test
  void aPublishedButUnacceptedApplyIsRefusedReadOnlyAndCompletedReadWrite() throws Exception {
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("schema_apply.before_promote")) {
      assertThatThrownBy(() -> apply(WITH_CITY)).isInstanceOf(dev.omnigraph.api.RecoveryRequired.class);
    }
    graph.close();
    assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_ONLY))
        .isInstanceOf(dev.omnigraph.api.RecoveryRequired.class).hasMessageContaining("not accepted yet");
    graph = Omnigraph.open(config, OpenMode.READ_WRITE);
    assertThat(graph.schema().schemaSource()).isEqualTo(WITH_CITY);
    assertThat(datasets(Optional.empty())).containsKey("City");
    try (Omnigraph ro = Omnigraph.open(config, OpenMode.READ_ONLY)) {
      assertThat(ro.schemaIdentity()).isEqualTo(graph.schemaIdentity());
    }
  }

  /**
   * Seed, "Corrupt / unparseable sidecar": a read-only open keeps tolerating a malformed sidecar,
   * except beside a staged schema that is not accepted, since that sidecar may be the only proof of a
   * published schema apply; it then returns RecoveryRequired. Without the staging it opens.
   */
  @Test
  void aMalformedSidecarBesideAStagedSchemaRefusesAReadOnlyOpen() throws Exception {
    String accepted = graph.schemaIdentity();
    try (AutoCloseable fp = dev.omnigraph.util.FailpointControl.enableError("schema_apply.after_arm")) {
      assertThatThrownBy(() -> apply(WITH_CITY)).isInstanceOf(dev.omnigraph.api.RecoveryRequired.class);
    }
    String key = sidecars().get(0);
    graph.close();
    try (dev.omnigraph.storage.StorageAdapter s = dev.omnigraph.storage.StorageAdapters.open(config)) {
      s.putText(key, "{not json");
      assertThatThrownBy(() -> Omnigraph.open(config, OpenMode.READ_ONLY))
          .isInstanceOf(dev.omnigraph.api.RecoveryRequired.class).hasMessageContaining("staged schema");
      // Without an unaccepted staged schema the same malformed sidecar does not stop a read-only open.
      for (String staged : s.list("_schema_history/")) {
        if (!staged.startsWith("_schema_history/" + accepted)) {
          s.delete(staged);
        }
      }
    }
    graph = Omnigraph.open(config, OpenMode.READ_ONLY);
    assertThat(graph.schemaIdentity()).isEqualTo(accepted);
  }
}
