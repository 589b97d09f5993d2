package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every rejection path, with the exact position and message a user sees. */
class SchemaErrorsTest {

  static Stream<Arguments> errors() {
    return Stream.of(
        // ---- syntax (ANTLR, converted) ----
        err("missing colon", "node Person {\n  name String\n}",
            2, 8, "unexpected 'String'; expected ':'"),
        err("missing closing brace", "node Person {\n  name: String\n",
            3, 1, "unexpected end of input; expected one of ',', ';', '@', '}', a name"),
        err("misspelt keyword", "nod Person {}",
            1, 1, "unexpected 'nod'; expected one of 'edge', 'interface', 'node', end of input"),
        err("edge without arrow", "node A {}\nedge E: A to A",
            2, 11, "unexpected 'to'; expected '->'"),
        err("stray character", "node Person { name: String # }",
            1, 28, "unexpected character '#' (names use ASCII letters, digits and '_'; text goes in double quotes)"),
        err("non-ASCII name", "node Café {}",
            1, 9, "unexpected character 'é' (names use ASCII letters, digits and '_'; text goes in double quotes)"),
        err("unterminated string", "node P {\n  a: String @doc(\"abc }\n}",
            2, 18, "unterminated string literal: missing closing '\"'"),
        err("unterminated comment", "node A {}\n  /* never closed",
            2, 3, "unterminated block comment: '/*' has no closing '*/'"),
        err("unknown escape", "node P { a: String @doc(\"x\\qy\") }",
            1, 27, "unsupported escape sequence '\\q' in string (use \\\" \\\\ \\n \\r or \\t)"),
        err("enum missing comma", "node P {\n  s: enum(a b)\n}",
            2, 13, "enum variants are separated by commas: missing ',' before 'b'"),

        // ---- names ----
        err("lower-case type name", "node person {}",
            1, 6, "node name 'person' must start with an uppercase letter (A-Z) followed by letters, digits or '_'"),
        err("upper-case property name", "node P {\n  Name: String\n}",
            2, 3, "property name 'Name' in node P must start with a lowercase letter or '_' followed by letters, digits or '_'"),
        err("duplicate node", "node A {}\nnode A {}",
            2, 6, "duplicate type name 'A': already declared as node at 1:6"),
        err("node clashes with interface", "interface A {}\nnode A {}",
            2, 6, "duplicate type name 'A': already declared as interface at 1:11"),
        err("edges differing in case", "node A {}\nedge Knows: A -> A\nedge KNOWS: A -> A",
            3, 6, "duplicate edge name 'KNOWS': edge 'Knows' at 2:6 differs only in case, and edge names are matched case-insensitively"),
        err("duplicate property", "node P {\n  a: String\n  a: I32\n}",
            3, 3, "duplicate property 'a' in node P (first declared at 2:3)"),
        err("reserved id", "node P { id: String }",
            1, 10, "property name 'id' in node P is reserved: every row has a system column id"),
        err("reserved src on edge", "node A {}\nedge E: A -> A { src: String }",
            2, 18, "property name 'src' in edge E is reserved: every edge row has system columns id, src and dst"),
        err("reserved Lance column", "node P { _rowid: I64 }",
            1, 10, "property name '_rowid' in node P is reserved for a Lance system column"),

        // ---- types ----
        err("misspelt scalar", "node P {\n  x: I32\n  name: Strin\n}",
            3, 9, "unknown type 'Strin' for property 'name' of node Person (did you mean String?)".replace("Person", "P")),
        err("wrong case scalar", "node P { flag: bool }",
            1, 16, "unknown type 'bool' for property 'flag' of node P (did you mean Bool?)"),
        err("unknown type without hint", "node P { x: Money }",
            1, 13, "unknown type 'Money' for property 'x' of node P"),
        err("node used as property type", "node A {}\nnode P { boss: A }",
            2, 16, "property 'boss' of node P has type 'A', which is a node; properties hold scalar values, connect types with an edge"),
        err("list of blobs", "node P { data: [Blob] }",
            1, 17, "property 'data' of node P: lists of Blobs are not supported"),
        err("indexed blob", "node P { data: Blob @index }",
            1, 21, "@index is not supported on Blob property 'data' of node P"),
        err("vector without dimension", "node P { v: Vector }",
            1, 13, "property 'v' of node P: Vector needs a dimension, e.g. Vector(384)"),
        err("vector of zero", "node P { v: Vector(0) }",
            1, 20, "property 'v' of node P: Vector dimension must be a whole number from 1 to 2147483647, got 0"),
        err("vector negative", "node P { v: Vector(-3) }",
            1, 20, "property 'v' of node P: Vector dimension must be a whole number from 1 to 2147483647, got -3"),
        err("vector too wide", "node P { v: Vector(2147483648) }",
            1, 20, "property 'v' of node P: Vector dimension must be a whole number from 1 to 2147483647, got 2147483648"),
        err("scalar with argument", "node P { s: String(10) }",
            1, 20, "property 's' of node P: type String takes no argument"),
        err("empty enum", "node P {\n  s: enum()\n}",
            2, 6, "property 's' of node P: enum must list at least one value"),
        err("duplicate enum value", "node P { s: enum(a, b, a) }",
            1, 24, "property 's' of node P: duplicate enum value 'a' (first at 1:18)"),
        err("nested list", "node P { l: [[String]] }",
            1, 14, "property 'l' of node P: a list holds plain scalars, not lists"),
        err("list of enums", "node P { l: [enum(a)] }",
            1, 14, "property 'l' of node P: a list holds plain scalars, not enums"),
        err("nullable list element", "node P { l: [String?] }",
            1, 14, "property 'l' of node P: list elements cannot be nullable; write [String]? for a nullable list"),
        err("list of vectors", "node P { l: [Vector(3)] }",
            1, 14, "property 'l' of node P: lists of vectors are not supported"),

        // ---- references ----
        err("edge to unknown node", "node Person {}\nedge Knows: Person -> Persn",
            2, 23, "edge Knows references unknown node type 'Persn' (did you mean Person?)"),
        err("edge from unknown node", "node Person {}\nedge Knows: Ghost -> Person",
            2, 13, "edge Knows references unknown node type 'Ghost'"),
        err("edge to an interface", "interface Named {}\nnode P {}\nedge E: P -> Named",
            3, 14, "edge E connects 'Named', which is an interface; edge endpoints must be node types"),
        err("implements unknown", "interface Named {}\nnode P implements Namd {}",
            2, 19, "node P implements unknown interface 'Namd' (did you mean Named?)"),
        err("implements a node", "node A {}\nnode P implements A {}",
            2, 19, "node P implements 'A', which is a node, not an interface"),
        err("implements twice", "interface I {}\nnode P implements I, I {}",
            2, 22, "node P lists interface 'I' twice"),
        err("conflicts with its interface", "interface Named { name: String }\nnode P implements Named {\n  name: String?\n}",
            3, 3, "property 'name' of node P has type String? but interface Named declares it as String"),
        err("two interfaces conflict", "interface A { x: I32 }\ninterface B { x: I64 }\nnode P implements A, B {}",
            3, 22, "node P cannot implement both A and B: they declare 'x' as I32 and I64"),

        // ---- keys ----
        err("unknown key property", "node P {\n  name: String\n  @key(nme)\n}",
            3, 8, "unknown property 'nme' in @key of node P (did you mean name?)"),
        err("nullable key flag", "node P { nick: String? @key }",
            1, 24, "@key property 'nick' of node P is nullable (String?); every key property must always have a value"),
        err("nullable member of composite key", "node P { a: String b: I32?\n  @key(a, b) }",
            2, 11, "@key property 'b' of node P is nullable (I32?); every key property must always have a value"),
        err("list key", "node P { tags: [String] @key }",
            1, 25, "@key property 'tags' of node P has type [String]; a key needs single scalar values, not lists or vectors"),
        err("vector key", "node P { v: Vector(2)\n  @key(v) }",
            2, 8, "@key property 'v' of node P has type Vector(2); a key needs single scalar values, not lists or vectors"),
        err("two keys", "node P { a: String @key\n  b: String @key }",
            2, 13, "node P declares a second @key (b; the first, at 1:20, is a); a node has one key: list every key property in one @key(a, b)"),
        err("node key differs from its interface's", "interface Named { name: String @key }\nnode P implements Named {\n  code: String\n  @key(code)\n}",
            4, 3, "node P declares a second @key (code; the first, at 1:32, is name); a node has one key: list every key property in one @key(a, b)"),
        err("key listed twice", "node P { a: String @key(a, a) }",
            1, 28, "@key on node P lists 'a' twice"),
        err("empty key list", "node P { a: String\n  @key() }",
            2, 3, "@key on node P needs at least one property name"),
        err("key with a literal", "node P { a: String @unique(\"a\") }",
            1, 28, "@unique on node P lists property names; 'a' is not one"),
        err("two key flags in an interface", "interface I { a: String @key\n  b: String @key }",
            2, 13, "interface I flags both 'a' (at 1:25) and 'b' with @key; declare a key spanning several properties on the node, as @key(a, b)"),
        err("key on an edge", "node A {}\nedge E: A -> A { w: I32 @key }",
            2, 25, "@key is not supported on edges (edge E): edge ids are generated; use @unique(src, dst) to forbid parallel edges"),
        err("key in a node header", "node P @key(a) { a: String }",
            1, 8, "@key cannot annotate node P itself: put it after a property or inside the braces, e.g. @key(...)"),

        // ---- other constraints ----
        err("unknown unique property", "node P { email: String\n  @unique(emial) }",
            2, 11, "unknown property 'emial' in @unique of node P (did you mean email?)"),
        err("unique on a list", "node P { tags: [String] @unique }",
            1, 25, "@unique is not supported on list property 'tags' of node P ([String])"),
        err("unique on a vector", "node P { v: Vector(3) @unique }",
            1, 23, "@unique is not supported on vector property 'v' of node P"),
        err("unknown index property", "node A {}\nedge E: A -> A { w: I32\n  @index(src, x) }",
            3, 15, "unknown property 'x' in @index of edge E"),
        err("index on a list", "node P { tags: [String]\n  @index(tags) }",
            2, 10, "@index is not supported on list property 'tags' of node P ([String])"),
        err("repeated flag", "node P { a: String @index @index }",
            1, 27, "property 'a' of node P repeats @index"),
        err("range on a string", "node P { s: String\n  @range(s, 0..1) }",
            2, 10, "@range on node P needs a numeric property; 's' is String"),
        err("range on unknown property", "node P { age: I32\n  @range(aeg, 0..1) }",
            2, 10, "unknown property 'aeg' in @range of node P (did you mean age?)"),
        err("range min above max", "node P { age: I32\n  @range(age, 10..-1) }",
            2, 15, "@range on node P has min 10 greater than max -1"),
        err("fractional bound on an integer", "node P { age: I32 @range(age, 0..1.5) }",
            1, 34, "@range bound 1.5 on I32 property 'age' of node P must be a whole number"),
        err("range without bounds", "node P { x: F64 @range(x, ..) }",
            1, 27, "@range on node P needs at least one bound; write @range(property, min..max), either bound may be left open"),
        err("range without a range", "node P { x: F64 @range(x, 5) }",
            1, 17, "@range on node P takes a property and a range; write @range(property, min..max), either bound may be left open"),
        err("range twice", "node P { x: F64\n  @range(x, 0..1)\n  @range(x, 2..3) }",
            3, 10, "node P declares @range for 'x' twice (first at 2:10)"),
        err("bare range", "node P { x: F64 @range }",
            1, 17, "@range needs arguments: write @range(x, min..max) in the body of node P"),
        err("range on an edge", "node A {}\nedge E: A -> A { w: I32\n  @range(w, 0..1) }",
            3, 3, "@range is not supported on edges (edge E)"),
        err("check on an integer", "node P { n: I32\n  @check(n, \"^[0-9]+$\") }",
            2, 10, "@check on node P needs a String property; 'n' is I32"),
        err("check on unknown property", "node P { code: String\n  @check(cdoe, \"^x$\") }",
            2, 10, "unknown property 'cdoe' in @check of node P (did you mean code?)"),
        err("bad regex", "node P { code: String\n  @check(code, \"[A-Z\") }",
            2, 16, "@check on node P has an invalid pattern for 'code': Unclosed character class at index 3"),
        err("check without pattern", "node P { code: String @check(code, code) }",
            1, 23, "@check on node P takes a property and a quoted pattern; write @check(property, \"regex\")"),
        err("constraint in an interface body", "interface I { a: String\n  @unique(a) }",
            2, 3, "@unique(...) is not allowed in interface I: write a bare @unique after the property, or put the constraint on the implementing node"),

        // ---- cardinality ----
        err("card min above max", "node A {}\nedge E: A -> A @card(3..1)",
            2, 22, "@card on edge E has min 3 greater than max 1"),
        err("card negative", "node A {}\nedge E: A -> A @card(-1..1)",
            2, 22, "@card bound '-1' on edge E must be a whole number from 0 to 4294967295"),
        err("card too large", "node A {}\nedge E: A -> A @card(0..4294967296)",
            2, 25, "@card bound '4294967296' on edge E must be a whole number from 0 to 4294967295"),
        err("card without lower bound", "node A {}\nedge E: A -> A @card(..2)",
            2, 22, "@card on edge E needs a lower bound; write @card(min..max) or @card(min..), e.g. @card(0..1)"),
        err("card not a range", "node A {}\nedge E: A -> A @card(1)",
            2, 16, "@card on edge E takes one range; write @card(min..max) or @card(min..), e.g. @card(0..1)"),
        err("card twice", "node A {}\nedge E: A -> A @card(0..1) @card(0..2)",
            2, 28, "edge E declares @card twice (first at 2:16)"),
        err("card on a node", "node A { @card(0..1) }",
            1, 10, "@card applies to edges only; node A cannot carry it"),
        err("card in an edge body", "node A {}\nedge E: A -> A { @card(0..1) }",
            2, 18, "@card goes in the edge header: edge E: A -> A @card(min..max) { ... }"),
        err("repeated keyword argument", "node A @doc(x = \"1\", x = \"2\") {}",
            1, 22, "@doc on node A repeats argument 'x='"));
  }

  @Test
  void syntaxErrorsPrintNothing() {
    PrintStream err = System.err;
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(captured)) {
      System.setErr(capture);
      System.setOut(capture);
      catchThrowableOfType(SchemaParseException.class, () -> SchemaParser.parse("node { # \"open"));
      catchThrowableOfType(SchemaParseException.class, () -> SchemaParser.parse("node A { a: }"));
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    assertThat(captured.toString()).isEmpty();
  }

  /** Before: about 3,000 nested '[' overflowed the parser's stack (StackOverflowError, a 500 over HTTP). */
  @Test
  void bracketsNestDeeperThanTheLimitAreATypedErrorAtTheirPosition() {
    String prefix = "node P {\n  tags: ";
    String deep = prefix + "[".repeat(20_000) + "String" + "]".repeat(20_000) + "\n}";
    SchemaParseException e = catchThrowableOfType(SchemaParseException.class, () -> SchemaParser.parse(deep));
    assertThat(e).isNotNull();
    // The body's '{' is level 1, so the 64th '[' is level 65.
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo("  tags: ".length() + 64);
    assertThat(e.getMessage()).isEqualTo("2:" + ("  tags: ".length() + 64)
        + ": '[' nests deeper than 64 levels of brackets ({ [ ( together), the schema language's limit");
    // Exactly at the limit still parses (and then fails only as a type check would, never on depth).
    String atLimit = prefix + "[".repeat(63) + "String" + "]".repeat(63) + "\n}";
    SchemaParseException ok = catchThrowableOfType(SchemaParseException.class, () -> SchemaParser.parse(atLimit));
    assertThat(ok == null ? "" : ok.reason()).doesNotContain("nests deeper");
    // An earlier syntax error is still the one reported.
    SchemaParseException first = catchThrowableOfType(SchemaParseException.class,
        () -> SchemaParser.parse("nod P {\n  tags: " + "[".repeat(5_000) + "\n}"));
    assertThat(first.getMessage()).startsWith("1:1: unexpected 'nod'");
  }

  private static Arguments err(String name, String schema, int line, int column, String reason) {
    return Arguments.of(name, schema, line, column, reason);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void isRejectedAtItsPosition(String name, String schema, int line, int column, String reason) {
    SchemaParseException e = catchThrowableOfType(SchemaParseException.class, () -> SchemaParser.parse(schema));
    assertThat(e).as("%s must be rejected", name).isNotNull();
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.line()).as("line").isEqualTo(line);
    assertThat(e.column()).as("column").isEqualTo(column);
    assertThat(e.getMessage()).isEqualTo(line + ":" + column + ": " + reason);
  }
}
