package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rejection path of parse and check, with the exact position, query name and message a user
 * sees. Sources are checked against the fixture schema.
 */
class QueryErrorsTest {

  private static final String R = " return { $p.name } }";

  static Stream<Arguments> syntax() {
    return Stream.of(
        err("missing closing brace", "query q() { match { $p: Person } return { $p.name }",
            1, 52, "q", "unexpected end of input; expected '}'"),
        err("junk after a declaration", "query q() { match { $p: Person }" + R + " extra",
            1, 55, null, "unexpected 'extra'; expected one of 'query', end of input"),
        err("unclosed parameter list", "query q( { }",
            1, 10, "q", "unexpected '{'; expected one of ')', a $variable"),
        err("binding without colon", "query q() { match { $p Person }" + R,
            1, 31, "q", "unexpected '}'; expected one of '{', a $variable (to bind $p to the type Person, write"
                + " $p: Person)"),
        err("fractional limit", "query q() { match { $p: Person } return { $p.name } limit 1.5 }",
            1, 59, "q", "unexpected '1.5'; expected an integer"),
        err("double equals", "query q() { match { $p: Person $p.name == \"x\" }" + R,
            1, 41, "q", "unexpected '='; expected one of '-', '[', 'date', 'datetime', 'false', 'now', 'null',"
                + " 'true', a $variable, a number, a string, an integer"),
        err("empty match", "query q() { match { }" + R,
            1, 21, "q", "unexpected '}'; expected one of '-', '[', 'bm25', 'date', 'datetime', 'false', 'fuzzy',"
                + " 'match_text', 'nearest', 'not', 'now', 'null', 'rrf', 'search', 'true', a $variable, a number,"
                + " a string, an integer"),
        err("empty insert", "query q() { insert Person { } }",
            1, 29, "q", "unexpected '}'; expected a name"),
        err("unterminated comment", "query q() { match { $p: Person }" + R + " /* open",
            1, 55, null, "unterminated block comment: '/*' has no closing '*/'"),
        err("stray character", "query q() { match { $p: Person } return { $p.name # } }",
            1, 51, null, "unexpected character '#' (names use ASCII letters, digits and '_'; text goes in double quotes)"),
        err("unterminated string", "query q() {\n  match { $p: Person { name: \"x } }",
            2, 30, null, "unterminated string literal: missing closing '\"'"),
        err("bare dollar", "query q() { match { $ } }",
            1, 21, null, "'$' must be followed by a variable or parameter name"),
        err("bad escape", "query q() {\n  match { $p: Person { name: \"a\\qb\" } }" + R,
            2, 32, "q", "unsupported escape sequence '\\q' in string (use \\\" \\\\ \\n \\r or \\t)"),

        // ---- parse-level rules that need no schema ----
        err("unknown parameter type", "query q($x: Strin) { match { $p: Person }" + R,
            1, 13, "q", "unknown type 'Strin' for parameter $x (did you mean String?); parameter types are String,"
                + " Bool, I32, I64, U32, U64, F32, F64, Date, DateTime, Blob, [T] and Vector(n)"),
        err("node type as parameter type", "query q($x: Person) { match { $p: Person }" + R,
            1, 13, "q", "unknown type 'Person' for parameter $x; parameter types are String, Bool, I32, I64, U32,"
                + " U64, F32, F64, Date, DateTime, Blob, [T] and Vector(n)"),
        err("duplicate parameter", "query q($x: String, $x: I32) { match { $p: Person }" + R,
            1, 21, "q", "duplicate parameter $x (first declared at 1:9)"),
        err("duplicate query", "query q() { match { $p: Person }" + R + "\nquery q() { match { $p: Person }" + R,
            2, 7, null, "duplicate query name 'q' (first declared at 1:7)"),
        err("vector without dimension", "query q($v: Vector) { match { $p: Person }" + R,
            1, 13, "q", "parameter $v: Vector needs its dimension, as in Vector(3)"),
        err("zero vector dimension", "query q($v: Vector(0)) { match { $p: Person }" + R,
            1, 20, "q", "parameter $v: Vector dimension must be between 1 and 2147483647, got 0"),
        err("nullable list element", "query q($v: [String?]) { match { $p: Person }" + R,
            1, 20, "q", "parameter $v: list elements cannot be nullable; write [T]? for an optional list"),
        err("nested list", "query q($v: [[String]]) { match { $p: Person }" + R,
            1, 14, "q", "parameter $v: nested lists are not supported"),
        err("dimension on a scalar", "query q($v: I32(3)) { match { $p: Person }" + R,
            1, 16, "q", "parameter $v: only Vector takes a dimension"),
        err("hop bound overflow", "query q() { match { $p knows{1,99999999999999999999} $f }" + R,
            1, 32, "q", "hop bound 99999999999999999999 is too large"));
  }

  /** D₂: rejected when the query is checked, before any catalog lookup or I/O, wherever the odd one out stands. */
  static Stream<Arguments> mixedModes() {
    String advice = "; split the query into separate mutations, one with the inserts and updates and then one with"
        + " the deletes (or run both on a branch and merge it for a single commit)";
    return Stream.of(
        err("insert then delete", "query q($n: String) {\n  insert Person { name: $n }\n  delete Person where name = \"x\"\n}",
            3, 3, "q", "a mutation cannot mix insert with delete (insert Person at 2:3, delete Person at 3:3)" + advice),
        err("delete then update", "query q($n: String) {\n  delete Knows where since < 3\n  update Person set { age: 3 } where name = $n\n}",
            3, 3, "q", "a mutation cannot mix update with delete (update Person at 3:3, delete Knows at 2:3)" + advice),
        err("even on unknown types", "query q() {\n  insert Nobody { a: 1 }\n  update Nobody set { a: 2 } where a = 1\n  delete Nothing where b = 1\n}",
            4, 3, "q", "a mutation cannot mix insert with delete (insert Nobody at 2:3, delete Nothing at 4:3)" + advice));
  }

  static Stream<Arguments> types() {
    return Stream.of(
        // ---- names ----
        err("unknown node type", "query q() { match { $p: Persn }" + R,
            1, 25, "q", "unknown node type 'Persn' (did you mean Person?); the schema's node types are Company, Person"),
        err("edge bound as a node", "query q() { match { $p: Knows }" + R,
            1, 25, "q", "Knows is an edge type, not a node type; traverse it, as in $a knows $b"),
        err("unknown property", "query q() { match { $p: Person } return { $p.nmae } }",
            1, 46, "q", "variable $p is a Person, which has no property 'nmae' (did you mean name?); its properties"
                + " are age, born, email, embedding, name, score, seen, status, tags"),
        err("unknown property in a binding", "query q() { match { $p: Person { nickname: \"x\" } }" + R,
            1, 34, "q", "variable $p is a Person, which has no property 'nickname'; its properties are age, born,"
                + " email, embedding, name, score, seen, status, tags"),
        err("unknown edge", "query q() { match { $p: Person $p likes $f }" + R,
            1, 35, "q", "unknown edge 'likes'; the schema's edges are Knows, WorksAt"),
        err("misspelt edge", "query q() { match { $p: Person $p knws $f }" + R,
            1, 35, "q", "unknown edge 'knws' (did you mean Knows?); the schema's edges are Knows, WorksAt"),
        err("node type as edge", "query q() { match { $p: Person $p Person $f }" + R,
            1, 35, "q", "Person is a node type, not an edge; bind it, as in $x: Person"),
        err("variable shadows a parameter", "query q($x: String) { match { $x: Person } return { $x.name } }",
            1, 31, "q", "$x is a parameter of the query; a node variable needs another name"),
        err("rebinding to another type", "query q() { match { $p: Person $p: Company }" + R,
            1, 36, "q", "variable $p is already bound to Person (at 1:21); it cannot also be a Company"),

        // ---- traversals ----
        err("source of the wrong type", "query q() { match { $c: Company $c knows $f } return { $c.name } }",
            1, 33, "q", "variable $c is a Company but the source of edge Knows: Person -> Person is a Person"),
        err("edge written backwards", "query q() { match { $c: Company $c worksAt $p } return { $c.name } }",
            1, 33, "q", "variable $c is a Company but the source of edge WorksAt: Person -> Company is a Person;"
                + " to follow it the other way write $p worksAt $c"),
        err("target of the wrong type", "query q() { match { $p: Person $c: Company $p knows $c }" + R,
            1, 53, "q", "variable $c is a Company but the target of edge Knows: Person -> Person is a Person"),
        err("inferred type conflicts with a later binding", "query q() { match { $p worksAt $c $c: Person }" + R.replace("$p.name", "$c.name"),
            1, 39, "q", "variable $c is already bound to Company (at 1:32); it cannot also be a Person"),
        err("hop bounds reversed", "query q() { match { $p: Person $p knows{3,1} $f }" + R,
            1, 43, "q", "hop bounds {3,1}: the maximum must be at least the minimum"),
        err("zero minimum hops", "query q() { match { $p: Person $p knows{0,2} $f }" + R,
            1, 41, "q", "hop bounds {0,2}: the minimum must be at least 1"),
        err("unbounded hops", "query q() { match { $p: Person $p knows{2,} $f }" + R,
            1, 40, "q", "hop bounds {2,}: unbounded traversal is not supported; give a maximum, as in {2,3}"),

        // ---- variables ----
        err("unbound in return", "query q() { match { $p: Person } return { $f.name } }",
            1, 43, "q", "$f is not bound: no earlier clause binds it (as in $f: Type or a traversal) and no parameter"
                + " has that name"),
        err("unbound in a filter", "query q() { match { $p: Person $f.age > 3 }" + R,
            1, 32, "q", "$f is not bound: no earlier clause binds it (as in $f: Type or a traversal) and no parameter"
                + " has that name"),
        err("misspelt parameter", "query q($name: String) { match { $p: Person $p.name = $nme }" + R,
            1, 55, "q", "$nme is not bound: no earlier clause binds it (as in $nme: Type or a traversal) and no"
                + " parameter has that name (did you mean name?)"),
        err("node compared whole", "query q() { match { $p: Person $f: Person $p = $f }" + R,
            1, 43, "q", "$p is a Person node; compare one of its properties, as in $p.id"),
        err("property of a parameter", "query q($x: String) { match { $p: Person $x.name = \"a\" }" + R,
            1, 42, "q", "$x is a parameter, not a node variable; it has no properties"),
        err("variable in a binding constraint", "query q() { match { $f: Person $p: Person { name: $f } }" + R,
            1, 51, "q", "$f in a binding constraint must be a declared parameter (compare two variables with a filter"
                + " such as $p.name = $x.prop)"),
        err("negation without outer variable", "query q() { match { $p: Person not { $f: Person } }" + R,
            1, 32, "q", "not { ... } must mention a variable bound outside it; otherwise it would remove every row or none"),

        // ---- comparisons ----
        err("String with integer", "query q() { match { $p: Person $p.name = 3 }" + R,
            1, 42, "q", "cannot compare $p.name (String) with the integer 3"),
        err("I32 with string", "query q() { match { $p: Person $p.age = \"x\" }" + R,
            1, 41, "q", "cannot compare $p.age (I32?) with the string \"x\""),
        err("param type mismatch in a binding", "query q($a: I32) { match { $p: Person { name: $a } }" + R,
            1, 41, "q", "cannot compare $p.name (String) with $a (I32)"),
        err("param type mismatch in a filter", "query q($a: I32) { match { $p: Person $p.name = $a }" + R,
            1, 47, "q", "cannot compare $p.name (String) with $a (I32)"),
        err("property with property", "query q() { match { $p: Person $p.name < $p.age }" + R,
            1, 40, "q", "cannot compare $p.name (String) with $p.age (I32?)"),
        err("enum literal not a variant", "query q() { match { $p: Person $p.status = \"asleep\" }" + R,
            1, 44, "q", "\"asleep\" is not a variant of $p.status (enum(active, retired)?); the variants are active, retired"),
        err("Date with a string", "query q() { match { $p: Person $p.born > \"2020-01-01\" }" + R,
            1, 42, "q", "cannot compare $p.born (Date?) with the string \"2020-01-01\"; write a Date as date(\"2020-01-01\")"),
        err("bad date literal", "query q() { match { $p: Person $p.born > date(\"2020-13-01\") }" + R,
            1, 47, "q", "'2020-13-01' is not a Date; write it as YYYY-MM-DD, e.g. 2024-01-31"),
        err("bad datetime literal", "query q() { match { $p: Person $p.seen > datetime(\"2020-01-01T00:00:00\") }" + R,
            1, 51, "q", "'2020-01-01T00:00:00' is not a DateTime; write ISO-8601 with an offset, e.g. 2024-01-31T09:30:00Z"),
        err("now() against a Date", "query q() { match { $p: Person $p.seen < now() $p.born < now() }" + R,
            1, 56, "q", "cannot compare $p.born (Date?) with now() (DateTime)"),
        err("null test on a non-nullable property", "query q() { match { $p: Person $p.name = null }" + R,
            1, 40, "q", "$p.name (String) is never null, so this test is always false"),
        err("null with an ordering", "query q() { match { $p: Person $p.age < null }" + R,
            1, 39, "q", "null can only be tested with = or !=, not <"),
        err("list with =", "query q() { match { $p: Person $p.tags = \"x\" }" + R,
            1, 32, "q", "$p.tags ([String]?) is a list; lists cannot be compared with =, use contains to test membership"),
        err("list constraint with a list", "query q() { match { $p: Person { tags: [\"x\"] } }" + R,
            1, 40, "q", "property 'tags' of $p is a list ([String]?); a binding constraint matches one element, lists"
                + " cannot be compared whole"),
        err("contains on a number", "query q() { match { $p: Person $p.age contains 3 }" + R,
            1, 32, "q", "contains needs a String or a list on the left, but $p.age (I32?) is not one"),
        err("contains a wrong element", "query q() { match { $p: Person $p.tags contains 3 }" + R,
            1, 49, "q", "cannot compare an element of $p.tags ([String]?) with the integer 3"),
        err("starts_with on a number", "query q() { match { $p: Person $p.age starts_with \"1\" }" + R,
            1, 32, "q", "starts_with needs a String on the left, but $p.age (I32?) is not one"),
        err("starts_with a number", "query q() { match { $p: Person $p.name starts_with 1 }" + R,
            1, 52, "q", "cannot compare $p.name (String) with the integer 1: it needs a string"),
        err("vectors", "query q() { match { $p: Person $p.embedding = $p.embedding }" + R,
            1, 32, "q", "$p.embedding (Vector(3)?) is a vector; vectors cannot be compared with ="),
        err("two literals", "query q() { match { $p: Person 1 = 1 }" + R,
            1, 32, "q", "a filter compares a property or a parameter; two literals compare the same way on every row"),

        // ---- return, aggregates, order ----
        err("duplicate column", "query q() { match { $p: Person } return { $p.name, $p.name } }",
            1, 52, "q", "return column 'p.name' is produced twice (first at 1:43); give one of them its own name with 'as'"),
        err("aggregate named like a group key", "query q() { match { $p: Person } return { $p.age, max($p.age) } }",
            1, 51, "q", "return column 'p.age' is produced twice (first at 1:43); give one of them its own name with 'as'"),
        err("sum of a string", "query q() { match { $p: Person } return { $p.name, sum($p.name) } }",
            1, 56, "q", "sum needs a numeric property, but $p.name is String"),
        err("avg of a list", "query q() { match { $p: Person } return { avg($p.tags) } }",
            1, 47, "q", "avg needs a numeric property, but $p.tags is [String]?"),
        err("max of a vector", "query q() { match { $p: Person } return { max($p.embedding) } }",
            1, 47, "q", "max needs a scalar property that can be ordered, but $p.embedding is Vector(3)?"),
        err("sum of a variable", "query q() { match { $p: Person } return { sum($p) } }",
            1, 47, "q", "sum needs a property, as in sum($p.prop); only count takes a bare variable"),
        err("count of a parameter", "query q($x: String) { match { $p: Person } return { count($x) } }",
            1, 59, "q", "count($x): $x is a parameter; aggregates take a bound variable or one of its properties"),
        err("order by a non-group column", "query q() { match { $p: Person } return { $p.name, count($p) } order { $p.age } }",
            1, 72, "q", "order key $p.age is not returned; an aggregating query can only be ordered by its returned"
                + " columns (the group keys and the aggregates)"),
        err("order by an unknown alias", "query q() { match { $p: Person } return { $p.name as nom } order { nmo } }",
            1, 68, "q", "order key 'nmo' is not a return column (did you mean nom?); the columns are nom"),
        err("order by an unbound variable", "query q() { match { $p: Person } return { $p.name } order { $f.name } }",
            1, 61, "q", "$f is not bound: no earlier clause binds it (as in $f: Type or a traversal) and no parameter"
                + " has that name"),
        err("order by an aggregate not returned", "query q() { match { $p: Person } return { $p.name } order { count($p) } }",
            1, 61, "q", "order by count(...) needs the same aggregate in return; return it (with an alias) and order by the alias"),
        err("order by a list", "query q() { match { $p: Person } return { $p.name } order { $p.tags } }",
            1, 64, "q", "cannot order by $p.tags: [String]? values have no order"),

        // ---- inserts ----
        err("insert without the key", "query q() { insert Person { age: 3 } }",
            1, 20, "q", "insert Person must set its key property 'name'"),
        err("insert of an unknown property", "query q() { insert Person { name: \"a\", nope: 3 } }",
            1, 40, "q", "Person has no property 'nope'; its properties are age, born, email, embedding, name, score,"
                + " seen, status, tags"),
        err("insert setting id", "query q() { insert Person { name: \"a\", id: \"x\" } }",
            1, 40, "q", "insert Person cannot assign id: it derives from the key (name)"),
        err("insert of an unknown type", "query q() { insert Nobody { name: \"a\" } }",
            1, 20, "q", "unknown node or edge type 'Nobody'; the schema's types are Company, Knows, Person, WorksAt"),
        err("property assigned twice", "query q() { insert Person { name: \"a\", name: \"b\" } }",
            1, 40, "q", "property 'name' is assigned twice (first at 1:29)"),
        err("enum insert not a variant", "query q() { insert Person { name: \"a\", status: \"asleep\" } }",
            1, 48, "q", "\"asleep\" is not a variant of property 'status' of Person; the variants are active, retired"),
        err("now() into a Date", "query q() { insert Company { name: \"a\", founded: now() } }",
            1, 50, "q", "now() is a DateTime, but property 'founded' of Company is Date?"),
        err("integer out of range", "query q() { insert Person { name: \"a\", age: 3000000000 } }",
            1, 45, "q", "property 'age' of Person: 3000000000 is out of range for I32 (-2147483648 to 2147483647)"),
        err("negative unsigned", "query q() { insert Company { name: \"a\", employees: -1 } }",
            1, 52, "q", "property 'employees' of Company: -1 is out of range for U32 (0 to 4294967295)"),
        err("fraction into an integer", "query q() { insert Knows { to: \"a\", from: \"b\", since: 1.5 } }",
            1, 55, "q", "property 'since' of Knows: 1.5 is not an integer, but I64 is an integer type"),
        err("string into a number", "query q() { insert Person { name: \"a\", score: \"high\" } }",
            1, 47, "q", "property 'score' of Person is F64?, not the string \"high\""),
        err("null into a non-nullable", "query q() { insert Person { name: null } }",
            1, 35, "q", "property 'name' of Person is not nullable, so it cannot be null"),
        err("null list element", "query q() { insert Person { name: \"a\", tags: [\"x\", null] } }",
            1, 52, "q", "property 'tags' of Person element holds no null elements".replace(" element holds", " holds")),
        err("vector of the wrong size", "query q() { insert Person { name: \"a\", embedding: [1, 2] } }",
            1, 51, "q", "property 'embedding' of Person is Vector(3)?, but the list has 2 elements"),
        err("param type mismatch in an insert", "query q($a: I64) { insert Person { name: \"a\", age: $a } }",
            1, 52, "q", "parameter $a is I64, but property 'age' of Person is I32?"),
        err("optional param into a required property", "query q($a: String?) { insert Person { name: $a } }",
            1, 46, "q", "parameter $a is optional (String?), but property 'name' of Person is not nullable"),
        err("undeclared param in an insert", "query q() { insert Person { name: $a } }",
            1, 35, "q", "$a is not a declared parameter; a mutation's values are literals, parameters or now()"),
        err("edge insert without to", "query q() { insert Knows { from: \"a\" } }",
            1, 20, "q", "insert Knows must set both endpoints, from (a Person id) and to (a Person id); missing to"),
        err("edge insert without from", "query q() { insert WorksAt { to: \"acme\" } }",
            1, 20, "q", "insert WorksAt must set both endpoints, from (a Person id) and to (a Company id); missing from"),
        err("edge endpoint of the wrong type", "query q($n: I64) { insert Knows { from: $n, to: \"b\" } }",
            1, 41, "q", "$n is I64, but from of Knows (a Person id) is a String"),
        err("edge endpoint optional", "query q($n: String?) { insert Knows { from: $n, to: \"b\" } }",
            1, 45, "q", "$n is optional (String?), but from of Knows (a Person id) is required"),
        err("edge endpoint a number", "query q() { insert Knows { from: 1, to: \"b\" } }",
            1, 34, "q", "from of Knows (a Person id) must be a string or a String parameter"),
        err("edge insert setting src", "query q() { insert Knows { from: \"a\", to: \"b\", src: \"c\" } }",
            1, 48, "q", "insert Knows cannot assign src: an edge's id is generated, and its endpoints are written from and to"),

        // ---- updates and deletes ----
        err("update of a key", "query q() { update Person set { name: \"b\" } where name = \"a\" }",
            1, 33, "q", "update Person cannot set key property 'name': keys are immutable because the id derives from"
                + " them; delete the node and insert a new one"),
        err("update of id", "query q() { update Person set { id: \"b\" } where name = \"a\" }",
            1, 33, "q", "update Person cannot set id: ids are immutable"),
        err("update of an edge", "query q() { update Knows set { since: 3 } where since = 2 }",
            1, 20, "q", "edges cannot be updated: Knows is an edge type; delete the edge and insert it again"),
        err("update of an unknown type", "query q() { update Persn set { age: 3 } where age = 2 }",
            1, 20, "q", "unknown node type 'Persn' (did you mean Person?); the schema's types are Company, Person"),
        err("where on an unknown property", "query q() { delete Person where nope = 2 }",
            1, 33, "q", "Person has no property 'nope'; its properties are age, born, email, embedding, name, score,"
                + " seen, status, tags"),
        err("where with a mismatched literal", "query q() { delete Person where age = \"x\" }",
            1, 39, "q", "cannot compare Person.age (I32?) with the string \"x\""),
        err("where with a mismatched param", "query q($a: Bool) { update Person set { age: 1 } where name = $a }",
            1, 61, "q", "cannot compare Person.name (String) with $a (Bool)"),
        err("where with an undeclared param", "query q() { delete Person where name = $a }",
            1, 40, "q", "$a is not a declared parameter; a mutation's values are literals, parameters or now()"),
        err("from on a node", "query q() { delete Person where from = \"a\" }",
            1, 33, "q", "Person has no property 'from'; its properties are age, born, email, embedding, name, score,"
                + " seen, status, tags"));
  }

  private static Arguments err(String name, String source, int line, int column, String query, String reason) {
    return Arguments.of(name, source, line, column, query, reason);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource({"syntax", "mixedModes", "types"})
  void rejected(String name, String source, int line, int column, String query, String reason) {
    QueryParseException e = catchThrowableOfType(QueryParseException.class, () -> {
      for (Declaration d : QueryParser.parse(source).declarations()) {
        QueryChecker.check(d, Fixtures.CATALOG);
      }
    });
    assertThat(e).as("expected a rejection").isNotNull();
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.query()).isEqualTo(query);
    assertThat(e.line()).as("line").isEqualTo(line);
    assertThat(e.column()).as("column").isEqualTo(column);
    assertThat(e.getMessage()).isEqualTo(line + ":" + column + ": " + (query == null ? "" : "query '" + query + "': ")
        + reason);
  }
}
