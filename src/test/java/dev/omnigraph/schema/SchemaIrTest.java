package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import static dev.omnigraph.schema.SchemaParserTest.PEOPLE;
import static dev.omnigraph.schema.SchemaParserTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.schema.SchemaIr.TableEntry;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchemaIrTest {

  private static final SchemaIr IR = SchemaIr.initial(PEOPLE);

  /** Pinned: a change here changes the accepted identity of every existing graph. */
  private static final String PEOPLE_IDENTITY = "68fde1b612d855cf7abce6d86d348d2d2fc570f23d8bc7decb1c95809593adfa";

  @Test
  void matchesTheGoldenDocument() {
    assertThat(IR.toPrettyJson()).isEqualTo(resource("people.ir.json"));
  }

  @Test
  void canonicalJsonIsTheGoldenDocumentWithoutWhitespace() throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    assertThat(IR.toJson()).isEqualTo(mapper.writeValueAsString(mapper.readTree(resource("people.ir.json"))));
    assertThat(IR.toJson()).doesNotContain("\n").startsWith("{\"ir_version\":1,\"interfaces\":[");
  }

  @Test
  void identityIsTheSha256OfTheCanonicalBytes() throws Exception {
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(IR.toJson().getBytes(StandardCharsets.UTF_8));
    assertThat(IR.identity()).isEqualTo(HexFormat.of().formatHex(digest)).isEqualTo(PEOPLE_IDENTITY);
  }

  @Test
  void roundTripsThroughBothForms() {
    for (String json : new String[] {IR.toJson(), IR.toPrettyJson()}) {
      SchemaIr back = SchemaIr.fromJson(json);
      assertThat(back).isEqualTo(IR);
      assertThat(back.catalog()).isEqualTo(PEOPLE);
      assertThat(back.tables()).isEqualTo(IR.tables());
      assertThat(back.identity()).isEqualTo(PEOPLE_IDENTITY);
    }
  }

  @Test
  void initialIdsFollowSortedTableKeys() {
    assertThat(IR.tables()).containsExactly(
        new TableEntry(TableKey.edge("Founded"), 1, 1),
        new TableEntry(TableKey.edge("Knows"), 2, 1),
        new TableEntry(TableKey.edge("WorksAt"), 3, 1),
        new TableEntry(TableKey.node("Company"), 4, 1),
        new TableEntry(TableKey.node("Person"), 5, 1));
    assertThat(IR.retiredTables()).isEmpty();
    TableEntry person = IR.table(TableKey.node("Person")).orElseThrow();
    assertThat(person.datasetPath()).isEqualTo("nodes/0000000000000005-0000000000000001");
    assertThat(person.typeName()).isEqualTo("Person");
    assertThat(person.isNode()).isTrue();
    assertThat(new TableEntry(TableKey.edge("Knows"), 0xABCDEFL, 0x1_0000_0000L).datasetPath())
        .isEqualTo("edges/0000000000abcdef-0000000100000000");
  }

  @Test
  void sameMeaningGivesTheSameIdentity() {
    String reshuffled = """
        edge Founded: Person -> Company @card(0..3)
        edge WorksAt: Person -> Company @deprecated @card(0..1) { start: Date, title: String? }
        node Company {
          @key(country, registry)
          name: String @description("legal name") registry: I64; country: String
          rating: F32? founded: DateTime? @range(registry, 1..) @range(rating, 0.000..5.0) @unique(country, name)
        }
        // comments and layout are not part of the schema
        edge Knows: Person -> Person { @unique(dst, src) weight: F64 @index since: Date? }
        node Person @description("a human being") implements Named {
          @index(status, age) @range(age, 0..150)
          status: enum(retired, active, on-leave) born: Date? tags: [String]? scores: [F64]
          bio: String? embedding: Vector(4)? @embed(bio, model="mini-lm") @index
          email: String @check(email, "^[^@\\\\s]+@[^@\\\\s]+$") @unique age: I32? @index
        }
        interface Named @description("has a human-readable name") { nickname: String? name: String @key }
        """;
    assertThat(SchemaIr.initial(SchemaParser.parse(reshuffled)).identity()).isEqualTo(PEOPLE_IDENTITY);
  }

  @Test
  void anyChangeOfMeaningChangesTheIdentity() {
    String people = resource("people.pg");
    assertThat(identityOf(people.replace("born: Date?", "born: Date"))).isNotEqualTo(PEOPLE_IDENTITY);
    assertThat(identityOf(people.replace("born: Date?", "born: DateTime?"))).isNotEqualTo(PEOPLE_IDENTITY);
    assertThat(identityOf(people.replace("@key(country, registry)", "@key(registry, country)")))
        .isNotEqualTo(PEOPLE_IDENTITY);
    assertThat(identityOf(people.replace("@card(0..1)", "@card(0..2)"))).isNotEqualTo(PEOPLE_IDENTITY);
    assertThat(identityOf(people.replace("legal name", "registered name"))).isNotEqualTo(PEOPLE_IDENTITY);
    assertThat(identityOf(people.replace("on-leave", "on_leave"))).isNotEqualTo(PEOPLE_IDENTITY);
  }

  private static String identityOf(String schema) {
    return SchemaIr.initial(SchemaParser.parse(schema)).identity();
  }

  @Test
  void evolvingToTheSameSchemaChangesNothing() {
    assertThat(SchemaIr.evolve(IR, PEOPLE)).isEqualTo(IR);
  }

  @Test
  void evolutionKeepsIdsAssignsFreshOnesAndRetiresDroppedTypes() {
    SchemaIr v1 = SchemaIr.initial(SchemaParser.parse("node A {} node B {} edge E: A -> B"));
    assertThat(v1.tables()).containsExactly(
        new TableEntry(TableKey.edge("E"), 1, 1), new TableEntry(TableKey.node("A"), 2, 1), new TableEntry(TableKey.node("B"), 3, 1));

    // B dropped (with its edge), C and D added: they take ids after the highest ever used.
    SchemaIr v2 = SchemaIr.evolve(v1, SchemaParser.parse("node A { x: I32? } node D {} node C {}"));
    assertThat(v2.tables()).containsExactly(
        new TableEntry(TableKey.node("A"), 2, 1), new TableEntry(TableKey.node("C"), 4, 1), new TableEntry(TableKey.node("D"), 5, 1));
    assertThat(v2.retiredTables()).containsExactly(new TableEntry(TableKey.edge("E"), 1, 1), new TableEntry(TableKey.node("B"), 3, 1));

    // B comes back: its old stable id, a new incarnation, so it never reads its previous files.
    SchemaIr v3 = SchemaIr.evolve(v2, SchemaParser.parse("node A { x: I32? } node B {} node C {} node D {}"));
    assertThat(v3.table(TableKey.node("B"))).contains(new TableEntry(TableKey.node("B"), 3, 2));
    assertThat(v3.table(TableKey.node("B")).orElseThrow().datasetPath()).isEqualTo("nodes/0000000000000003-0000000000000002");
    assertThat(v3.retiredTables()).containsExactly(new TableEntry(TableKey.edge("E"), 1, 1));

    // A rebuilt table keeps its stable id and moves to its next incarnation.
    SchemaIr v4 = SchemaIr.evolve(v3, SchemaParser.parse("node A { x: I64? } node B {} node C {} node D {}"),
        Set.of(TableKey.node("A")));
    assertThat(v4.table(TableKey.node("A"))).contains(new TableEntry(TableKey.node("A"), 2, 2));
    assertThat(v4.table(TableKey.node("C"))).contains(new TableEntry(TableKey.node("C"), 4, 1));

    assertThat(SchemaIr.fromJson(v4.toJson())).isEqualTo(v4);
    assertThat(SchemaIr.fromJson(v4.toPrettyJson()).retiredTables()).isEqualTo(v4.retiredTables());
    assertThat(v4.identity()).isNotEqualTo(v3.identity());
  }

  @Test
  void onlyTablesOfBothSchemasCanBeRebuilt() {
    SchemaIr v1 = SchemaIr.initial(SchemaParser.parse("node A {}"));
    assertThatThrownBy(() -> SchemaIr.evolve(v1, SchemaParser.parse("node B {}"), Set.of(TableKey.node("B"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot rebuild node:B: it is not a table of both schemas");
  }

  @Test
  void tableEntriesRejectMalformedIds() {
    assertThatThrownBy(() -> new TableEntry(TableKey.node("A"), 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> TableKey.parse("Person")).isInstanceOf(IllegalArgumentException.class);
  }

  // ---- fromJson refuses what it cannot trust ----

  private static final String SMALL = SchemaIr.initial(SchemaParser.parse(
      "node A { k: String @key } node B {} edge E: A -> B")).toJson();

  @Test
  void refusesAnotherVersion() {
    assertInvalid(SMALL.replace("\"ir_version\":1", "\"ir_version\":2"),
        "invalid schema IR: unsupported ir_version 2 (this build reads 1)");
  }

  @Test
  void refusesUnknownAndMissingFields() {
    assertInvalid(SMALL.replace("\"key\":[\"k\"]", "\"key\":[\"k\"],\"extra\":true"),
        "invalid schema IR: $.nodes[0]: unexpected field 'extra'");
    assertInvalid(SMALL.replace(",\"from\":\"A\"", ""),
        "invalid schema IR: $.edges[0]: missing field 'from'");
    assertInvalid(SMALL.replace("\"nullable\":false", "\"nullable\":\"no\""),
        "invalid schema IR: $.nodes[0].properties[0].type.nullable: expected true or false");
  }

  @Test
  void refusesInconsistentDocuments() {
    assertInvalid(SMALL.replace("\"key\":[\"k\"]", "\"key\":[\"kk\"]"),
        "invalid schema IR: node A constrains unknown property kk");
    assertInvalid(SMALL.replace("\"stable_table_id\":2", "\"stable_table_id\":1"),
        "invalid schema IR: stable table id 1 is used twice");
    assertInvalid(SMALL.replace("\"to\":\"B\"", "\"to\":\"C\""),
        "invalid schema IR: $: edge E names an unknown endpoint");
  }

  @Test
  void refusesNonCanonicalDocuments() {
    String swapped = SMALL.replace("0000000000000002-0000000000000001", "0000000000000009-0000000000000001");
    assertInvalid(swapped, "invalid schema IR: the document is not in canonical form (types, properties and"
        + " constraints must be sorted, and derived fields such as dataset_path must match)");
  }

  @Test
  void refusesMalformedJson() {
    assertThatThrownBy(() -> SchemaIr.fromJson(SMALL + "{}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("invalid schema IR: not valid JSON");
    assertThatThrownBy(() -> SchemaIr.fromJson(SMALL.replace("{\"ir_version\":1,", "{\"ir_version\":1,\"ir_version\":1,")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Duplicate field 'ir_version'");
    assertInvalid("[]", "invalid schema IR: the document must be a JSON object");
  }

  private static void assertInvalid(String json, String message) {
    assertThatThrownBy(() -> SchemaIr.fromJson(json)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
  }

  /**
   * Stable property ids: derived for a fresh graph (not written, so its identity is what it always
   * was), kept across a property rename and a type rename, new for a property dropped and added again;
   * ids are written once an evolution makes them differ from the derived ones, and read back exactly.
   */
  @Test
  void propertyIdsSurviveRenamesAndAreNeverReused() {
    SchemaIr v1 = SchemaIr.initial(SchemaParser.parse("node A { x: I32? y: String? } node B { z: I64? }"));
    assertThat(v1.toJson()).doesNotContain("property_ids");
    assertThat(v1.propertyId(TableKey.node("A"), "x")).contains(1L);
    assertThat(v1.propertyId(TableKey.node("A"), "y")).contains(2L);
    assertThat(v1.propertyId(TableKey.node("B"), "z")).contains(3L);

    // A renamed to C (type), x renamed to w, y dropped, v added.
    SchemaIr v2 = SchemaIr.evolve(v1, SchemaParser.parse("node C { w: I32? v: String? } node B { z: I64? }"),
        Set.of(), java.util.Map.of(TableKey.node("C"), TableKey.node("A")), java.util.Map.of(TableKey.node("C"), java.util.Map.of("w", "x")));
    assertThat(v2.propertyId(TableKey.node("C"), "w")).contains(1L);
    assertThat(v2.propertyId(TableKey.node("C"), "v")).contains(4L);
    assertThat(v2.propertyId(TableKey.node("B"), "z")).contains(3L);
    assertThat(v2.table(TableKey.node("C"))).contains(new TableEntry(TableKey.node("C"), v1.table(TableKey.node("A")).orElseThrow().stableTableId(), 1));
    assertThat(v2.toJson()).contains("\"property_ids\"").contains("\"next_property_id\":5");

    // y comes back: a new declaration, a new id.
    SchemaIr v3 = SchemaIr.evolve(v2, SchemaParser.parse("node C { w: I32? v: String? y: String? } node B { z: I64? }"));
    assertThat(v3.propertyId(TableKey.node("C"), "y")).contains(5L);
    assertThat(v3.propertyId(TableKey.node("C"), "w")).contains(1L);

    SchemaIr back = SchemaIr.fromJson(v3.toPrettyJson());
    assertThat(back).isEqualTo(v3);
    assertThat(back.identity()).isEqualTo(v3.identity());
    assertThat(back.propertyId(TableKey.node("C"), "y")).contains(5L);
    assertThatThrownBy(() -> SchemaIr.fromJson(v3.toJson().replace("\"w\":1", "\"w\":3")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duplicate property ids");
    // An unchanged legacy IR stays in its legacy form.
    assertThat(SchemaIr.evolve(v1, v1.catalog()).toJson()).isEqualTo(v1.toJson());
  }
}
