package dev.omnigraph.schema;

import dev.omnigraph.api.TableKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaParserTest {

  static String resource(String name) {
    try (InputStream in = SchemaParserTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static final Catalog PEOPLE = SchemaParser.parse(resource("people.pg"));

  private static Property prop(String name, PropertyType type, Annotation... annotations) {
    return new Property(name, type, List.of(annotations));
  }

  private static PropertyType scalar(ScalarKind kind) {
    return PropertyType.scalar(kind, false);
  }

  private static PropertyType nullable(ScalarKind kind) {
    return PropertyType.scalar(kind, true);
  }

  private static Annotation note(String name, String... args) {
    return new Annotation(name, List.of(args), Map.of());
  }

  @Test
  void interfaceKeepsItsPropertiesFlagsAndAnnotations() {
    assertThat(PEOPLE.interfaces()).containsOnlyKeys("Named");
    assertThat(PEOPLE.iface("Named")).contains(new InterfaceType("Named",
        List.of(prop("name", scalar(ScalarKind.STRING)), prop("nickname", nullable(ScalarKind.STRING))),
        List.of("name"), List.of(), List.of(),
        List.of(note("description", "has a human-readable name"))));
  }

  @Test
  void personMergesItsInterfaceAndDesugarsEveryConstraint() {
    NodeType expected = new NodeType("Person",
        List.of("Named"),
        List.of(
            prop("age", nullable(ScalarKind.I32)),
            prop("bio", nullable(ScalarKind.STRING)),
            prop("born", nullable(ScalarKind.DATE)),
            prop("email", scalar(ScalarKind.STRING)),
            prop("embedding", new PropertyType(ScalarKind.VECTOR, false, true, List.of(), 4),
                new Annotation("embed", List.of("bio"), Map.of("model", "mini-lm"))),
            prop("name", scalar(ScalarKind.STRING)),
            prop("nickname", nullable(ScalarKind.STRING)),
            prop("scores", new PropertyType(ScalarKind.F64, true, false, List.of(), 0)),
            prop("status", new PropertyType(ScalarKind.ENUM, false, false, List.of("active", "on-leave", "retired"), 0)),
            prop("tags", new PropertyType(ScalarKind.STRING, true, true, List.of(), 0))),
        List.of("name"),
        List.of(List.of("email")),
        List.of(List.of("age"), List.of("embedding"), List.of("status", "age")),
        List.of(new RangeConstraint("age", BigDecimal.ZERO, BigDecimal.valueOf(150))),
        List.of(new CheckConstraint("email", "^[^@\\s]+@[^@\\s]+$")),
        List.of(note("description", "a human being")));
    assertThat(PEOPLE.node("Person")).contains(expected);
    assertThat(expected.tableKey()).isEqualTo(TableKey.node("Person"));
    assertThat(expected.isKeyed()).isTrue();
  }

  @Test
  void companyHasACompositeKeyInDeclaredOrderAndOpenRanges() {
    NodeType company = PEOPLE.node("Company").orElseThrow();
    assertThat(company).isEqualTo(new NodeType("Company",
        List.of(),
        List.of(
            prop("country", scalar(ScalarKind.STRING)),
            prop("founded", nullable(ScalarKind.DATETIME)),
            prop("name", scalar(ScalarKind.STRING), note("description", "legal name")),
            prop("rating", nullable(ScalarKind.F32)),
            prop("registry", scalar(ScalarKind.I64))),
        List.of("country", "registry"),
        List.of(List.of("country", "name")),
        List.of(),
        List.of(new RangeConstraint("rating", new BigDecimal("0.0"), new BigDecimal("5")),
            new RangeConstraint("registry", BigDecimal.ONE, null)),
        List.of(),
        List.of()));
  }

  @Test
  void edgesCarryEndpointsCardinalityAndSystemColumnConstraints() {
    assertThat(PEOPLE.edges()).containsOnlyKeys("Founded", "Knows", "WorksAt");
    assertThat(PEOPLE.edges().get("Knows")).isEqualTo(new EdgeType("Knows", "Person", "Person",
        Cardinality.UNBOUNDED,
        List.of(prop("since", nullable(ScalarKind.DATE)), prop("weight", scalar(ScalarKind.F64))),
        List.of(List.of("dst", "src")),
        List.of(List.of("weight")),
        List.of()));
    assertThat(PEOPLE.edges().get("WorksAt")).isEqualTo(new EdgeType("WorksAt", "Person", "Company",
        new Cardinality(0, 1L),
        List.of(prop("start", scalar(ScalarKind.DATE)), prop("title", nullable(ScalarKind.STRING))),
        List.of(), List.of(), List.of(note("deprecated"))));
    assertThat(PEOPLE.edges().get("Founded")).isEqualTo(new EdgeType("Founded", "Person", "Company",
        new Cardinality(0, 3L), List.of(), List.of(), List.of(), List.of()));
  }

  @Test
  void tableKeysAreSortedAndEdgeLookupIgnoresCase() {
    assertThat(PEOPLE.tableKeys()).containsExactly(
        TableKey.edge("Founded"), TableKey.edge("Knows"), TableKey.edge("WorksAt"), TableKey.node("Company"), TableKey.node("Person"));
    assertThat(PEOPLE.edge("knows")).map(EdgeType::name).contains("Knows");
    assertThat(PEOPLE.edge("WORKSAT")).map(EdgeType::name).contains("WorksAt");
    assertThat(PEOPLE.edge("Likes")).isEmpty();
    assertThat(PEOPLE.node("person")).isEmpty();
  }

  @Test
  void declarationOrderWhitespaceAndCommentsDoNotChangeTheCatalog() {
    String reordered = """
        edge Founded: Person -> Company @card(0..3)
        edge WorksAt : Person->Company @deprecated @card(0..1) { start: Date; title: String? }
        node Company { @key(country, registry) name: String @description("legal name")
          registry: I64 ; country: String ; rating: F32?, founded: DateTime?
          @range(registry, 1..) @range(rating, 0..5.00) @unique(country, name) }
        edge Knows: Person -> Person { @unique(dst, src) weight: F64 @index since: Date? }
        /* the person */ node Person @description("a human being") implements Named {
          @index(status, age) @range(age, 0..150)
          status: enum(retired, on-leave, active) born: Date? tags: [String]? scores: [F64]
          bio: String? embedding: Vector(4)? @embed(bio, model="mini-lm") @index
          email: String @unique @check(email, "^[^@\\\\s]+@[^@\\\\s]+$") age: I32? @index
        }
        interface Named @description("has a human-readable name") { nickname: String? name: String @key }
        """;
    assertThat(SchemaParser.parse(reordered)).isEqualTo(PEOPLE);
  }

  @Test
  void anEdgeWithoutBodyAndAnEmptySchemaAreValid() {
    assertThat(SchemaParser.parse("").nodes()).isEmpty();
    assertThat(SchemaParser.parse("// nothing yet\n/* really */").tableKeys()).isEmpty();
    Catalog c = SchemaParser.parse("node A { } edge Self: A -> A");
    assertThat(c.edges().get("Self").properties()).isEmpty();
    assertThat(c.node("A").orElseThrow().isKeyed()).isFalse();
  }

  @Test
  void keywordsRemainUsableAsPropertyNamesAndEnumVariantsKeepTheirSpelling() {
    NodeType n = SchemaParser.parse(
        "node T { node: String edge: I32 enum: enum(a-1, 2x, _z, x-) interface: Bool? }").node("T").orElseThrow();
    assertThat(n.properties()).extracting(Property::name).containsExactly("edge", "enum", "interface", "node");
    assertThat(n.property("enum").orElseThrow().type().enumValues()).containsExactly("2x", "_z", "a-1", "x-");
  }

  @Test
  void propertyFlagsOnANodeAndTheEquivalentBodyFormAgree() {
    Catalog flags = SchemaParser.parse("node T { a: String @key b: I32 @unique @index }");
    Catalog body = SchemaParser.parse("node T { a: String b: I32 @key(a) @unique(b) @index(b) }");
    assertThat(flags).isEqualTo(body);
    // Written twice, a constraint is still one constraint.
    assertThat(SchemaParser.parse("node T { a: String @key @unique @key(a) @unique(a) }").node("T").orElseThrow())
        .satisfies(t -> {
          assertThat(t.key()).containsExactly("a");
          assertThat(t.uniques()).containsExactly(List.of("a"));
        });
  }

  @Test
  void aCompositeKeyKeepsItsListOrderWhileUniqueColumnsAreASet() {
    NodeType t = SchemaParser.parse("node T { b: I32 a: String @key(b, a) @unique(b, a) @index(b, a) }")
        .node("T").orElseThrow();
    assertThat(t.key()).containsExactly("b", "a");
    assertThat(t.uniques()).containsExactly(List.of("a", "b"));
    assertThat(t.indexes()).containsExactly(List.of("b", "a"));
  }

  @Test
  void aNodeMayRedeclareAnInterfacePropertyWithTheSameTypeAndKeepsItsFlags() {
    Catalog c = SchemaParser.parse("""
        interface Named { name: String @key }
        interface Tagged { name: String @index  tag: String? @unique }
        node Doc implements Named, Tagged { name: String @description("title") }
        """);
    NodeType doc = c.node("Doc").orElseThrow();
    assertThat(doc.interfaces()).containsExactly("Named", "Tagged");
    assertThat(doc.key()).containsExactly("name");
    assertThat(doc.uniques()).containsExactly(List.of("tag"));
    assertThat(doc.indexes()).containsExactly(List.of("name"));
    assertThat(doc.property("name").orElseThrow().annotations()).containsExactly(note("description", "title"));
  }

  @Test
  void unknownAnnotationsAreKeptInCanonicalOrderWithDecodedArguments() {
    NodeType t = SchemaParser.parse("""
        node T @zeta @alpha(1, -2.5, name, "q\\"uote\\n", 0..3, b = "x", a = 7) {
          @body(on_type)
          p: String @doc("line\\tone") @doc("line\\tone")
        }
        """).node("T").orElseThrow();
    assertThat(t.annotations()).containsExactly(
        new Annotation("alpha", List.of("1", "-2.5", "name", "q\"uote\n", "0..3"), Map.of("a", "7", "b", "x")),
        note("body", "on_type"),
        note("zeta"));
    assertThat(t.property("p").orElseThrow().annotations()).containsExactly(note("doc", "line\tone"));
  }

  @Test
  void aByteOrderMarkAndTabsDoNotShiftPositions() {
    try {
      SchemaParser.parse("\uFEFFnode T {\n\tx: Strng\n}");
    } catch (SchemaParseException e) {
      assertThat(e.line()).isEqualTo(2);
      assertThat(e.column()).isEqualTo(5);
      return;
    }
    throw new AssertionError("expected a parse error");
  }

  @Test
  void propertyTypesDisplayAsWritten() {
    NodeType t = SchemaParser.parse(
        "node T { a: [U64]? b: Vector(128) c: enum(y, x)? d: DateTime e: [Bool] }").node("T").orElseThrow();
    assertThat(t.properties()).extracting(p -> p.type().display())
        .containsExactly("[U64]?", "Vector(128)", "enum(x, y)?", "DateTime", "[Bool]");
  }
}
