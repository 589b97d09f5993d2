package dev.omnigraph.engine;

import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.NotFound;
import dev.omnigraph.api.QueriesCatalogOutput;
import dev.omnigraph.query.Declaration;
import dev.omnigraph.query.ParamDecl;
import dev.omnigraph.query.QueryException;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A graph's catalog of stored queries (reference "queries registry"): every query declared in the
 * configured {@code .gq} files, under its declared name. Loaded once, when the service starts, and
 * refused as a whole if any file is unreadable or does not parse, or two files declare one name: a
 * broken catalog is a deployment error, not something to discover per request. The body is not
 * checked against the schema here (the graph may not be open yet); each invocation checks the named
 * query exactly as {@code /query} and {@code /mutate} do, D₂ included.
 */
public final class StoredQueries {

  /** One stored query: its name, the full source of its file, and whether its body writes. */
  public record StoredQuery(String name, String source, boolean mutation) {}

  private static final StoredQueries EMPTY = new StoredQueries(new TreeMap<>(), new TreeMap<>());

  private final SortedMap<String, StoredQuery> byName;
  private final SortedMap<String, QueriesCatalogOutput.Entry> entries;

  private StoredQueries(SortedMap<String, StoredQuery> byName, SortedMap<String, QueriesCatalogOutput.Entry> entries) {
    this.byName = Collections.unmodifiableSortedMap(byName);
    this.entries = Collections.unmodifiableSortedMap(entries);
  }

  /** A graph with no stored queries. */
  public static StoredQueries none() {
    return EMPTY;
  }

  /**
   * The catalog of {@code files}, each a {@code .gq} file whose every declaration is stored.
   *
   * @throws IllegalArgumentException naming the file (and line:column) when a file cannot be read or
   *     parsed, or a query name is declared in two files
   */
  public static StoredQueries load(List<Path> files) {
    List<Source> sources = new ArrayList<>();
    for (Path file : files) {
      try {
        sources.add(new Source(file.toString(), Files.readString(file, StandardCharsets.UTF_8)));
      } catch (IOException | UncheckedIOException e) {
        throw new IllegalArgumentException("stored queries: cannot read " + file + ": " + e.getMessage(), e);
      }
    }
    return of(sources);
  }

  /** A {@code .gq} source and where it came from (for messages). */
  public record Source(String origin, String text) {}

  /**
   * The catalog of {@code sources}.
   *
   * @throws IllegalArgumentException as {@link #load}
   */
  public static StoredQueries of(List<Source> sources) {
    SortedMap<String, StoredQuery> byName = new TreeMap<>();
    SortedMap<String, String> origin = new TreeMap<>();
    SortedMap<String, QueriesCatalogOutput.Entry> entries = new TreeMap<>();
    for (Source source : sources) {
      List<Declaration> declarations;
      try {
        declarations = QueryParser.parse(source.text()).declarations();
      } catch (QueryException e) {
        throw new IllegalArgumentException("stored queries: " + source.origin() + ": " + e.getMessage(), e);
      }
      for (Declaration d : declarations) {
        String first = origin.putIfAbsent(d.name(), source.origin());
        if (first != null) {
          throw new IllegalArgumentException("stored queries: query '" + d.name() + "' is declared in both "
              + first + " and " + source.origin() + " (a stored query's name is its identity)");
        }
        byName.put(d.name(), new StoredQuery(d.name(), source.text(), d.isMutation()));
        entries.put(d.name(), new QueriesCatalogOutput.Entry(d.name(), d.name(), d.isMutation(),
            d.description().orElse(null), d.instruction().orElse(null),
            d.params().stream().map(StoredQueries::describe).toList()));
      }
    }
    return new StoredQueries(byName, entries);
  }

  /** Reference {@code QueriesCatalogOutput}, sorted by name. */
  public QueriesCatalogOutput catalog() {
    return new QueriesCatalogOutput(List.copyOf(entries.values()));
  }

  /**
   * The stored query called {@code name}.
   *
   * @throws NotFound ({@code stored query}) when the catalog has none of that name
   */
  public StoredQuery get(String name) {
    StoredQuery q = byName.get(name);
    if (q == null) {
      throw notFound(name);
    }
    return q;
  }

  /**
   * The answer for a query {@code name} this catalog does not hold; also what a caller without
   * {@code invoke_query} gets for one it does hold, so a denial cannot be told from a miss.
   */
  public NotFound notFound(String name) {
    return new NotFound("stored query", name, byName.isEmpty() ? "this graph has no stored queries"
        : "GET /graphs/{graph_id}/queries lists them");
  }

  /**
   * Checks the kind a caller asserted ({@code expect_mutation}) against the stored query's.
   *
   * @throws InvalidRequest when they disagree
   */
  public static void expectKind(StoredQuery q, Boolean expectMutation) {
    if (expectMutation != null && expectMutation != q.mutation()) {
      throw new InvalidRequest("stored query '" + q.name() + "' is a " + (q.mutation() ? "mutation" : "read query")
          + ", but the request expects a " + (expectMutation ? "mutation" : "read query"));
    }
  }

  /** The catalog names, sorted. */
  public List<String> names() {
    return List.copyOf(byName.keySet());
  }

  private static QueriesCatalogOutput.Param describe(ParamDecl p) {
    PropertyType t = p.type();
    if (t.list()) {
      return new QueriesCatalogOutput.Param(p.name(), "list", kind(t.kind()), null, t.nullable());
    }
    return new QueriesCatalogOutput.Param(p.name(), kind(t.kind()), null,
        t.kind() == ScalarKind.VECTOR ? t.vectorDim() : null, t.nullable());
  }

  /** Reference {@code ParamKind}: 64-bit integers are {@code bigint} (a string on the wire past 2^53). */
  private static String kind(ScalarKind kind) {
    return switch (kind) {
      case STRING, ENUM -> "string";
      case BOOL -> "bool";
      case I32, U32 -> "int";
      case I64, U64 -> "bigint";
      case F32, F64 -> "float";
      case DATE -> "date";
      case DATETIME -> "datetime";
      case VECTOR -> "vector";
      case BLOB -> "blob";
    };
  }

  /**
   * Refuses a schema whose catalog would break one of these stored queries, as the reference's
   * {@code validate_registry_against_catalog} does before a schema apply: the catalog is fixed at
   * startup, so a query that stops typechecking would fail every invocation until a redeploy. Only
   * breakages the change causes count: a query that already fails against {@code acceptedSource}
   * (a D₂ breach fails on every schema) does not block an apply. The desired catalog is fixed by its
   * source (renames included), so checking it before the apply decides the same as under its gate.
   *
   * @throws dev.omnigraph.api.InvalidRequest listing each stored query the desired schema breaks, in
   *     the reference's wording ({@code graph 'g': 1 stored query failed the schema check: query 'q': …})
   * @throws dev.omnigraph.schema.SchemaParseException when the desired source does not parse
   */
  public void checkSchema(String graphId, String acceptedSource, String desiredSource) {
    if (names().isEmpty()) {
      return;
    }
    dev.omnigraph.schema.Catalog desired = dev.omnigraph.schema.SchemaParser.parse(desiredSource);
    dev.omnigraph.schema.Catalog accepted = dev.omnigraph.schema.SchemaParser.parse(acceptedSource);
    java.util.List<String> broken = new java.util.ArrayList<>();
    for (String name : names()) {
      String failure = failure(get(name), desired);
      if (failure != null && failure(get(name), accepted) == null) {
        broken.add("query '" + name + "': " + failure);
      }
    }
    if (!broken.isEmpty()) {
      throw new dev.omnigraph.api.InvalidRequest("schema apply refused, nothing was changed: graph '" + graphId + "': "
          + broken.size() + " stored quer" + (broken.size() == 1 ? "y" : "ies") + " failed the schema check:\n  "
          + String.join("\n  ", broken));
    }
  }

  /** Why {@code query} does not typecheck against {@code catalog}, or null when it does. */
  private static String failure(StoredQuery query, dev.omnigraph.schema.Catalog catalog) {
    try {
      dev.omnigraph.query.QueryChecker.check(dev.omnigraph.query.QueryParser.parse(query.source())
          .declaration(query.name()), catalog);
      return null;
    } catch (dev.omnigraph.query.QueryException e) {
      return e.getMessage();
    }
  }
}
