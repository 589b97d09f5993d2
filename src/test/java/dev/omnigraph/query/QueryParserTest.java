package dev.omnigraph.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parser alone: every construct's shape, before any schema is involved. */
class QueryParserTest {

  private static Ast.Decl one(String source) {
    return QueryParser.parse(source).declarations().get(0).ast();
  }

  private static Ast.Read read(String source) {
    return (Ast.Read) one(source).body();
  }

  private static List<Ast.Mutation> mutations(String source) {
    return ((Ast.Mutations) one(source).body()).statements();
  }

  private static Ast.Pos at(int line, int column) {
    return new Ast.Pos(line, column);
  }

  // ---- files and declarations ----

  @Test
  void fileHoldsManyDeclarationsInOrder() {
    QueryFile file = QueryParser.parse(Fixtures.resource("people.gq"));
    assertThat(file.names()).containsExactly("friends_of", "reach", "add_person", "befriend", "rename_email", "forget");
    Declaration reach = file.declaration("reach");
    assertThat(reach.isMutation()).isFalse();
    assertThat(reach.line()).isEqualTo(14);
    assertThat(reach.column()).isEqualTo(7);
    assertThat(file.declaration("forget").isMutation()).isTrue();
    assertThat(file.find("nope")).isEmpty();
  }

  @Test
  void emptyFileHasNoDeclarations() {
    assertThat(QueryParser.parse("  // nothing here\n/* at all */\n").declarations()).isEmpty();
  }

  @Test
  void unknownDeclarationListsTheAvailableOnes() {
    QueryFile file = QueryParser.parse(Fixtures.resource("people.gq"));
    assertThatThrownBy(() -> file.declaration("friend_of"))
        .isInstanceOf(UnknownQueryException.class)
        .hasMessage("no query named 'friend_of' (did you mean friends_of?); the file declares friends_of, reach,"
            + " add_person, befriend, rename_email, forget");
    assertThatThrownBy(() -> QueryParser.parse("").declaration("x"))
        .hasMessage("no query named 'x'; the file declares no queries");
  }

  @Test
  void paramsOfEveryType() {
    Declaration d = QueryParser.parse("""
        query q($s: String, $b: Bool?, $i: I32, $l: I64, $u: U32, $w: U64, $f: F32, $g: F64,
                $d: Date, $t: DateTime?, $xs: [I64], $ys: [String]?, $v: Vector(3), $vo: Vector(2)?,) {
          match { $p: Person } return { $p.name }
        }""").declaration("q");
    assertThat(d.params()).extracting(ParamDecl::name)
        .containsExactly("s", "b", "i", "l", "u", "w", "f", "g", "d", "t", "xs", "ys", "v", "vo");
    assertThat(d.params()).extracting(p -> p.type().display()).containsExactly(
        "String", "Bool?", "I32", "I64", "U32", "U64", "F32", "F64", "Date", "DateTime?", "[I64]", "[String]?",
        "Vector(3)", "Vector(2)?");
    assertThat(d.param("b").orElseThrow().optional()).isTrue();
    assertThat(d.param("xs").orElseThrow().type()).isEqualTo(new PropertyType(ScalarKind.I64, true, false, List.of(), 0));
    assertThat(d.param("v").orElseThrow().type()).isEqualTo(new PropertyType(ScalarKind.VECTOR, false, false, List.of(), 3));
  }

  @Test
  void noParams() {
    assertThat(one("query q() { match { $p: Person } return { $p.name } }").params()).isEmpty();
  }

  // ---- reads ----

  @Test
  void bindingWithConstraints() {
    Ast.Read r = read("query q($n: String) { match { $p: Person { name: $n, age: 30, } } return { $p.name } }");
    Ast.Binding b = (Ast.Binding) r.match().get(0);
    assertThat(b.var()).isEqualTo(new Ast.Name("p", at(1, 31)));
    assertThat(b.type().text()).isEqualTo("Person");
    assertThat(b.matches()).hasSize(2);
    assertThat(b.matches().get(0).property().text()).isEqualTo("name");
    assertThat(b.matches().get(0).value()).isEqualTo(new Ast.VarRef(new Ast.Name("n", at(1, 50))));
    assertThat(((Ast.Lit) b.matches().get(1).value()).literal())
        .isEqualTo(new Ast.Num("30", new BigDecimal("30"), true, at(1, 59)));
  }

  @Test
  void bareBinding() {
    Ast.Binding b = (Ast.Binding) read("query q() { match { $c: Company } return { $c.name } }").match().get(0);
    assertThat(b.matches()).isEmpty();
  }

  @Test
  void traversalsWithAndWithoutBounds() {
    Ast.Read r = read("""
        query q() {
          match {
            $p knows $f
            $f Knows{1,3} $g
            $g "worksAt" $c
          }
          return { $c.name }
        }""");
    Ast.Traversal plain = (Ast.Traversal) r.match().get(0);
    assertThat(plain.src().text()).isEqualTo("p");
    assertThat(plain.edge()).isEqualTo(new Ast.Name("knows", at(3, 8)));
    assertThat(plain.dst().text()).isEqualTo("f");
    assertThat(plain.bounds()).isNull();
    Ast.Traversal bounded = (Ast.Traversal) r.match().get(1);
    assertThat(bounded.edge().text()).isEqualTo("Knows");
    assertThat(bounded.bounds().min()).isEqualTo(1);
    assertThat(bounded.bounds().max()).isEqualTo(3);
    assertThat(((Ast.Traversal) r.match().get(2)).edge().text()).isEqualTo("worksAt");
  }

  @Test
  void filtersWithEveryOperator() {
    Ast.Read r = read("""
        query q($x: String) {
          match {
            $p: Person
            $p.name = $x   $p.name != "a"  $p.age < 1  $p.age <= -2  $p.age > 3.5  $p.age >= 4
            $p.tags contains "t"  $p.name starts_with "A"  $p.name contains "li"
          }
          return { $p.name }
        }""");
    assertThat(r.match().subList(1, r.match().size())).extracting(c -> ((Ast.Filter) c).op()).containsExactly(
        Ast.Op.EQ, Ast.Op.NE, Ast.Op.LT, Ast.Op.LE, Ast.Op.GT, Ast.Op.GE, Ast.Op.CONTAINS, Ast.Op.STARTS_WITH,
        Ast.Op.CONTAINS);
    Ast.Filter le = (Ast.Filter) r.match().get(4);
    assertThat(((Ast.Lit) le.right()).literal()).isEqualTo(new Ast.Num("-2", new BigDecimal("-2"), true, at(4, 58)));
    Ast.Filter gt = (Ast.Filter) r.match().get(5);
    assertThat(((Ast.Num) ((Ast.Lit) gt.right()).literal()).integral()).isFalse();
    assertThat(((Ast.PropRef) gt.left()).display()).isEqualTo("p.age");
  }

  @Test
  void literalsOfEveryKind() {
    Ast.Read r = read("""
        query q() {
          match {
            $p: Person
            $p.a = "q\\"uote\\\\ \\n\\t\\r"  $p.b = true  $p.c = false  $p.d = null  $p.e = 1.5e3
            $p.f = date("2024-01-31")  $p.g = datetime("2024-01-31T10:00:00Z")  $p.h = ["x", 1, [], now()]
          }
          return { $p.name }
        }""".replace(", now()]", "]"));
    List<Ast.Literal> lits = r.match().subList(1, r.match().size()).stream()
        .map(c -> ((Ast.Lit) ((Ast.Filter) c).right()).literal()).toList();
    assertThat(((Ast.Str) lits.get(0)).value()).isEqualTo("q\"uote\\ \n\t\r");
    assertThat(((Ast.Bool) lits.get(1)).value()).isTrue();
    assertThat(((Ast.Bool) lits.get(2)).value()).isFalse();
    assertThat(lits.get(3)).isInstanceOf(Ast.Null.class);
    assertThat(((Ast.Num) lits.get(4)).value()).isEqualByComparingTo("1500");
    assertThat(((Ast.DateLit) lits.get(5)).text()).isEqualTo("2024-01-31");
    assertThat(((Ast.DateTimeLit) lits.get(6)).text()).isEqualTo("2024-01-31T10:00:00Z");
    Ast.ListLit list = (Ast.ListLit) lits.get(7);
    assertThat(list.items()).hasSize(3);
    assertThat(((Ast.ListLit) list.items().get(2)).items()).isEmpty();
  }

  @Test
  void nowAndParamsAsOperands() {
    Ast.Read r = read("query q($t: DateTime) { match { $p: Person $p.seen < now() $t > $p.seen } return { $p.name } }");
    assertThat(((Ast.Filter) r.match().get(1)).right()).isEqualTo(new Ast.Now(at(1, 54)));
    assertThat(((Ast.Filter) r.match().get(2)).left()).isInstanceOf(Ast.VarRef.class);
  }

  @Test
  void negationNestsClauses() {
    Ast.Read r = read("query q() { match { $p: Person not { $p knows $f not { $f.age > 3 } } } return { $p.name } }");
    Ast.Negation n = (Ast.Negation) r.match().get(1);
    assertThat(n.pos()).isEqualTo(at(1, 32));
    assertThat(n.clauses()).hasSize(2);
    assertThat(n.clauses().get(1)).isInstanceOf(Ast.Negation.class);
  }

  @Test
  void returnProjectionsAliasesAndAggregates() {
    Ast.Read r = read("""
        query q() {
          match { $p: Person }
          return {
            $p.name
            $p.age as years,
            count($p) as n, count($p.email) sum($p.age) avg($p.age) min($p.name) max($p.age) as oldest
          }
        }""");
    assertThat(r.projections()).hasSize(8);
    assertThat(r.projections().get(0).alias()).isNull();
    assertThat(r.projections().get(1).alias().text()).isEqualTo("years");
    assertThat(r.projections().subList(2, 8)).extracting(p -> ((Ast.Agg) p.expr()).func()).containsExactly(
        AggFunc.COUNT, AggFunc.COUNT, AggFunc.SUM, AggFunc.AVG, AggFunc.MIN, AggFunc.MAX);
    assertThat(((Ast.Agg) r.projections().get(2).expr()).arg()).isInstanceOf(Ast.VarRef.class);
    assertThat(((Ast.Agg) r.projections().get(3).expr()).arg()).isInstanceOf(Ast.PropRef.class);
  }

  @Test
  void orderAndLimit() {
    Ast.Read r = read("""
        query q() {
          match { $p: Person }
          return { $p.name, count($p) as n }
          order { $p.name asc, n desc, count($p), $p.age }
          limit 25
        }""");
    assertThat(r.order()).extracting(Ast.Ordering::descending).containsExactly(false, true, false, false);
    assertThat(r.order().get(0).key()).isInstanceOf(Ast.PropRef.class);
    assertThat(r.order().get(1).key()).isEqualTo(new Ast.OrderAlias(new Ast.Name("n", at(4, 24))));
    assertThat(r.order().get(2).key()).isInstanceOf(Ast.Agg.class);
    assertThat(r.limit()).isEqualTo(25L);
  }

  @Test
  void keywordsDoubleAsNames() {
    Ast.Read r = read("query limit() { match { $p: Person { order: 1 } } return { $p.count as limit } order { limit } }");
    assertThat(((Ast.Binding) r.match().get(0)).matches().get(0).property().text()).isEqualTo("order");
    assertThat(r.projections().get(0).alias().text()).isEqualTo("limit");
    Ast.Read agg = read("query q() { match { $p: Person } return { count($p) as count } order { count desc } }");
    assertThat(agg.order().get(0).key()).isEqualTo(new Ast.OrderAlias(new Ast.Name("count", at(1, 72))));
    assertThat(agg.order().get(0).descending()).isTrue();
  }

  @Test
  void commentsAndBomAreIgnored() {
    Ast.Decl d = one("\uFEFF// leading\nquery /* inline */ q() { match { $p: Person } // trailing\n return { $p.name } }");
    assertThat(d.pos()).isEqualTo(at(2, 20));
  }

  // ---- mutations ----

  @Test
  void insertNodeAndEdge() {
    List<Ast.Mutation> ms = mutations("""
        query q($a: String, $b: String) {
          insert Person { name: $a, tags: ["x", "y"], seen: now() }
          insert Knows { from: $a, to: $b, since: 3 }
        }""");
    Ast.Insert node = (Ast.Insert) ms.get(0);
    assertThat(node.type().text()).isEqualTo("Person");
    assertThat(node.pos()).isEqualTo(at(2, 3));
    assertThat(node.assignments()).extracting(a -> a.property().text()).containsExactly("name", "tags", "seen");
    assertThat(node.assignments().get(2).value()).isInstanceOf(Ast.Now.class);
    Ast.Insert edge = (Ast.Insert) ms.get(1);
    assertThat(edge.assignments()).extracting(a -> a.property().text()).containsExactly("from", "to", "since");
  }

  @Test
  void updateWithSetAndWhere() {
    Ast.Update u = (Ast.Update) mutations("query q() { update Person set { age: 31, email: null } where name = \"A\" }").get(0);
    assertThat(u.assignments()).hasSize(2);
    assertThat(u.where().property().text()).isEqualTo("name");
    assertThat(u.where().op()).isEqualTo(Ast.Op.EQ);
    assertThat(((Ast.Str) ((Ast.Lit) u.where().value()).literal()).value()).isEqualTo("A");
  }

  @Test
  void deletesMayFollowEachOther() {
    List<Ast.Mutation> ms = mutations("""
        query q($n: String) {
          delete Knows where since < 2000
          delete Person where name starts_with $n
        }""");
    assertThat(ms).hasSize(2).allMatch(m -> m instanceof Ast.Delete);
    assertThat(((Ast.Delete) ms.get(1)).where().op()).isEqualTo(Ast.Op.STARTS_WITH);
  }

  @Test
  void insertsAndUpdatesMayMix() {
    assertThat(mutations("""
        query q() {
          insert Person { name: "a" }
          update Person set { age: 1 } where name = "a"
        }""")).hasSize(2);
  }
}
