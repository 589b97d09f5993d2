package dev.omnigraph.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph query NAME --query F [--params JSON] [--branch B | --commit ID] [--format
 * json|table|jsonl|csv]}. {@code jsonl} and {@code csv} render as the reference CLI does: a metadata
 * line then one object per row; a header line then one line per row.
 */
@Command(name = "query", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph query friends --query people.gq --params '{\"name\":\"ann\"}' --format table --store ./g", description = "Run a .gq read query over one pinned snapshot (read-only).")
public class QueryCommand implements Callable<Integer> {

  enum Format { json, table, jsonl, csv }

  @Mixin GraphOptions graph;

  @Parameters(index = "0", paramLabel = "NAME", description = "The read query declared in the query file.")
  String name;

  @Option(names = "--query", required = true, paramLabel = "FILE", description = "The .gq file.")
  Path query;

  @Option(names = "--params", defaultValue = "{}", paramLabel = "JSON", description = "Parameters as a JSON object.")
  String params;

  @Option(names = "--branch", paramLabel = "B", description = "Read this branch's head (default main).")
  String branch;

  @Option(names = {"--commit", "--snapshot"}, paramLabel = "ID",
      description = "Read the state this commit published (--snapshot: the reference's name).")
  String commit;

  @Option(names = "--format", defaultValue = "json", description = "json (default), table, jsonl or csv.")
  Format format;

  @Option(names = "--explain", description = "Print how the read would run (id probes, pushed filters and the"
      + " indexes they use, streamed aggregates, top-k) instead of running it; local graphs only.")
  boolean explain;

  @Override
  public Integer call() throws Exception {
    String source = InputFiles.read(graph.command, "--query", query);
    var bound = ParamsJson.parse(params);
    if (explain) {
      // The plan needs the schema only; a --server form is refused by graph.open (no remote form).
      try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
        g.explain(source, name, bound).forEach(System.out::println);
      }
      return ExitCodes.OK;
    }
    var remote = graph.remote();
    if (remote.isPresent()) {
      java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
      body.put("query", source);
      body.put("name", name);
      body.put("params", bound);
      body.put("branch", branch);
      body.put("snapshot", commit);
      print(remote.get().post("/query", body, java.util.Map.of(), ReadOutput.class));
      return ExitCodes.OK;
    }
    try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
      print(g.query(Optional.ofNullable(branch).map(dev.omnigraph.api.BranchName::existing),
          Optional.ofNullable(commit).map(dev.omnigraph.api.CommitId::existing), source, name, bound,
          dev.omnigraph.api.ReadSettings.fromSystemProperties(), graph.actor()));
    }
    return ExitCodes.OK;
  }

  private void print(ReadOutput out) {
    switch (format) {
      case json -> Output.json(out);
      case table -> System.out.print(table(out));
      case jsonl -> System.out.print(jsonl(out));
      case csv -> System.out.print(csv(out));
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A {@code {"kind":"metadata",…}} line (query, target, row count), then one JSON object per row. */
  static String jsonl(ReadOutput out) {
    try {
      StringBuilder b = new StringBuilder();
      Map<String, Object> meta = new java.util.LinkedHashMap<>();
      meta.put("kind", "metadata");
      meta.put("query_name", out.queryName());
      meta.put("target", out.target());
      meta.put("row_count", out.rowCount());
      b.append(JSON.writeValueAsString(meta)).append('\n');
      for (Map<String, Object> row : out.rows()) {
        b.append(JSON.writeValueAsString(row)).append('\n');
      }
      return b.toString();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * RFC 4180: the column names, then a line per row; a cell holding a comma, quote or line break is
   * quoted with its quotes doubled. Null is {@code null}, lists and objects their JSON.
   */
  static String csv(ReadOutput out) {
    StringBuilder b = new StringBuilder();
    b.append(String.join(",", out.columns().stream().map(QueryCommand::csvCell).toList())).append('\n');
    for (Map<String, Object> row : out.rows()) {
      List<String> cells = new ArrayList<>();
      for (String c : out.columns()) {
        cells.add(csvCell(cellText(row.get(c))));
      }
      b.append(String.join(",", cells)).append('\n');
    }
    return b.toString();
  }

  private static String cellText(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
      return String.valueOf(v);
    }
    try {
      return JSON.writeValueAsString(v);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String csvCell(String s) {
    return s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")
        ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }

  static String table(ReadOutput out) {
    List<String> cols = out.columns();
    List<List<String>> cells = new ArrayList<>();
    int[] width = new int[cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      width[i] = cols.get(i).length();
    }
    for (Map<String, Object> row : out.rows()) {
      List<String> line = new ArrayList<>();
      for (int i = 0; i < cols.size(); i++) {
        Object v = row.get(cols.get(i));
        String s = v == null ? "null" : String.valueOf(v);
        width[i] = Math.max(width[i], s.length());
        line.add(s);
      }
      cells.add(line);
    }
    StringBuilder b = new StringBuilder();
    appendLine(b, cols, width);
    List<String> rule = new ArrayList<>();
    for (int w : width) {
      rule.add("-".repeat(w));
    }
    appendLine(b, rule, width);
    for (List<String> line : cells) {
      appendLine(b, line, width);
    }
    b.append('(').append(out.rowCount()).append(out.rowCount() == 1 ? " row" : " rows").append(")\n");
    return b.toString();
  }

  private static void appendLine(StringBuilder b, List<String> cells, int[] width) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        b.append(" | ");
      }
      b.append(cells.get(i)).append(" ".repeat(width[i] - cells.get(i).length()));
    }
    b.append('\n');
  }
}
