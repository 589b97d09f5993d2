package dev.omnigraph.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.kuzudb.Connection;
import com.kuzudb.Database;
import com.kuzudb.FlatTuple;
import com.kuzudb.PreparedStatement;
import com.kuzudb.QueryResult;
import com.kuzudb.Value;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The systems {@link PeerBenchmark} compares, each answering a {@link PeerQueries} the same way. */
final class PeerSystems {

  private PeerSystems() {}

  /** What one run of a query gave: normalised rows, or a refusal (ours: a read budget, 413). */
  sealed interface Outcome permits Rows, Refused {}

  record Rows(List<String> lines) implements Outcome {}

  record Refused(String why) implements Outcome {}

  /** Where ours reads: the head of main, a named branch, or an older commit (time travel). */
  record Target(Optional<String> branch, Optional<String> commit) {
    static final Target HEAD = new Target(Optional.empty(), Optional.empty());
  }

  interface PeerSystem extends AutoCloseable {
    String name();

    Outcome run(PeerQueries q, String value, Target target) throws Exception;

    @Override
    default void close() throws Exception {}
  }

  /** Ours in-process: the engine API, the default read budgets ({@code omnigraph.read.*}). */
  record OursEngine(Omnigraph graph, ObjectMapper json) implements PeerSystem {
    @Override
    public String name() {
      return "ours (engine)";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) {
      ObjectNode params = json.createObjectNode();
      if (!q.paramName().isEmpty()) {
        params.put(q.paramName(), value);
      }
      try {
        ReadOutput out = graph.query(target.branch(), target.commit(), q.ours(), "q", params);
        List<List<Object>> rows = new ArrayList<>();
        for (Map<String, Object> row : out.rows()) {
          List<Object> cells = new ArrayList<>();
          for (String column : out.columns()) {
            cells.add(row.get(column));
          }
          rows.add(cells);
        }
        return new Rows(q.normalise(rows));
      } catch (ReadBudgetExceeded e) {
        return new Refused(e.budget() + " " + e.actual() + " > " + e.limit());
      }
    }
  }

  /** Ours served: {@code POST /graphs/default/query} on loopback, a packaged service's defaults. */
  record OursHttp(HttpClient http, String base, ObjectMapper json) implements PeerSystem {
    @Override
    public String name() {
      return "ours (HTTP)";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) throws Exception {
      ObjectNode body = json.createObjectNode().put("query", q.ours()).put("name", "q");
      if (!q.paramName().isEmpty()) {
        body.putObject("params").put(q.paramName(), value);
      }
      target.branch().ifPresent(b -> body.put("branch", b));
      target.commit().ifPresent(c -> body.put("snapshot", c));
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/query"))
          .header("Content-Type", "application/json").timeout(Duration.ofMinutes(2))
          .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body), StandardCharsets.UTF_8)).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 413) {
        JsonNode limit = json.readTree(r.body()).path("resource_limit");
        return new Refused("413 " + limit.path("resource").asText() + " > " + limit.path("limit").asText());
      }
      if (r.statusCode() != 200) {
        throw new IllegalStateException(q.id() + " over HTTP: " + r.statusCode() + " " + r.body());
      }
      JsonNode out = json.readTree(r.body());
      List<List<Object>> rows = new ArrayList<>();
      for (JsonNode row : out.path("rows")) {
        List<Object> cells = new ArrayList<>();
        for (JsonNode column : out.path("columns")) {
          JsonNode cell = row.path(column.asText());
          cells.add(cell.isMissingNode() || cell.isNull() ? null
              : cell.isIntegralNumber() ? (Object) cell.asLong()
              : cell.isNumber() ? (Object) cell.asDouble() : cell.asText());
        }
        rows.add(cells);
      }
      return new Rows(q.normalise(rows));
    }
  }

  /** Kuzu embedded through its Java binding, one prepared statement per query. */
  static final class Kuzu implements PeerSystem {
    private final Database db;
    private final Connection conn;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    Kuzu(String path) {
      db = new Database(path);
      conn = new Connection(db);
    }

    @Override
    public String name() {
      return "Kuzu";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) {
      PreparedStatement ps = prepared.computeIfAbsent(q.id(), k -> conn.prepare(q.kuzu()));
      if (!ps.isSuccess()) {
        throw new IllegalStateException(q.id() + " in Kuzu: " + ps.getErrorMessage());
      }
      Map<String, Value> params = q.paramName().isEmpty() ? Map.of() : Map.of(q.paramName(), new Value(value));
      try (QueryResult r = conn.execute(ps, params)) {
        if (!r.isSuccess()) {
          throw new IllegalStateException(q.id() + " in Kuzu: " + r.getErrorMessage());
        }
        List<List<Object>> rows = new ArrayList<>();
        long columns = r.getNumColumns();
        while (r.hasNext()) {
          try (FlatTuple t = r.getNext()) {
            List<Object> cells = new ArrayList<>();
            for (long c = 0; c < columns; c++) {
              try (Value v = t.getValue(c)) {
                cells.add(v.isNull() ? null : v.getValue());
              }
            }
            rows.add(cells);
          }
        }
        return new Rows(q.normalise(rows));
      }
    }

    /** Runs one statement, failing loudly (schema and COPY in the load). */
    void exec(String statement) {
      try (QueryResult r = conn.query(statement)) {
        if (!r.isSuccess()) {
          throw new IllegalStateException("Kuzu: " + statement + ": " + r.getErrorMessage());
        }
      }
    }

    @Override
    public void close() {
      prepared.values().forEach(PreparedStatement::close);
      conn.close();
      db.close();
    }
  }

  /** DuckDB embedded through JDBC, one prepared statement per query. */
  static final class DuckDb implements PeerSystem {
    private final java.sql.Connection conn;
    private final Map<String, java.sql.PreparedStatement> prepared = new HashMap<>();

    DuckDb(String path) throws SQLException {
      conn = DriverManager.getConnection("jdbc:duckdb:" + path);
    }

    @Override
    public String name() {
      return "DuckDB";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) throws SQLException {
      java.sql.PreparedStatement ps = prepared.get(q.id());
      if (ps == null) {
        ps = conn.prepareStatement(q.duckdb());
        prepared.put(q.id(), ps);
      }
      if (!q.paramName().isEmpty()) {
        ps.setString(1, value);
      }
      List<List<Object>> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          List<Object> cells = new ArrayList<>();
          for (int c = 1; c <= columns; c++) {
            cells.add(rs.getObject(c));
          }
          rows.add(cells);
        }
      }
      return new Rows(q.normalise(rows));
    }

    void exec(String statement) throws SQLException {
      try (var s = conn.createStatement()) {
        s.execute(statement);
      }
    }

    @Override
    public void close() throws SQLException {
      for (java.sql.PreparedStatement ps : prepared.values()) {
        ps.close();
      }
      conn.close();
    }
  }
}
