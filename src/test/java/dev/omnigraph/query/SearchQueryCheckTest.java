package dev.omnigraph.query;

import static dev.omnigraph.query.Fixtures.CATALOG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search functions' checked forms, and the typed errors (with line:column) for misuse. */
class SearchQueryCheckTest {

  private static final NodeType PERSON = CATALOG.node("Person").orElseThrow();
  private static final PropertyType STRING = PropertyType.scalar(ScalarKind.STRING, false);

  private static Operand.Property prop(String name) {
    return new Operand.Property("p", name, PERSON.property(name).orElseThrow().type());
  }

  private static QueryParseException rejected(String source, int line, int column, String reason) {
    QueryParseException e = catchThrowableOfType(() -> Fixtures.check(source), QueryParseException.class);
    assertThat(e).as(source).isNotNull();
    assertThat(e.reason()).contains(reason);
    assertThat(List.of(e.line(), e.column())).as(e.getMessage()).containsExactly(line, column);
    return e;
  }

  @Test
  void textFunctionsAreMatchClauses() {
    CheckedRead r = Fixtures.read("""
        query q($t: String, $e: I32) {
          match { $p: Person search($p.name, $t) fuzzy($p.email, "x") fuzzy($p.name, $t, $e) match_text($p.name, "a b") }
          return { $p.name }
        }""");
    Value.Param t = new Value.Param("t", STRING);
    assertThat(r.match()).containsExactly(
        new Clause.Bind("p", PERSON),
        new Clause.TextMatch(prop("name"), TextMode.SEARCH, t, null),
        new Clause.TextMatch(prop("email"), TextMode.FUZZY, new Value.Literal("x", STRING), null),
        new Clause.TextMatch(prop("name"), TextMode.FUZZY, t, new Value.Param("e", PropertyType.scalar(ScalarKind.I32, false))),
        new Clause.TextMatch(prop("name"), TextMode.MATCH_TEXT, new Value.Literal("a b", STRING), null));
  }

  @Test
  void scoresAreColumnsAndOrderKeys() {
    CheckedRead r = Fixtures.read("""
        query q($v: Vector(3), $t: String) {
          match { $p: Person }
          return { $p.name, nearest($p.embedding, $v) as d, bm25($p.name, $t), rrf(nearest($p.embedding, $v), bm25($p.name, $t), 10) as f }
          order { rrf(nearest($p.embedding, $v), bm25($p.name, $t)), bm25($p.name, $t) asc, nearest($p.embedding, $v) }
          limit 5
        }""");
    Score.Nearest near = new Score.Nearest(prop("embedding"), new Value.Param("v", new PropertyType(ScalarKind.VECTOR,
        false, false, List.of(), 3)));
    Score.Bm25 bm25 = new Score.Bm25(prop("name"), new Value.Param("t", STRING));
    assertThat(r.columns()).containsExactly(
        new Column.Projection("p.name", prop("name")),
        new Column.Scored("d", near),
        new Column.Scored("bm25", bm25),
        new Column.Scored("f", new Score.Rrf(near, bm25, new Value.Literal(10L, PropertyType.scalar(ScalarKind.I64, false)))));
    // Relevance is best first unless asc is written; nearest is nearest first.
    assertThat(r.order()).containsExactly(
        new OrderKey.ByScore(new Score.Rrf(near, bm25, null), true),
        new OrderKey.ByScore(bm25, false),
        new OrderKey.ByScore(near, false));
    assertThat(r.columns().get(1).type()).isEqualTo(PropertyType.scalar(ScalarKind.F64, true));
  }

  @Test
  void aVectorLiteralIsAQuery() {
    CheckedRead r = Fixtures.read("""
        query q() { match { $p: Person } return { $p.name } order { nearest($p.embedding, [1, 0, 0.5]) } limit 2 }""");
    Score.Nearest n = (Score.Nearest) ((OrderKey.ByScore) r.order().get(0)).score();
    assertThat((float[]) ((Value.Literal) n.query()).value()).containsExactly(1f, 0f, 0.5f);
  }

  @Test
  void theFunctionNamesStayUsableAsNames() {
    // As properties and aliases, and as edge names in a traversal (the reference's edge_ident).
    Fixtures.read("""
        query q() { match { $p: Person } return { $p.name as search, $p.age as nearest } order { nearest } }""");
    assertThat(QueryParser.parse("query q() { match { $a search $b } return { $a.name } }").declarations()).hasSize(1);
  }

  @Test
  void misuseIsATypedErrorAtTheOffendingToken() {
    rejected("""
        query q($v: Vector(3)) { match { $p: Person } return { $p.name } order { nearest($p.name, $v) } limit 1 }""",
        1, 82, "nearest needs a Vector property, but $p.name (String) is not one");
    rejected("""
        query q($v: Vector(4)) { match { $p: Person } return { $p.name } order { nearest($p.embedding, $v) } limit 1 }""",
        1, 96, "nearest vector dimension mismatch: $p.embedding (Vector(3)?), but $v is Vector(4)");
    rejected("""
        query q() { match { $p: Person } return { $p.name } order { nearest($p.embedding, [1, 2]) } limit 1 }""",
        1, 83, "is Vector(3), but the list has 2 elements");
    rejected("""
        query q($v: Vector(3)) {
          match { $p: Person }
          return { $p.name }
          order { nearest($p.embedding, $v) }
        }""", 4, 11, "nearest() needs a limit");
    rejected("""
        query q($v: Vector(3), $t: String) { match { $p: Person }
          return { rrf(nearest($p.embedding, $v), bm25($p.name, $t)) as f } }""", 2, 12, "rrf() needs a limit");
    rejected("""
        query q($v: Vector(3)) { match { $p: Person } return { $p.name } order { nearest($p.embedding, $v) desc } limit 1 }""",
        1, 100, "takes no asc/desc");
    rejected("""
        query q($t: I32) { match { $p: Person search($p.name, $t) } return { $p.name } }""",
        1, 55, "search query must be a String, but $t is I32");
    rejected("""
        query q() { match { $p: Person search($p.age, "x") } return { $p.name } }""",
        1, 39, "search needs a free-text String property, but $p.age (I32?) is not one");
    rejected("""
        query q() { match { $p: Person bm25($p.name, "x") } return { $p.name } }""",
        1, 32, "bm25() ranks rows rather than filtering them");
    rejected("""
        query q() { match { $p: Person } return { search($p.name, "x") } }""",
        1, 43, "search() is a match filter");
    rejected("""
        query q() { match { $p: Person fuzzy($p.name, "x", -1) } return { $p.name } }""",
        1, 52, "fuzzy max_edits must be at least 0");
    rejected("""
        query q() { match { $p: Person fuzzy($p.name, "x", 1, 2) } return { $p.name } }""",
        1, 32, "fuzzy() takes 2 or 3 arguments, got 4");
    rejected("""
        query q() { match { $p: Person } return { $p.name } order { rrf(bm25($p.name, "a"), $p.age) } limit 2 }""",
        1, 85, "rrf() ranks with nearest(...) or bm25(...), not a value");
    rejected("""
        query q() { match { $p: Person } return { $p.name } order { rrf(bm25($p.name, "a"), bm25($p.name, "b"), 0) } limit 2 }""",
        1, 105, "rrf k must be greater than 0");
    rejected("""
        query q() { match { $p: Person $p $w:knows $f search($w.since, "x") } return { $p.name } }""",
        1, 54, "search cannot target the edge property $w.since");
    rejected("""
        query q() { match { $p: Person } return { $p.name, count($p) as n, rrf(bm25($p.name, "x"), bm25($p.name, "y")) as s } limit 2 }""",
        1, 68, "cannot stand beside aggregates"); // bm25 can (issue 47.7); rrf ranks a window, not yet
    rejected("""
        query q() { match { $p: Person search($p.status, "x") } return { $p.name } }""",
        1, 39, "(an enum is matched with =)");
  }

  @Test
  void textGivenToNearestNeedsAnEmbedder() {
    for (String arg : List.of("$t", "\"alpha\"")) {
      String source = "query q($t: String) { match { $p: Person } return { $p.name }"
          + " order { nearest($p.embedding, " + arg + ") } limit 3 }";
      NoEmbedderException e = catchThrowableOfType(() -> Fixtures.check(source), NoEmbedderException.class);
      assertThat(e).as(arg).isNotNull();
      assertThat(List.of(e.line(), e.column())).containsExactly(1, 93);
      assertThat(e.query()).isEqualTo("q");
      assertThat(e.getMessage()).contains("no embedder is configured", "pass a Vector(3)");
    }
  }
}
