package dev.omnigraph.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The five queries of issue 46 in the three languages (ours, Kuzu's Cypher, DuckDB's SQL), each with
 * the parameter of repetition {@code i} and whether its answer is ordered. The generated edges carry
 * no self-loop and no parallel pair, so a set of (source, friend) pairs (ours), a bag of matched
 * edges (Kuzu, DuckDB) and Cypher's distinct-relationship rule all give the same rows.
 */
record PeerQueries(String id, String what, String ours, String kuzu, String duckdb, Param param, boolean ordered) {

  /** The parameter a repetition binds: a person's name, a city, or nothing. */
  enum Param { NAME, CITY, NONE }

  static List<PeerQueries> all() {
    return List.of(
        new PeerQueries("Q1", "point lookup by key (the age of one person)",
            "query q($n: String) { match { $p: Person { name: $n } } return { $p.age } }",
            "MATCH (p:Person {name: $n}) RETURN p.age",
            "SELECT age FROM person WHERE name = ?", Param.NAME, false),
        new PeerQueries("Q2", "one hop (the names of one person's friends)",
            "query q($n: String) { match { $p: Person { name: $n }  $p knows $f } return { $f.name } }",
            "MATCH (p:Person {name: $n})-[:Knows]->(f:Person) RETURN f.name",
            "SELECT dst FROM knows WHERE src = ?", Param.NAME, false),
        new PeerQueries("Q3", "two hops (distinct friends of friends, counted)",
            "query q($n: String) { match { $p: Person { name: $n }  $p knows $a  $a knows $f } "
                + "return { count(distinct $f) as n } }",
            "MATCH (p:Person {name: $n})-[:Knows]->(a:Person)-[:Knows]->(f:Person) RETURN count(DISTINCT f)",
            "SELECT count(DISTINCT k2.dst) FROM knows k1 JOIN knows k2 ON k1.dst = k2.src WHERE k1.src = ?",
            Param.NAME, false),
        new PeerQueries("Q4", "filter + aggregate (count and average age in one city, age > 40)",
            "query q($c: String) { match { $p: Person { city: $c }  $p.age > 40 } "
                + "return { count($p) as n, avg($p.age) as a } }",
            "MATCH (p:Person) WHERE p.city = $c AND p.age > 40 RETURN count(*), avg(p.age)",
            "SELECT count(*), avg(age) FROM person WHERE city = ? AND age > 40", Param.CITY, false),
        new PeerQueries("Q5", "top 10 persons by out-degree",
            "query q() { match { $p: Person  $p knows $f } return { $p.name, count($f) as d } "
                + "order { d desc, $p.name asc } limit 10 }",
            "MATCH (p:Person)-[:Knows]->(f:Person) RETURN p.name, count(*) AS d ORDER BY d DESC, p.name LIMIT 10",
            "SELECT src, count(*) AS d FROM knows GROUP BY src ORDER BY d DESC, src LIMIT 10", Param.NONE, true));
  }

  /** The parameter value of repetition {@code i}: spread over the persons and the cities. */
  String value(int i, int persons) {
    return switch (param) {
      case NAME -> PeerGraph.name((int) ((i * 7_919L + 13) % persons));
      case CITY -> PeerGraph.city(i % PeerGraph.CITIES);
      case NONE -> "";
    };
  }

  /** The parameter's name in ours and Kuzu ({@code $n}, {@code $c}); empty for none. */
  String paramName() {
    return switch (param) {
      case NAME -> "n";
      case CITY -> "c";
      case NONE -> "";
    };
  }

  /**
   * One answer as comparable text: one line per row, cells joined by {@code |}, integers as
   * integers, floating point with six decimals, null as {@code null}; sorted unless the query orders.
   */
  List<String> normalise(List<List<Object>> rows) {
    List<String> out = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      StringBuilder b = new StringBuilder();
      for (Object cell : row) {
        if (b.length() > 0) {
          b.append('|');
        }
        b.append(cell(cell));
      }
      out.add(b.toString());
    }
    if (!ordered) {
      out.sort(null);
    }
    return out;
  }

  private static String cell(Object v) {
    if (v instanceof Double || v instanceof Float || v instanceof java.math.BigDecimal) {
      return String.format(Locale.ROOT, "%.6f", ((Number) v).doubleValue());
    }
    return String.valueOf(v);
  }
}
