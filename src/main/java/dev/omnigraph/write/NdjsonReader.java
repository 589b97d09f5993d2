package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.LoadMode;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.JsonValues;
import dev.omnigraph.schema.KeyIds;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.ValueLimits;
import dev.omnigraph.util.StrictJson;
import dev.omnigraph.util.Ulid;
import java.io.IOException;
import java.io.Reader;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Parses NDJSON load input into typed rows, one line at a time: {@code {"type":"T","data":{…}}} for
 * nodes and {@code {"edge":"E","from":"id","to":"id","data":{…}}} for edges ({@code data} defaults
 * to {@code {}}; {@code from}/{@code to} are endpoint node ids, i.e. key values for keyed nodes).
 * An edge may name its own id, as {@code data.id} (the reference's spelling) or a top-level
 * {@code "id"}; without one it gets a generated id.
 * Every error names its line; nothing is written until the whole input parsed. A line holds exactly
 * one JSON value: anything but whitespace after it is refused, because a lenient reader would keep
 * the first object of {@code {…} {…}} and silently drop the rest.
 */
final class NdjsonReader {

  /** Strict (StrictJson): a key given twice in one object is refused, naming the line, not loaded as the last value. */
  private static final ObjectMapper JSON = new ObjectMapper(StrictJson.factory());
  private static final Set<String> NODE_FIELDS = Set.of("type", "data");
  private static final Set<String> EDGE_FIELDS = Set.of("edge", "id", "from", "to", "data");

  private NdjsonReader() {}

  /** Rows by table key, then id; each row has {@code id} (and {@code src}/{@code dst}) set. */
  static LoadBatch read(Reader input, Catalog catalog, LoadMode mode) throws IOException {
    return read(input, 1, catalog, mode);
  }

  /**
   * As {@link #read(Reader, Catalog, LoadMode)}; the
   * input's first line is line {@code firstLine} (1, or where a chunk of {@code load --split} starts).
   */
  static LoadBatch read(Reader input, long firstLine, Catalog catalog, LoadMode mode) throws IOException {
    return read(input, firstLine, catalog, mode, (type, line) -> { });
  }

  /**
   * As {@link #read(Reader, long, Catalog, LoadMode)}, telling {@code admit} each row's type (the
   * schema's spelling) and line once the type is resolved; what it throws ends the read.
   */
  static LoadBatch read(Reader input, long firstLine, Catalog catalog, LoadMode mode,
      java.util.function.ObjLongConsumer<String> admit) throws IOException {
    LoadBatch batch = new LoadBatch();
    read(input, firstLine, catalog, mode, admit, batch);
    return batch;
  }

  /**
   * As {@link #read(Reader, long, Catalog, LoadMode, java.util.function.ObjLongConsumer)}, handing
   * each row to {@code batch} as its line is parsed: a streamed overwrite spills it there instead of
   * holding it.
   */
  static void read(Reader input, long firstLine, Catalog catalog, LoadMode mode,
      java.util.function.ObjLongConsumer<String> admit, LoadSink batch) throws IOException {
    Map<String, EdgeType> edgesByLowerName = new HashMap<>();
    catalog.edges().values().forEach(e -> edgesByLowerName.put(e.name().toLowerCase(Locale.ROOT), e));
    Lines lines = new Lines(input, batch.blobSpillDirectory());
    long[] line = {firstLine - 1};
    java.util.function.Function<Block, Recorded> parse = block -> parseBlock(block, catalog, edgesByLowerName, mode,
        lines.spilled);
    // Append and merge read line by line: their row bound refuses at the line that crosses it,
    // without reading on (an endless input must not be read past it).
    int blockLines = mode == LoadMode.OVERWRITE ? BLOCK_LINES : 1;
    Block first = Block.read(lines, line, blockLines);
    if (first.last || PARSERS <= 1 || mode != LoadMode.OVERWRITE) {
      // A small input, or a keyed one, is parsed here: no threads.
      for (Block b = first; ; b = Block.read(lines, line, blockLines)) {
        parse.apply(b).replay(batch, admit, mode);
        b.end();
        if (b.last) {
          return;
        }
      }
    }
    // A large overwrite is parsed on every core, a block of lines per task, and replayed in input
    // order: the first error in the input is the one thrown, and admit and the sink see the rows
    // exactly as a single-threaded parse would hand them.
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(PARSERS, r -> {
      Thread t = new Thread(r, "ndjson-parse");
      t.setDaemon(true);
      return t;
    });
    try {
      java.util.ArrayDeque<java.util.concurrent.Future<Recorded>> window = new java.util.ArrayDeque<>();
      Block b = first;
      while (true) {
        Block submitted = b;
        window.add(pool.submit(() -> parse.apply(submitted)));
        if (b.last) {
          break;
        }
        if (window.size() >= 2 * PARSERS) {
          replayNext(window, batch, admit, mode);
        }
        b = Block.read(lines, line, blockLines);
      }
      while (!window.isEmpty()) {
        replayNext(window, batch, admit, mode);
      }
      b.end();
    } finally {
      pool.shutdownNow();
    }
  }

  /** Parser threads of a large input: the cores, at most four. */
  private static final int PARSERS = Math.min(4, Runtime.getRuntime().availableProcessors());

  /** Lines per parse task. */
  private static final int BLOCK_LINES = 4096;

  private static void replayNext(java.util.ArrayDeque<java.util.concurrent.Future<Recorded>> window, LoadSink batch,
      java.util.function.ObjLongConsumer<String> admit, LoadMode mode) {
    Recorded r;
    try {
      r = window.removeFirst().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while parsing the load input", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
    }
    r.replay(batch, admit, mode);
  }

  /**
   * Up to {@code max} lines of the input with their numbers; {@code last} at the input's
   * end, or at a line over the size bound, which {@link #end} throws once the lines before it are
   * replayed (their errors come first, as in a line-by-line read).
   */
  private record Block(List<String> texts, long firstLine, boolean last, RuntimeException tooLong) {

    static Block read(Lines lines, long[] line, int max) throws IOException {
      List<String> texts = new java.util.ArrayList<>(max);
      long first = line[0] + 1;
      String text;
      while (texts.size() < max) {
        try {
          text = lines.next(line[0] + 1);
        } catch (dev.omnigraph.api.ResourceLimitExceeded | LoadInputError e) {
          // A line refused while it is read (too long, or a streamed Blob value that is not base64):
          // thrown after the lines before it are replayed, so their errors come first.
          return new Block(texts, first, true, e);
        }
        if (text == null) {
          return new Block(texts, first, true, null);
        }
        line[0]++;
        texts.add(text);
      }
      return new Block(texts, first, false, null);
    }

    void end() {
      if (tooLong != null) {
        throw tooLong;
      }
    }
  }

  /** Parses one block into what it hands the sink and admit, stopping at its first error. */
  private static Recorded parseBlock(Block block, Catalog catalog, Map<String, EdgeType> edgesByLowerName,
      LoadMode mode, Map<String, BlobValue> spilled) {
    Recorded out = new Recorded();
    long line = block.firstLine() - 1;
    try {
      for (String text : block.texts()) {
        line++;
        if (text.isBlank()) {
          continue;
        }
        JsonNode node = parseLine(text, line);
        if (node == null || !node.isObject()) {
          throw new LoadInputError(line, "expected a JSON object");
        }
        if (node.has("type")) {
          readNode(out, catalog, node, line, mode, out, spilled);
        } else if (node.has("edge")) {
          readEdge(out, catalog, edgesByLowerName, node, line, mode, out, spilled);
        } else {
          throw new LoadInputError(line, "expected {\"type\":…,\"data\":…} or {\"edge\":…,\"from\":…,\"to\":…}");
        }
      }
    } catch (RuntimeException | IOException e) {
      out.failure = e;
    }
    return out;
  }

  /**
   * A block's parse as the calls it makes, replayed later onto the load's sink and admit in input
   * order: a parse thread never touches the shared sink, and the keyed-plan bound is checked
   * against the real row counts at replay.
   */
  private static final class Recorded implements LoadSink, java.util.function.ObjLongConsumer<String> {

    private interface Op {
      void apply(LoadSink sink, java.util.function.ObjLongConsumer<String> admit, LoadMode mode);
    }

    private final List<Op> ops = new java.util.ArrayList<>();
    private Exception failure;

    @Override
    public void accept(String type, long line) {
      ops.add((sink, admit, mode) -> admit.accept(type, line));
    }

    @Override
    public void add(TableKey tableKey, String id, Map<String, Object> row, long line, boolean strict) {
      ops.add((sink, admit, mode) -> {
        sink.add(tableKey, id, row, line, strict);
        if (mode != LoadMode.OVERWRITE) {
          refuseOverLimit(sink, tableKey, tableKey.typeName(), line);
        }
      });
    }

    @Override
    public void addEdge(TableKey tableKey, String id, Map<String, Object> row, long line, String fromType, String from,
        String toType, String to, boolean named, boolean strict) {
      ops.add((sink, admit, mode) -> sink.addEdge(tableKey, id, row, line, fromType, from, toType, to, named, strict));
    }

    @Override
    public int rowsIn(TableKey tableKey) {
      throw new IllegalStateException("a recorded parse does not count rows; the bound is checked at replay");
    }

    void replay(LoadSink sink, java.util.function.ObjLongConsumer<String> admit, LoadMode mode) throws
        java.io.UncheckedIOException {
      for (Op op : ops) {
        op.apply(sink, admit, mode);
      }
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  /** The one JSON value of a line; anything but JSON whitespace after it is a {@link LoadInputError}. */
  private static JsonNode parseLine(String text, long line) throws IOException {
    try (JsonParser parser = JSON.createParser(text)) {
      JsonNode node;
      try {
        node = JSON.readTree(parser);
      } catch (JsonProcessingException e) {
        // In our words, from the failure's type and fields: the parser's own message names Java settings.
        JsonProcessingException cause = e.getCause() instanceof JsonProcessingException c ? c : e;
        JsonLocation at = cause.getLocation() != null ? cause.getLocation() : e.getLocation();
        throw new LoadInputError(line, StrictJson.reason(cause)
            + (at != null && at.getColumnNr() > 0 ? " at column " + at.getColumnNr() : ""));
      }
      // Scanned by hand rather than with nextToken(): "garbage" is not a token, and a second object
      // would parse fine; both must be refused, and the column is the same either way.
      int at = (int) parser.currentLocation().getCharOffset();
      while (at < text.length() && isJsonWhitespace(text.charAt(at))) {
        at++;
      }
      if (at < text.length()) {
        throw new LoadInputError(line, "unexpected content after the JSON object at column " + (at + 1)
            + " (exactly one object per line)");
      }
      return node;
    }
  }

  /**
   * The lines of the input as {@link java.io.BufferedReader#readLine} splits them (at LF, CR or
   * CR LF), each at most {@link WriteLimits#MAX_NDJSON_LINE_BYTES} UTF-8 bytes: a longer one is
   * refused (413, {@link WriteLimits#NDJSON_LINE_RESOURCE}) at the character that crosses the bound.
   *
   * <p>With a spill directory (an overwrite load, {@link LoadSink#blobSpillDirectory}), a JSON string
   * starting {@code base64:} that crosses the bound is not refused: its payload is decoded as it is
   * read into a file there ({@link StreamedBlob}), and the line keeps a marker in its place that
   * {@link #spilled} resolves to the file's {@link BlobValue#spilled}. The rest of the line keeps the
   * bound. So an overwrite carries a Blob of any size in bounded heap (docs/schema-language.md, "Blob").
   */
  private static final class Lines {

    private static final String BASE64 = BlobValue.MANAGED_PREFIX;

    private final Reader in;
    private final java.util.Optional<java.nio.file.Path> blobDir;
    /**
     * Streamed Blob values by their marker; read by the parse threads (a block is handed over after
     * its lines are read).
     */
    final Map<String, BlobValue> spilled = new java.util.concurrent.ConcurrentHashMap<>();
    /** Unguessable, so no input string can name another line's spilled value. */
    private final String markerPrefix = "\u0000streamed-blob:" + java.util.UUID.randomUUID() + ":";
    private final char[] buf = new char[8192];
    private int pos;
    private int len;
    private boolean afterCr;
    private final StringBuilder line = new StringBuilder();
    /** The JSON string state of the current line: inside a string, after a backslash, where its text starts. */
    private boolean inString;
    private boolean escaped;
    private int stringStart;
    /** The Blob value being decoded to a file, while the line's reading is inside it. */
    private StreamedBlob blob;

    Lines(Reader in, java.util.Optional<java.nio.file.Path> blobDir) {
      this.in = in;
      this.blobDir = blobDir;
    }

    /** Line {@code number}, without its terminator; null at the end of the input. */
    String next(long number) throws IOException {
      line.setLength(0);
      inString = false;
      escaped = false;
      long bytes = 0;
      boolean any = false;
      while (true) {
        if (pos == len) {
          len = in.read(buf, 0, buf.length);
          pos = 0;
          if (len < 0) {
            len = 0;
            if (blob != null) {
              blob.abandon();
              blob = null;
              throw new LoadInputError(number, "the input ends inside a Blob value");
            }
            return any ? line.toString() : null;
          }
          continue;
        }
        char c = buf[pos++];
        if (afterCr) {
          afterCr = false;
          if (c == '\n') {
            continue;
          }
        }
        if (blob != null) {
          if (blob.accept(c, number)) {
            continue;
          }
          // The closing quote: the value is in its file, the line carries its marker.
          String marker = markerPrefix + spilled.size();
          spilled.put(marker, blob.finish(number));
          blob = null;
          line.append(marker.replace("\u0000", "\\u0000")).append('"');
          bytes += marker.length() + 6;
          inString = false;
          escaped = false;
          continue;
        }
        if (c == '\n' || c == '\r') {
          afterCr = c == '\r';
          return line.toString();
        }
        any = true;
        if (inString) {
          if (escaped) {
            escaped = false;
          } else if (c == '\\') {
            escaped = true;
          } else if (c == '"') {
            inString = false;
          }
        } else if (c == '"') {
          inString = true;
          stringStart = line.length() + 1;
        }
        // UTF-8 bytes: 1 to 3 per char, 2 for each half of a surrogate pair (4 for the pair).
        bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
        line.append(c);
        if (bytes > WriteLimits.MAX_NDJSON_LINE_BYTES) {
          int text = line.length() - stringStart;
          if (inString && blobDir.isPresent() && text < BASE64.length()
              && BASE64.startsWith(line.substring(stringStart))) {
            continue; // it may yet be a Blob value: decided at its seventh character
          }
          if (inString && blobDir.isPresent() && line.indexOf(BASE64, stringStart) == stringStart) {
            blob = new StreamedBlob(blobDir.get());
            for (int i = stringStart + BASE64.length(); i < line.length(); i++) {
              if (!blob.accept(line.charAt(i), number)) {
                throw new IllegalStateException("a string's end was not tracked");
              }
            }
            bytes -= text; // base64 text is ASCII: one byte a char, else accept refused it
            line.setLength(stringStart);
            continue;
          }
          throw new dev.omnigraph.api.ResourceLimitExceeded(WriteLimits.NDJSON_LINE_RESOURCE,
              WriteLimits.MAX_NDJSON_LINE_BYTES, bytes, "refused at line " + number + ": one NDJSON record is at most "
                  + WriteLimits.MAX_NDJSON_LINE_BYTES + " bytes (UTF-8); the rest of the line was not read"
                  + (blobDir.isPresent() ? " (only a 'base64:' Blob value may be longer)" : ""));
        }
      }
    }
  }

  /**
   * A {@code base64:} Blob value decoded into a file as its text is read: 64 Ki characters of text
   * and their bytes in memory at a time, whatever its size. The payload is refused, naming the line,
   * at a character outside standard base64 (a JSON escape other than {@code \/} included), at text
   * after the padding, or at an ending base64 cannot have.
   */
  private static final class StreamedBlob {

    private final java.nio.file.Path file;
    private final java.io.OutputStream out;
    /** Text to decode, a multiple of four characters when full. */
    private final byte[] text = new byte[64 * 1024];
    private int held;
    private boolean escaped;
    private boolean padded;
    private long size;

    StreamedBlob(java.nio.file.Path dir) throws IOException {
      this.file = java.nio.file.Files.createTempFile(dir, "blob-", ".bin");
      this.out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(file), 1 << 16);
    }

    /** Takes one character of the value's JSON text; false at its closing quote. */
    boolean accept(char c, long line) throws IOException {
      if (escaped) {
        escaped = false;
        if (c != '/') {
          throw refuse(line, "a JSON escape '\\" + c + "' inside the payload");
        }
      } else if (c == '\\') {
        escaped = true;
        return true;
      } else if (c == '"') {
        return false;
      }
      boolean base64 = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
      if (c == '=') {
        padded = true;
      } else if (!base64) {
        throw refuse(line, c == '\n' || c == '\r' ? "the line ends inside the payload"
            : "illegal base64 character '" + (c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c)) + "'");
      } else if (padded) {
        throw refuse(line, "base64 text after its padding");
      }
      text[held++] = (byte) c;
      if (held == text.length) {
        decode(line);
      }
      return true;
    }

    private void decode(long line) throws IOException {
      byte[] bytes;
      try {
        bytes = java.util.Base64.getDecoder().decode(java.util.Arrays.copyOf(text, held));
      } catch (IllegalArgumentException e) {
        throw refuse(line, e.getMessage());
      }
      out.write(bytes);
      size += bytes.length;
      held = 0;
    }

    /** Decodes the rest and closes the file: the value, held there. */
    BlobValue finish(long line) throws IOException {
      if (escaped) {
        throw refuse(line, "a JSON escape at its end");
      }
      decode(line);
      out.close();
      return BlobValue.spilled(file, size);
    }

    void abandon() {
      try {
        out.close();
        java.nio.file.Files.deleteIfExists(file);
      } catch (IOException ignored) {
        // the load's spill directory is deleted with the load
      }
    }

    private LoadInputError refuse(long line, String why) {
      abandon();
      return new LoadInputError(line, "a Blob value 'base64:…' must carry standard base64: " + why);
    }
  }

  private static boolean isJsonWhitespace(char c) {
    return c == ' ' || c == '\t' || c == '\r';
  }

  private static void readNode(LoadSink batch, Catalog catalog, JsonNode node, long line, LoadMode mode,
      java.util.function.ObjLongConsumer<String> admit, Map<String, BlobValue> spilled) {
    requireFields(node, NODE_FIELDS, line);
    String typeName = node.get("type").asText();
    NodeType type = catalog.node(typeName).orElseThrow(() ->
        new LoadInputError(line, "unknown node type '" + typeName + "'" + catalog.nodeTypeHint(typeName)));
    admit.accept(type.name(), line);
    Map<String, Object> row = values(type.properties(), data(node, line), line, typeName, spilled);
    String id;
    if (type.isKeyed()) {
      try {
        id = KeyIds.nodeId(type, row);
      } catch (IllegalArgumentException e) {
        throw new LoadInputError(line, e.getMessage());
      }
    } else {
      id = Ulid.next();
    }
    row.put("id", id);
    // The keyed-plan bound is checked where the rows are counted (Recorded's replay).
    batch.add(type.tableKey(), id, row, line, mode == LoadMode.APPEND);
  }

  /**
   * The keyed-plan bound (WriteLimits, 8,192 rows per table), checked as the rows arrive: a large
   * append or merge is refused at the line that crosses it, not after the whole input was parsed
   * (a 200,000-row file took 18–24 s to be told).
   */
  private static void refuseOverLimit(LoadSink batch, TableKey tableKey, String typeName, long line) {
    int rows = batch.rowsIn(tableKey);
    if (rows > WriteLimits.MAX_KEYED_ROWS) {
      throw new dev.omnigraph.api.ResourceLimitExceeded("rows:" + tableKey, WriteLimits.MAX_KEYED_ROWS, rows,
          "refused at line " + line + ", the " + rows + "th " + typeName + " row: one append or merge commits at"
              + " most " + WriteLimits.MAX_KEYED_ROWS + " rows per type; split the input into loads of at most that"
              + " many rows per type, or replace the table in one commit with --mode overwrite");
    }
  }

  private static void readEdge(LoadSink batch, Catalog catalog, Map<String, EdgeType> edges, JsonNode node,
      long line, LoadMode mode, java.util.function.ObjLongConsumer<String> admit, Map<String, BlobValue> spilled) {
    requireFields(node, EDGE_FIELDS, line);
    String name = node.get("edge").asText();
    EdgeType type = edges.get(name.toLowerCase(Locale.ROOT));
    if (type == null) {
      throw new LoadInputError(line, "unknown edge type '" + name + "'" + catalog.edgeTypeHint(name));
    }
    admit.accept(type.name(), line);
    String from = endpoint(node, "from", line);
    String to = endpoint(node, "to", line);
    JsonNode data = data(node, line);
    String explicit = explicitEdgeId(node, data, line);
    if (explicit != null) {
      // The id is structure, not a declared property: the property conversion must not see it.
      data = ((com.fasterxml.jackson.databind.node.ObjectNode) data.deepCopy()).without("id");
    }
    Map<String, Object> row = values(type.properties(), data, line, type.name(), spilled);
    String id = explicit != null ? explicit : Ulid.next();
    row.put("id", id);
    row.put("src", from);
    row.put("dst", to);
    // A generated id never repeats; a named one repeats only when the input says so, and then it is
    // refused in append (strict insert) and the last line wins in merge/overwrite (an upsert by id).
    boolean strict = explicit == null || mode == LoadMode.APPEND;
    batch.addEdge(type.tableKey(), id, row, line, type.from(), from, type.to(), to, explicit != null, strict);
  }

  /**
   * The id an edge line names, or null. The reference reads it from {@code data.id}; a top-level
   * {@code "id"} is accepted too (the spelling users write by analogy with {@code from}/{@code to}).
   * Either must be a non-empty string: a number would be a second spelling of the same id.
   */
  private static String explicitEdgeId(JsonNode node, JsonNode data, long line) {
    String top = edgeId(node.get("id"), "id", line);
    String inData = edgeId(data.get("id"), "data.id", line);
    if (top != null && inData != null && !top.equals(inData)) {
      throw new LoadInputError(line, "edge names two ids: id '" + top + "' and data.id '" + inData + "'");
    }
    return top != null ? top : inData;
  }

  private static String edgeId(JsonNode v, String field, long line) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual() || v.asText().isEmpty()) {
      throw new LoadInputError(line, "edge " + field + " must be a non-empty string, got " + v);
    }
    return v.asText();
  }

  private static String endpoint(JsonNode node, String field, long line) {
    JsonNode v = node.get(field);
    if (v == null || !(v.isTextual() || v.isNumber() || v.isBoolean())) {
      throw new LoadInputError(line, "edge needs '" + field + "' (the endpoint node id)");
    }
    // An id over the limit names no node: refused here rather than looked up.
    String tooLong = ValueLimits.idTooLong("'" + field + "' (the endpoint node id)", v.asText());
    if (tooLong != null) {
      throw new LoadInputError(line, tooLong);
    }
    return v.asText();
  }

  private static JsonNode data(JsonNode node, long line) {
    JsonNode data = node.get("data");
    if (data == null || data.isNull()) {
      return JSON.createObjectNode();
    }
    if (!data.isObject()) {
      throw new LoadInputError(line, "'data' must be an object");
    }
    return data;
  }

  private static Map<String, Object> values(java.util.List<Property> properties, JsonNode data, long line,
      String typeName, Map<String, BlobValue> spilled) {
    Map<String, Property> byName = new HashMap<>();
    properties.forEach(p -> byName.put(p.name(), p));
    Iterator<String> names = data.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!byName.containsKey(n)) {
        throw new LoadInputError(line, typeName + " has no property '" + n + "'");
      }
    }
    Map<String, Object> row = new LinkedHashMap<>();
    for (Property p : properties) {
      Object v;
      JsonNode given = data.get(p.name());
      // A value the reader streamed to a file is in the line as its marker (Lines).
      BlobValue streamed = p.type().isBlob() && given != null && given.isTextual()
          ? spilled.get(given.textValue()) : null;
      try {
        v = streamed != null ? streamed : JsonValues.convert(p.type(), given);
      } catch (IllegalArgumentException e) {
        throw new LoadInputError(line, typeName + "." + p.name() + ": " + e.getMessage());
      }
      if (v == null && !p.type().nullable()) {
        throw new LoadInputError(line, typeName + "." + p.name() + " is required (" + p.type().display() + ")");
      }
      row.put(p.name(), v);
    }
    return row;
  }

  private static void requireFields(JsonNode node, Set<String> allowed, long line) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String n = names.next();
      if (!allowed.contains(n)) {
        throw new LoadInputError(line, "unexpected field '" + n + "' (allowed: " + String.join(", ", allowed) + ")");
      }
    }
  }
}
