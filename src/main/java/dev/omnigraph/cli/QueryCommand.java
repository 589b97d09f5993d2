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

/** {@code omnigraph query NAME --query F [--params JSON] [--branch B | --commit ID] [--format json|table]}. */
@Command(name = "query", description = "Run a .gq read query over one pinned snapshot (read-only).")
public class QueryCommand implements Callable<Integer> {

  enum Format { json, table }

  @Mixin GraphOptions graph;

  @Parameters(index = "0", paramLabel = "NAME", description = "The read query declared in the query file.")
  String name;

  @Option(names = "--query", required = true, paramLabel = "FILE", description = "The .gq file.")
  Path query;

  @Option(names = "--params", defaultValue = "{}", paramLabel = "JSON", description = "Parameters as a JSON object.")
  String params;

  @Option(names = "--branch", paramLabel = "B", description = "Read this branch's head (default main).")
  String branch;

  @Option(names = "--commit", paramLabel = "ID", description = "Read the state this commit published.")
  String commit;

  @Option(names = "--format", defaultValue = "json", description = "json (default) or table.")
  Format format;

  @Override
  public Integer call() throws Exception {
    var bound = new ObjectMapper().readTree(params);
    var remote = graph.remote();
    if (remote.isPresent()) {
      java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
      body.put("query", Files.readString(query));
      body.put("name", name);
      body.put("params", bound);
      body.put("branch", branch);
      body.put("snapshot", commit);
      print(remote.get().post("/query", body, java.util.Map.of(), ReadOutput.class));
      return ExitCodes.OK;
    }
    try (Omnigraph g = graph.open(OpenMode.READ_ONLY)) {
      print(g.query(Optional.ofNullable(branch), Optional.ofNullable(commit), Files.readString(query), name, bound));
    }
    return ExitCodes.OK;
  }

  private void print(ReadOutput out) {
    if (format == Format.json) {
      Output.json(out);
    } else {
      System.out.print(table(out));
    }
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
