package dev.omnigraph.query;

import dev.omnigraph.api.TableKey;
import static dev.omnigraph.query.Fixtures.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a successful check produces: the typed form the engine runs. */
class QueryCheckerTest {

  private static final NodeType PERSON = CATALOG.node("Person").orElseThrow();
  private static final NodeType COMPANY = CATALOG.node("Company").orElseThrow();

  private static Operand.Property prop(String var, String name) {
    PropertyType t = name.equals("id") ? PropertyType.scalar(ScalarKind.STRING, false)
        : (var.equals("c") ? COMPANY : PERSON).property(name).orElseThrow().type();
    return new Operand.Property(var, name, t);
  }

  private static PropertyType scalar(ScalarKind k) {
    return PropertyType.scalar(k, false);
  }

  // ---- reads ----

  @Test
  void bindingConstraintsBecomeFilters() {
    CheckedRead r = Fixtures.read("""
        query q($n: String) {
          match { $p: Person { name: $n, age: 30, tags: "x", email: null } }
          return { $p.name }
        }""");
    assertThat(r.match()).containsExactly(
        new Clause.Bind("p", PERSON),
        new Clause.Filter(prop("p", "name"), CompareOp.EQ, new Value.Param("n", scalar(ScalarKind.STRING))),
        new Clause.Filter(prop("p", "age"), CompareOp.EQ, new Value.Literal(30, scalar(ScalarKind.I32))),
        new Clause.Filter(prop("p", "tags"), CompareOp.LIST_CONTAINS, new Value.Literal("x", scalar(ScalarKind.STRING))),
        new Clause.Filter(prop("p", "email"), CompareOp.IS_NULL, new Value.Literal(null, prop("p", "email").type())));
    assertThat(r.variables()).containsExactly(Map.entry("p", PERSON));
  }

  @Test
  void traversalsBindTheirEndpointsAndFoldEdgeNameCase() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match { $p knows{2,4} $f  $f WORKSAT $c  $p KNOWS $p }
          return { $c.name }
        }""");
    assertThat(r.match()).containsExactly(
        new Clause.Traverse("p", CATALOG.edge("Knows").orElseThrow(), "f", 2, 4),
        new Clause.Traverse("f", CATALOG.edge("WorksAt").orElseThrow(), "c", 1, 1),
        new Clause.Traverse("p", CATALOG.edge("Knows").orElseThrow(), "p", 1, 1));
    assertThat(r.variables()).containsExactly(Map.entry("p", PERSON), Map.entry("f", PERSON), Map.entry("c", COMPANY));
  }

  @Test
  void filterOperatorsAreResolvedByType() {
    CheckedRead r = Fixtures.read("""
        query q($t: String, $since: DateTime?) {
          match {
            $p: Person
            $p.tags contains $t
            $p.name contains "li"
            $p.name starts_with $t
            $p.seen >= $since
            $p.seen < now()
            $p.age != null
            $p.id = "alice"
            ["a", "b"] contains $p.name
            $p.status = "active"
          }
          return { $p.name }
        }""");
    List<Clause> f = r.match().subList(1, r.match().size());
    assertThat(f).extracting(c -> ((Clause.Filter) c).op()).containsExactly(CompareOp.LIST_CONTAINS,
        CompareOp.STRING_CONTAINS, CompareOp.STARTS_WITH, CompareOp.GE, CompareOp.LT, CompareOp.IS_NOT_NULL,
        CompareOp.EQ, CompareOp.LIST_CONTAINS, CompareOp.EQ);
    assertThat(((Clause.Filter) f.get(4)).right()).isEqualTo(new Value.Now());
    assertThat(((Clause.Filter) f.get(6)).left()).isEqualTo(new Operand.Property("p", "id", scalar(ScalarKind.STRING)));
    assertThat(((Operand.Property) ((Clause.Filter) f.get(6)).left()).isId()).isTrue();
    Clause.Filter in = (Clause.Filter) f.get(7);
    assertThat(in.left()).isEqualTo(new Value.Literal(List.of("a", "b"),
        new PropertyType(ScalarKind.STRING, true, false, List.of(), 0)));
    assertThat(((Value.Literal) ((Clause.Filter) f.get(8)).right()).value()).isEqualTo("active");
  }

  @Test
  void numericLiteralsTakeThePropertyTypeWhenTheyFit() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match {
            $p: Person
            $p.age > 2.5  $p.age < 5000000000  $p.score >= 1  $c: Company { employees: 7 }
            $p.born > date("2000-02-29")  $p.seen <= datetime("2024-01-31T09:30:00.250+01:00")
          }
          return { $p.name }
        }""");
    List<Object> values = r.match().stream().filter(c -> c instanceof Clause.Filter)
        .map(c -> ((Value.Literal) ((Clause.Filter) c).right()).value()).toList();
    assertThat(values).containsExactly(2.5d, 5_000_000_000L, 1.0d, 7L, LocalDate.of(2000, 2, 29),
        Instant.parse("2024-01-31T08:30:00.250Z"));
  }

  @Test
  void paramsMayBeComparedAcrossNumericKinds() {
    CheckedRead r = Fixtures.read("query q($min: I64) { match { $p: Person $p.age >= $min } return { $p.name } }");
    assertThat(((Clause.Filter) r.match().get(1)).right()).isEqualTo(new Value.Param("min", scalar(ScalarKind.I64)));
  }

  @Test
  void negationKeepsItsOwnVariables() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match {
            $p: Person
            not { $p worksAt $c  $c.name = "Acme" }
          }
          return { $p.name }
        }""");
    Clause.Not not = (Clause.Not) r.match().get(1);
    assertThat(not.clauses()).hasSize(2);
    assertThat(r.variables()).containsOnlyKeys("p");
  }

  @Test
  void projectionsAndAliases() {
    CheckedRead r = Fixtures.read("""
        query q() { match { $p: Person } return { $p.name, $p.age as years, $p.id, $p.tags } }""");
    assertThat(r.columnNames()).containsExactly("p.name", "years", "p.id", "p.tags");
    assertThat(r.columns().get(1)).isEqualTo(new Column.Projection("years", prop("p", "age")));
    assertThat(r.isAggregating()).isFalse();
    assertThat(r.limit()).isEmpty();
  }

  @Test
  void aggregatesTypesAndNames() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match { $p: Person  $p knows $f }
          return { $p.name, count($f), count($f.email) as emails, sum($f.age) as total, avg($f.score) as mean,
                   min($f.born) as first, max($f.status) as top }
        }""");
    assertThat(r.isAggregating()).isTrue();
    assertThat(r.columnNames()).containsExactly("p.name", "f", "emails", "total", "mean", "first", "top");
    assertThat(r.columns().get(1)).isEqualTo(new Column.Aggregate("f", AggFunc.COUNT, "f", null, scalar(ScalarKind.I64)));
    assertThat(r.columns()).extracting(c -> c.type().display()).containsExactly(
        "String", "I64", "I64", "F64?", "F64?", "Date?", "enum(active, retired)?");
  }

  @Test
  void orderKeysResolveToColumnsOrProperties() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match { $p: Person }
          return { $p.name as who, $p.age }
          order { $p.name desc, $p.age, who, $p.born desc }
          limit 5
        }""");
    assertThat(r.order()).containsExactly(new OrderKey.ByColumn("who", true), new OrderKey.ByColumn("p.age", false),
        new OrderKey.ByColumn("who", false), new OrderKey.ByProperty(prop("p", "born"), true));
    assertThat(r.limit()).hasValue(5);
  }

  @Test
  void aggregatingQueriesOrderByTheirColumns() {
    CheckedRead r = Fixtures.read("""
        query q() {
          match { $p: Person  $p knows $f }
          return { $p.name, count($f) as n }
          order { count($f) desc, n, $p.name }
        }""");
    assertThat(r.order()).containsExactly(new OrderKey.ByColumn("n", true), new OrderKey.ByColumn("n", false),
        new OrderKey.ByColumn("p.name", false));
  }

  @Test
  void checkedFormIsImmutable() {
    CheckedRead r = Fixtures.read("query q() { match { $p: Person } return { $p.name } }");
    assertThatThrownBy(() -> r.match().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> r.variables().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  // ---- mutations ----

  @Test
  void insertNodeWithEveryValueForm() {
    CheckedMutation m = Fixtures.mutation("""
        query q($n: String, $tags: [String]?, $v: Vector(3)) {
          insert Person {
            name: $n, age: 41, email: null, tags: $tags, status: "retired", born: date("1983-05-01"),
            seen: now(), score: 2, embedding: [1, 0.5, -2]
          }
        }""");
    assertThat(m.isDelete()).isFalse();
    Statement.InsertNode s = (Statement.InsertNode) m.statements().get(0);
    assertThat(s.type()).isEqualTo(PERSON);
    assertThat(s.tableKey()).isEqualTo(TableKey.node("Person"));
    assertThat(s.values().keySet()).containsExactly("name", "age", "email", "tags", "status", "born", "seen", "score",
        "embedding");
    assertThat(s.values().get("name")).isEqualTo(new Value.Param("n", scalar(ScalarKind.STRING)));
    assertThat(((Value.Literal) s.values().get("age")).value()).isEqualTo(41);
    assertThat(((Value.Literal) s.values().get("email")).value()).isNull();
    assertThat(((Value.Literal) s.values().get("born")).value()).isEqualTo(LocalDate.of(1983, 5, 1));
    assertThat(s.values().get("seen")).isEqualTo(new Value.Now());
    assertThat(((Value.Literal) s.values().get("score")).value()).isEqualTo(2.0d);
    assertThat((float[]) ((Value.Literal) s.values().get("embedding")).value()).containsExactly(1f, 0.5f, -2f);
  }

  @Test
  void insertEdgeWithEndpoints() {
    CheckedMutation m = Fixtures.mutation("""
        query q($a: String) {
          insert Person { name: "bob" }
          insert knows { from: $a, to: "bob", since: 2020 }
          insert WorksAt { from: "bob", to: "acme" }
        }""");
    Statement.InsertEdge knows = (Statement.InsertEdge) m.statements().get(1);
    assertThat(knows.type().name()).isEqualTo("Knows");
    assertThat(knows.from()).isEqualTo(new Value.Param("a", scalar(ScalarKind.STRING)));
    assertThat(knows.to()).isEqualTo(new Value.Literal("bob", scalar(ScalarKind.STRING)));
    assertThat(((Value.Literal) knows.values().get("since")).value()).isEqualTo(2020L);
    assertThat(((Statement.InsertEdge) m.statements().get(2)).values()).isEmpty();
  }

  @Test
  void updateWithPredicate() {
    CheckedMutation m = Fixtures.mutation("""
        query q($n: String, $e: String?) {
          update Person set { email: $e, seen: now(), status: $n } where name = $n
          update Person set { age: 1 } where age = null
          update Person set { age: 2 } where id starts_with "a"
        }""");
    Statement.Update u = (Statement.Update) m.statements().get(0);
    assertThat(u.assignments().keySet()).containsExactly("email", "seen", "status");
    assertThat(u.where()).isEqualTo(new Predicate("name", scalar(ScalarKind.STRING), CompareOp.EQ,
        new Value.Param("n", scalar(ScalarKind.STRING))));
    assertThat(((Statement.Update) m.statements().get(1)).where().op()).isEqualTo(CompareOp.IS_NULL);
    assertThat(((Statement.Update) m.statements().get(2)).where().column()).isEqualTo("id");
  }

  @Test
  void deletesOfNodesAndEdges() {
    CheckedMutation m = Fixtures.mutation("""
        query q($who: String) {
          delete Knows where from = $who
          delete WorksAt where to = "acme"
          delete Person where age < 18
          delete Company where founded < date("1900-01-01")
        }""");
    assertThat(m.isDelete()).isTrue();
    Statement.DeleteEdge knows = (Statement.DeleteEdge) m.statements().get(0);
    assertThat(knows.where().column()).isEqualTo("src");
    assertThat(((Statement.DeleteEdge) m.statements().get(1)).where().column()).isEqualTo("dst");
    Statement.DeleteNode person = (Statement.DeleteNode) m.statements().get(2);
    assertThat(person.where()).isEqualTo(new Predicate("age", prop("p", "age").type(), CompareOp.LT,
        new Value.Literal(18, scalar(ScalarKind.I32))));
    assertThat(m.statements()).allMatch(Statement::isDelete);
  }

  @Test
  void optionalParamFeedsNullableProperty() {
    CheckedMutation m = Fixtures.mutation("query q($a: I32?) { insert Person { name: \"x\", age: $a } }");
    assertThat(((Statement.InsertNode) m.statements().get(0)).values().get("age"))
        .isEqualTo(new Value.Param("a", PropertyType.scalar(ScalarKind.I32, true)));
  }

  @Test
  void mixedModeIsRejectedWhenItsQueryIsCheckedAndTheFileServesItsOthers() {
    // D₂ is per named query, as the reference: the file parses, its read checks, the mixed one is
    // refused when checked, before the catalog is consulted.
    QueryFile file = QueryParser.parse("""
        query ok() { match { $p: Person } return { $p.name } }
        query bad() {
          update Person set { age: 1 } where name = "a"
          delete Person where name = "b"
        }""");
    assertThat(QueryChecker.check(file.declarations().get(0), Fixtures.CATALOG)).isNotNull();
    assertThatThrownBy(() -> QueryChecker.check(file.declarations().get(1), Fixtures.CATALOG))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("a mutation cannot mix update with delete")
        .hasMessageContaining("split the query into separate mutations");
  }
}
