package dev.omnigraph.query;

import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The test schema and helpers shared by the query tests. */
final class Fixtures {

  private Fixtures() {}

  static final Catalog CATALOG = SchemaParser.parse(resource("fixture.pg"));

  static String resource(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a one-declaration source and checks it against the fixture schema. */
  static CheckedQuery check(String source) {
    QueryFile file = QueryParser.parse(source);
    return QueryChecker.check(file.declarations().get(0), CATALOG);
  }

  static CheckedRead read(String source) {
    return (CheckedRead) check(source);
  }

  static CheckedMutation mutation(String source) {
    return (CheckedMutation) check(source);
  }
}
