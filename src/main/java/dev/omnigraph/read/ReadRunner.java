package dev.omnigraph.read;

import dev.omnigraph.api.ReadSettings;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.query.BoundParams;
import dev.omnigraph.query.CheckedQuery;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Params;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.DataTables;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Parses, checks, binds and runs one named read over one pinned manifest state. */
public final class ReadRunner {

  private final String root;
  private final DataTables tables;
  private final AdjacencyCache adjacency;
  private final CheckedReads checkedReads;

  /** Runs reads of {@code root}, taking their checked form from {@code checkedReads} (the root's). */
  public ReadRunner(String root, DataTables tables, AdjacencyCache adjacency, CheckedReads checkedReads) {
    this.root = root;
    this.tables = tables;
    this.adjacency = adjacency;
    this.checkedReads = checkedReads;
  }

  /**
   * Runs query {@code name} of {@code source}, checked against {@code ir} (remembered per schema
   * identity, see {@link CheckedReads}), against {@code state}, handing the checked read to
   * {@code admit} before anything is read (the engine's per-type authorization); what it throws is
   * the answer.
   *
   * @param target what the caller asked for, echoed in the output
   * @param headCommit the effective head of {@code state} (from the same scan as its pins)
   * @param budgets the read's row, byte and time budgets; the clock starts before parsing
   * @throws InvalidRequest when {@code name} is a mutation
   * @throws dev.omnigraph.api.ReadBudgetExceeded when a budget runs out
   */
  public ReadOutput run(SchemaIr ir, ManifestState state, ReadOutput.Target target, Optional<String> headCommit,
      String source, String name, com.fasterxml.jackson.databind.JsonNode params, ReadSettings budgets,
      java.util.function.BiConsumer<CheckedQuery, Catalog> admit) {
    ReadBudget budget = new ReadBudget(budgets, System::nanoTime);
    Catalog catalog = ir.catalog();
    CheckedRead read = checkedReads.read(ir, source, name);
    admit.accept(read, catalog);
    BoundParams bound = Params.bind(read, params);
    ReadExecutor.Result result = new ReadExecutor(root, tables, state, adjacency, bound, Instant.now(), budget)
        .run(read, catalog.nodes());
    List<Map<String, Object>> rows = new ArrayList<>(result.rows().size());
    for (List<Object> r : result.rows()) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 0; i < result.columns().size(); i++) {
        // The reference omits a null cell's key from its row object (RFC 0051, its gqt case
        // issue_618_json_f32_datetime_null_spelling); `columns` still names every column.
        if (r.get(i) != null) {
          row.put(result.columns().get(i), json(r.get(i)));
        }
      }
      rows.add(row);
    }
    return new ReadOutput(read.name(), target, rows.size(), result.columns(), rows, headCommit.orElse(null));
  }

  /**
   * How read {@code name} of {@code source} would run, in words, without reading any data
   * ({@code omnigraph query --explain}; docs/query-language.md, "Explain"): per variable its id
   * probe or its scan with the filter pushed into Lance and the declared BTree indexes that filter
   * can use, then a streamed aggregate and a top-k heap when the read has them.
   *
   * @throws InvalidRequest when {@code name} is a mutation
   */
  public static List<String> explain(Catalog catalog, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params) {
    return explain(catalog, source, name, params, null);
  }

  /**
   * As {@link #explain(Catalog, String, String, com.fasterxml.jackson.databind.JsonNode)}, then one
   * line per scanned variable saying whether the column cache holds the columns its scan reads
   * (docs/performance.md, "The column cache"): {@code cached} answers, for a table and columns,
   * whether they are held for the version a read would pin now; null when the cache is off.
   */
  public static List<String> explain(Catalog catalog, String source, String name,
      com.fasterxml.jackson.databind.JsonNode params,
      java.util.function.BiPredicate<dev.omnigraph.api.TableKey, java.util.Set<String>> cached) {
    CheckedRead read = CheckedReads.check(catalog, source, name);
    BoundParams bound = Params.bind(read, params);
    ReadPlan plan = new ReadPlan(read, catalog.nodes(), ReadExecutor.evaluator(bound, Instant.now()));
    List<String> out = new ArrayList<>(plan.describe());
    for (int slot : plan.scannedSlots()) {
      dev.omnigraph.api.TableKey table = plan.slotEdge(slot).map(e -> e.tableKey())
          .orElseGet(() -> plan.slotType(slot).tableKey());
      String columns = String.join(",", plan.columns(slot));
      out.add("$" + plan.variableOf(slot) + ": column cache " + (cached == null ? "off, Lance scans"
          : cached.test(table, plan.columns(slot)) ? "holds " + columns + " of the pinned version: answered in memory"
          : "does not hold " + columns + " of the pinned version yet: Lance scans (loaded on the version's 2nd scan)"));
    }
    return out;
  }

  private static final java.time.format.DateTimeFormatter DATETIME_SECONDS =
      java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(java.time.ZoneOffset.UTC);
  private static final java.time.format.DateTimeFormatter DATETIME_MILLIS =
      java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS").withZone(java.time.ZoneOffset.UTC);

  /**
   * The reference's JSON spelling of a cell: a Date as {@code 2024-01-01}; a DateTime as UTC
   * wall-clock time without a zone, with three fractional digits only when the milliseconds are
   * not zero ({@code 2024-01-01T12:34:56.789}, {@code 2024-01-01T00:00:00}); vectors as number
   * arrays; F32 stays a Float, so it is written at 32-bit width ({@code 0.99}).
   */
  private static Object json(Object v) {
    if (v instanceof LocalDate d) {
      return d.toString();
    }
    if (v instanceof Instant t) {
      return (t.getNano() / 1_000_000 == 0 ? DATETIME_SECONDS : DATETIME_MILLIS).format(t);
    }
    if (v instanceof float[] f) {
      List<Float> out = new ArrayList<>(f.length);
      for (float x : f) {
        out.add(x);
      }
      return out;
    }
    if (v instanceof List<?> l) {
      return l.stream().map(ReadRunner::json).toList();
    }
    return v;
  }
}
