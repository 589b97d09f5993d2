package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.SchemaPlanOutput;
import dev.omnigraph.api.SchemaStep;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Schema migration planning: every step kind from real {@code .pg} sources, the unsupported
 * changes with their entity and reason, determinism, and the reference wire shape of each step.
 */
class SchemaPlannerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BASE = """
      interface Named { name: String }
      node Person implements Named {
        name: String @key
        age: I32?
        mood: enum(happy, sad)?
        email: String?
      }
      node Company { name: String @key }
      edge Knows: Person -> Person { since: I64? }
      edge WorksAt: Person -> Company @card(0..1) { role: String? }
      """;

  private static List<SchemaStep> plan(String accepted, String desired) {
    return SchemaPlanner.plan(SchemaParser.parse(accepted), SchemaParser.parse(desired));
  }

  private static List<String> described(String accepted, String desired) {
    return plan(accepted, desired).stream().map(SchemaStep::describe).toList();
  }

  private static String json(SchemaStep step) {
    try {
      return JSON.writeValueAsString(step);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theSameSchemaPlansNoSteps() {
    assertThat(plan(BASE, BASE)).isEmpty();
    // Declaration order and whitespace are not changes.
    String reordered = """
        node Company { name: String @key }
        interface Named { name: String }
        edge WorksAt: Person -> Company @card(0..1) { role: String? }
        edge Knows: Person -> Person { since: I64? }
        node Person implements Named {
          email: String?
          mood: enum(happy, sad)?
          age: I32?
          name: String @key
        }
        """;
    assertThat(plan(BASE, reordered)).isEmpty();
  }

  @Test
  void addingATypeAndANullablePropertyAreSupportedSteps() {
    String desired = BASE.replace("node Company { name: String @key }",
        "node Company { name: String @key\n founded: Date? }\nnode City { name: String @key }")
        .replace("edge Knows: Person -> Person { since: I64? }",
            "edge Knows: Person -> Person { since: I64? }\nedge LivesIn: Person -> City");
    List<SchemaStep> steps = plan(BASE, desired);
    assertThat(steps).containsExactly(
        new SchemaStep.AddType(SchemaStep.TypeKind.NODE, "City"),
        new SchemaStep.AddProperty(SchemaStep.TypeKind.NODE, "Company", "founded",
            new SchemaStep.PropType("Date", true, false, null)),
        new SchemaStep.AddType(SchemaStep.TypeKind.EDGE, "LivesIn"));
    assertThat(SchemaPlanOutput.of("file:///g", steps).supported()).isTrue();
    assertThat(json(steps.get(1))).isEqualTo("{\"kind\":\"add_property\",\"type_kind\":\"node\",\"type_name\":"
        + "\"Company\",\"property_name\":\"founded\",\"property_type\":{\"scalar\":\"Date\",\"nullable\":true,"
        + "\"list\":false,\"enum_values\":null}}");
    assertThat(steps.get(1).describe()).isEqualTo("add property 'Company.founded' (Date?) on node 'Company'");
  }

  @Test
  void aRequiredPropertyWithoutABackfillIsUnsupportedNamingIt() {
    List<SchemaStep> steps = plan(BASE, BASE.replace("age: I32?", "age: I32?\n    rank: I64"));
    assertThat(steps).containsExactly(new SchemaStep.UnsupportedChange("node:Person.rank",
        "adding required property 'Person.rank' (I64) needs a value for every existing row; declare it nullable (I64?)"));
    assertThat(SchemaPlanOutput.of("g", steps).supported()).isFalse();
    assertThat(json(steps.get(0))).startsWith("{\"kind\":\"unsupported_change\",\"entity\":\"node:Person.rank\"");
  }

  @Test
  void renamesAreDeclaredWithRenameFromAndCarryEndpointsAndConstraints() {
    String accepted = BASE.replace("email: String?", "email: String? @unique");
    String desired = accepted.replace("node Person implements Named {", "node Human @rename_from(\"Person\") implements Named {")
        .replace("age: I32?", "years: I32? @rename_from(\"age\")")
        .replace("email: String? @unique", "mail: String? @unique @rename_from(\"email\")")
        .replace("Person ->", "Human ->").replace("-> Person", "-> Human");
    List<SchemaStep> steps = plan(accepted, desired);
    assertThat(steps).containsExactly(
        new SchemaStep.RenameType(SchemaStep.TypeKind.NODE, "Person", "Human"),
        new SchemaStep.RenameProperty(SchemaStep.TypeKind.NODE, "Human", "email", "mail"),
        new SchemaStep.RenameProperty(SchemaStep.TypeKind.NODE, "Human", "age", "years"));
    assertThat(json(steps.get(0)))
        .isEqualTo("{\"kind\":\"rename_type\",\"type_kind\":\"node\",\"from\":\"Person\",\"to\":\"Human\"}");
    // Re-planning once the rename is accepted (hint still in the file) is empty: the hint names
    // nothing the accepted schema holds, and the new names exist.
    String acceptedAfter = desired.replace(" @rename_from(\"Person\")", "").replace(" @rename_from(\"age\")", "")
        .replace(" @rename_from(\"email\")", "");
    assertThat(plan(acceptedAfter, desired)).isEmpty();
  }

  @Test
  void aRenameHintNamingNothingIsUnsupported() {
    List<SchemaStep> steps = plan(BASE, BASE.replace("age: I32?", "years: I32? @rename_from(\"agee\")"));
    assertThat(steps).containsExactly(
        new SchemaStep.UnsupportedChange("node:Person.years",
            "property 'Person.years' declares @rename_from(\"agee\") but 'Person' has no accepted property of that name"),
        new SchemaStep.DropProperty(SchemaStep.TypeKind.NODE, "Person", "age", SchemaStep.DropMode.SOFT));
  }

  @Test
  void dropsAreSoftByDefault() {
    String desired = BASE.replace("  email: String?\n", "")
        .replace("edge WorksAt: Person -> Company @card(0..1) { role: String? }\n", "");
    List<SchemaStep> steps = plan(BASE, desired);
    assertThat(steps).containsExactly(
        new SchemaStep.DropProperty(SchemaStep.TypeKind.NODE, "Person", "email", SchemaStep.DropMode.SOFT),
        new SchemaStep.DropType(SchemaStep.TypeKind.EDGE, "WorksAt", SchemaStep.DropMode.SOFT));
    assertThat(json(steps.get(1)))
        .isEqualTo("{\"kind\":\"drop_type\",\"type_kind\":\"edge\",\"name\":\"WorksAt\",\"mode\":\"soft\"}");
    assertThat(steps.get(0).describe()).isEqualTo("drop property 'Person.email' of node 'Person' (soft mode)");
  }

  @Test
  void anEnumMayOnlyWiden() {
    List<SchemaStep> widened = plan(BASE, BASE.replace("enum(happy, sad)?", "enum(calm, happy, sad)?"));
    assertThat(widened).containsExactly(
        new SchemaStep.ExtendEnum(SchemaStep.TypeKind.NODE, "Person", "mood", List.of("calm")));
    assertThat(widened.get(0).describe()).isEqualTo("extend enum 'Person.mood' (+calm) on node 'Person'");
    List<SchemaStep> narrowed = plan(BASE, BASE.replace("enum(happy, sad)?", "enum(happy)?"));
    assertThat(narrowed).singleElement().isInstanceOf(SchemaStep.UnsupportedChange.class)
        .extracting(s -> ((SchemaStep.UnsupportedChange) s).entity()).isEqualTo("node:Person.mood");
  }

  @Test
  void typeKeyEndpointCardinalityAndInterfaceChangesAreUnsupported() {
    assertThat(described(BASE, BASE.replace("age: I32?", "age: I64?")))
        .containsExactly("unsupported change on node:Person.age: changing the type of 'Person.age' from I32? to I64? "
            + "is not supported");
    assertThat(described(BASE, BASE.replace("age: I32?", "age: I32")))
        .containsExactly("unsupported change on node:Person.age: changing the type of 'Person.age' from I32? to I32 "
            + "is not supported");
    assertThat(described(BASE, BASE.replace("edge Knows: Person -> Person", "edge Knows: Person -> Company")))
        .containsExactly("unsupported change on edge:Knows: changing the endpoints of edge 'Knows' from Person -> "
            + "Person to Person -> Company is not supported");
    assertThat(described(BASE, BASE.replace("@card(0..1)", "@card(0..2)")))
        .containsExactly("unsupported change on edge:WorksAt: changing the cardinality of edge 'WorksAt' from "
            + "@card(0..1) to @card(0..2) is not supported");
    assertThat(plan(BASE, BASE.replace("node Company { name: String @key }",
        "node Company { name: String\n city: String\n @key(name, city) }")))
        .anySatisfy(s -> assertThat(s.describe()).startsWith("unsupported change on node:Company: changing the key"));
    assertThat(described(BASE, BASE.replace("node Person implements Named {", "node Person {")))
        .containsExactly("unsupported change on node:Person: changing the interfaces node 'Person' implements is "
            + "not supported");
  }

  @Test
  void addedConstraintsArePlannedAndRemovedOnesAreUnsupported() {
    String desired = BASE.replace("email: String?", "email: String? @unique @index\n    @range(age, 0..150)\n"
        + "    @check(email, \"^[^@]+@[^@]+$\")");
    List<SchemaStep> steps = plan(BASE, desired);
    assertThat(steps).extracting(SchemaStep::describe).containsExactly(
        "add constraint @check(email, \"^[^@]+@[^@]+$\") on node 'Person'",
        "add constraint @index(email) on node 'Person'",
        "add constraint @range(age, 0..150) on node 'Person'",
        "add constraint @unique(email) on node 'Person'");
    assertThat(steps).extracting(SchemaPlannerTest::json).containsExactly(
        "{\"kind\":\"add_constraint\",\"type_kind\":\"node\",\"type_name\":\"Person\",\"constraint\":"
            + "{\"Check\":{\"property\":\"email\",\"pattern\":\"^[^@]+@[^@]+$\"}}}",
        "{\"kind\":\"add_constraint\",\"type_kind\":\"node\",\"type_name\":\"Person\",\"constraint\":"
            + "{\"Index\":[\"email\"]}}",
        "{\"kind\":\"add_constraint\",\"type_kind\":\"node\",\"type_name\":\"Person\",\"constraint\":"
            + "{\"Range\":{\"property\":\"age\",\"min\":{\"Integer\":0},\"max\":{\"Integer\":150}}}}",
        "{\"kind\":\"add_constraint\",\"type_kind\":\"node\",\"type_name\":\"Person\",\"constraint\":"
            + "{\"Unique\":[\"email\"]}}");
    assertThat(described(desired, BASE)).containsExactly("unsupported change on node:Person: removing constraints "
        + "@check(email, \"^[^@]+@[^@]+$\"), @index(email), @range(age, 0..150), @unique(email) from 'Person' is "
        + "not supported");
  }

  @Test
  void annotationChangesAreMetadataSteps() {
    String desired = BASE.replace("node Company {", "node Company @description(\"firms\") {")
        .replace("since: I64?", "since: I64? @description(\"year met\")");
    List<SchemaStep> steps = plan(BASE, desired);
    assertThat(steps).extracting(SchemaStep::describe).containsExactly(
        "update metadata on node 'Company' (@description(\"firms\"))",
        "update metadata on property 'Knows.since' of edge 'Knows' (@description(\"year met\"))");
    assertThat(json(steps.get(0))).isEqualTo("{\"kind\":\"update_type_metadata\",\"type_kind\":\"node\",\"name\":"
        + "\"Company\",\"annotations\":[{\"name\":\"description\",\"value\":\"firms\"}]}");
  }

  @Test
  void interfacesMayGainPropertiesButNotBeRemovedOrRenamed() {
    assertThat(described(BASE, BASE.replace("interface Named { name: String }", "interface Named { name: String }\n"
        + "interface Aged { age: I32? }"))).containsExactly("add interface type 'Aged'");
    String withoutNamed = BASE.replace("interface Named { name: String }", "").replace(" implements Named", "");
    assertThat(described(BASE, withoutNamed)).containsExactly(
        "unsupported change on interface:Named: removing interface 'Named' is not supported",
        "unsupported change on node:Person: changing the interfaces node 'Person' implements is not supported");
  }

  @Test
  void planningIsDeterministicAcrossRuns() {
    String desired = BASE.replace("age: I32?", "years: I32? @rename_from(\"age\")\n    nick: String?")
        .replace("edge Knows: Person -> Person { since: I64? }\n", "")
        .replace("enum(happy, sad)?", "enum(happy, sad, calm)?");
    List<String> first = plan(BASE, desired).stream().map(SchemaPlannerTest::json).toList();
    for (int i = 0; i < 5; i++) {
      assertThat(plan(BASE, desired).stream().map(SchemaPlannerTest::json).toList()).isEqualTo(first);
    }
    assertThat(plan(BASE, desired)).extracting(SchemaStep::describe).containsExactly(
        "extend enum 'Person.mood' (+calm) on node 'Person'",
        "add property 'Person.nick' (String?) on node 'Person'",
        "rename property 'Person.age' -> 'Person.years' on node 'Person'",
        "drop edge type 'Knows' (soft mode)");
  }
}
