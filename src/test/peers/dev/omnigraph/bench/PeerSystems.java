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
        ReadOutput out = graph.query(target.branch().map(dev.omnigraph.api.BranchName::existing),
            target.commit().map(dev.omnigraph.api.CommitId::existing), q.ours(), "q", params);
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
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/query"))
          .header("Content-Type", "application/json").timeout(Duration.ofMinutes(2))
          .POST(HttpRequest.BodyPublishers.ofByteArray(queryBody(json, q, value, target))).build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 413) {
        JsonNode limit = json.readTree(r.body()).path("resource_limit");
        return new Refused("413 " + limit.path("resource").asText() + " > " + limit.path("limit").asText());
      }
      if (r.statusCode() != 200) {
        throw new IllegalStateException(q.id() + " over HTTP: " + r.statusCode() + " " + r.body());
      }
      return new Rows(q.normalise(rows(json.readTree(r.body()))));
    }
  }

  /** The rows of a served read's answer, cells as {@link OursEngine} gives them. */
  static List<List<Object>> rows(JsonNode out) {
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
    return rows;
  }

  /** The body of the query request {@link OursHttp} and {@link OursSocket} send. */
  static byte[] queryBody(ObjectMapper json, PeerQueries q, String value, Target target) throws Exception {
    ObjectNode body = json.createObjectNode().put("query", q.ours()).put("name", "q");
    if (!q.paramName().isEmpty()) {
      body.putObject("params").put(q.paramName(), value);
    }
    target.branch().ifPresent(b -> body.put("branch", b));
    target.commit().ifPresent(c -> body.put("snapshot", c));
    return json.writeValueAsBytes(body);
  }

  /**
   * Ours served, through one blocking keep-alive HTTP/1.1 connection on the calling thread: the request
   * written in one segment, the answer read by its {@code Content-Length} or chunks. What a lean client
   * pays; the JDK's {@link HttpClient} hands every exchange between the caller, its selector thread and
   * its executor, and that alone measured as much as the server's whole answer here
   * (docs/performance.md, "Where the served route's time went").
   */
  static final class OursSocket implements PeerSystem {
    private final String host;
    private final int port;
    private final ObjectMapper json;
    private java.net.Socket socket;
    private java.io.OutputStream out;
    private java.io.InputStream in;

    OursSocket(URI base, ObjectMapper json) {
      this.host = base.getHost();
      this.port = base.getPort();
      this.json = json;
    }

    @Override
    public String name() {
      return "ours (HTTP)";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) throws Exception {
      Answer a = exchange("POST", "/graphs/default/query", queryBody(json, q, value, target));
      if (a.status() == 413) {
        JsonNode limit = json.readTree(a.body()).path("resource_limit");
        return new Refused("413 " + limit.path("resource").asText() + " > " + limit.path("limit").asText());
      }
      if (a.status() != 200) {
        throw new IllegalStateException(q.id() + " over HTTP: " + a.status() + " "
            + new String(a.body(), StandardCharsets.UTF_8));
      }
      return new Rows(q.normalise(rows(json.readTree(a.body()))));
    }

    record Answer(int status, byte[] body) {}

    /** One request and its answer; a connection the server closed is opened again once. */
    Answer exchange(String method, String path, byte[] body) throws java.io.IOException {
      if (socket == null) {
        socket = new java.net.Socket(host, port);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new java.io.BufferedInputStream(socket.getInputStream(), 64 * 1024);
      }
      String head = method + " " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n"
          + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n") + "\r\n";
      byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
      byte[] request = java.util.Arrays.copyOf(h, h.length + (body == null ? 0 : body.length));
      if (body != null) {
        System.arraycopy(body, 0, request, h.length, body.length);
      }
      out.write(request);
      out.flush();
      String status = line();
      int length = -1;
      boolean chunked = false;
      boolean close = false;
      for (String l = line(); !l.isEmpty(); l = line()) {
        String lower = l.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("content-length:")) {
          length = Integer.parseInt(lower.substring(15).trim());
        } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
          chunked = true;
        } else if (lower.startsWith("connection:") && lower.contains("close")) {
          close = true;
        }
      }
      java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream();
      if (chunked) {
        for (int n = Integer.parseInt(line().trim(), 16); n > 0; n = Integer.parseInt(line().trim(), 16)) {
          answer.write(in.readNBytes(n));
          line();
        }
        line();
      } else if (length >= 0) {
        answer.write(in.readNBytes(length));
      } else {
        throw new java.io.IOException("an answer without Content-Length or chunks: " + status);
      }
      if (close) {
        close();
      }
      return new Answer(Integer.parseInt(status.split(" ")[1]), answer.toByteArray());
    }

    private String line() throws java.io.IOException {
      StringBuilder l = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          throw new java.io.EOFException("the server closed the connection");
        }
        if (c != '\r') {
          l.append((char) c);
        }
      }
      return l.toString();
    }

    @Override
    public void close() throws java.io.IOException {
      if (socket != null) {
        socket.close();
        socket = null;
      }
    }
  }

  /**
   * {@code GET /healthz} on {@link OursSocket}'s connection: the floor of a served read, a loopback
   * call that runs no query. Timed in the same turns; it has no answer to compare.
   */
  record HttpFloor(OursSocket socket) implements PeerSystem {
    @Override
    public String name() {
      return "HTTP floor";
    }

    @Override
    public Outcome run(PeerQueries q, String value, Target target) throws Exception {
      OursSocket.Answer a = socket.exchange("GET", "/healthz", null);
      if (a.status() != 200) {
        throw new IllegalStateException("GET /healthz: " + a.status());
      }
      return new Rows(List.of());
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
