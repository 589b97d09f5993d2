package dev.omnigraph.read;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.EdgeType;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.schema.Property;
import dev.omnigraph.schema.PropertyType;
import dev.omnigraph.schema.ScalarKind;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.Filter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One branch's data as the NDJSON {@code load} accepts: {@code {"type":T,"data":{…}}} per node and
 * {@code {"edge":E,"from":id,"to":id,"data":{…}}} per edge, node types first (sorted by name), then
 * edge types. Every table is read at the version pinned by one manifest scan taken when the export
 * was created, so the lines form one consistent snapshot however long the stream takes; rows are
 * streamed one Lance batch at a time, never a whole table in memory.
 *
 * <p>Node lines carry properties only: a keyed node's id is derived from its key again on load. An
 * unkeyed node's id is generated on load, so a reload into another graph gives it a new id (and an
 * edge naming the old id no longer finds it); a reload into the same graph finds its endpoints.
 */
public final class GraphExport implements dev.omnigraph.api.NdjsonExport {

  /** No separator between root values: each line ends with the newline written after its object. */
  private static final JsonFactory JSON = new JsonFactory().setRootValueSeparator(null)
      .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  private final DataTables tables;
  private final ManifestState state;
  private final List<NodeType> nodes = new ArrayList<>();
  private final List<EdgeType> edges = new ArrayList<>();

  /**
   * @param typeNames node and edge type names to export (edge names ignore case); empty: every type
   * @throws InvalidRequest for a name that is neither a node nor an edge type
   */
  public GraphExport(DataTables tables, Catalog catalog, ManifestState state, List<String> typeNames) {
    this.tables = tables;
    this.state = state;
    Set<TableKey> wanted = new LinkedHashSet<>();
    for (String name : typeNames) {
      if (catalog.node(name).isPresent()) {
        wanted.add(catalog.node(name).get().tableKey());
      } else if (catalog.edge(name).isPresent()) {
        wanted.add(catalog.edge(name).get().tableKey());
      } else {
        throw new InvalidRequest("unknown node or edge type '" + name + "' in type_names");
      }
    }
    catalog.nodes().values().stream().filter(n -> wanted.isEmpty() || wanted.contains(n.tableKey()))
        .forEach(nodes::add);
    catalog.edges().values().stream().filter(e -> wanted.isEmpty() || wanted.contains(e.tableKey()))
        .forEach(edges::add);
  }

  private GraphExport(DataTables tables, ManifestState state, List<NodeType> nodes, List<EdgeType> edges) {
    this.tables = tables;
    this.state = state;
    this.nodes.addAll(nodes);
    this.edges.addAll(edges);
  }

  /** The selected types' schema names, nodes first. */
  public List<String> typeNames() {
    return java.util.stream.Stream.concat(nodes.stream().map(NodeType::name), edges.stream().map(EdgeType::name))
        .toList();
  }

  /**
   * This export without the types {@code keep} rejects (by schema name): what an actor whose
   * authorization covers only some types may stream. It may select no type, and then streams nothing.
   */
  public GraphExport only(java.util.function.Predicate<String> keep) {
    return new GraphExport(tables, state, nodes.stream().filter(n -> keep.test(n.name())).toList(),
        edges.stream().filter(e -> keep.test(e.name())).toList());
  }

  /** The branch exported. */
  public String branch() {
    return state.branch();
  }

  /**
   * The lines {@link #writeTo} writes, one per row: the row counts the snapshot's pins record for the
   * selected tables (no data read), so a caller can show how far a stream got.
   */
  public long rows() {
    return java.util.stream.Stream.concat(nodes.stream().map(NodeType::tableKey), edges.stream().map(EdgeType::tableKey))
        .map(state.tables()::get).filter(java.util.Objects::nonNull).mapToLong(TablePin::rowCount).sum();
  }

  /**
   * Writes every selected row, one JSON object per line, flushing after every table. The stream is
   * not closed.
   *
   * @throws UncheckedIOException when {@code out} fails (a client that went away)
   */
  public void writeTo(OutputStream out) {
    try (JsonGenerator gen = JSON.createGenerator(out)) {
      for (NodeType n : nodes) {
        TablePin pin = state.tables().get(n.tableKey());
        if (pin != null) {
          scan(pin, row -> {
            gen.writeStartObject();
            gen.writeStringField("type", n.name());
            data(gen, pin, n.properties(), row);
            gen.writeEndObject();
            gen.writeRaw('\n');
          });
          gen.flush();
        }
      }
      for (EdgeType e : edges) {
        TablePin pin = state.tables().get(e.tableKey());
        if (pin != null) {
          scan(pin, row -> {
            gen.writeStartObject();
            gen.writeStringField("edge", e.name());
            gen.writeStringField("from", String.valueOf(row.get("src")));
            gen.writeStringField("to", String.valueOf(row.get("dst")));
            data(gen, pin, e.properties(), row);
            gen.writeEndObject();
            gen.writeRaw('\n');
          });
          gen.flush();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("export stream failed", e);
    }
  }

  private interface RowWriter {
    void write(Map<String, Object> row) throws IOException;
  }

  private void scan(TablePin pin, RowWriter writer) {
    tables.scan(pin.at(), Filter.TRUE, List.of(), row -> {
      try {
        writer.write(row);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** {@code "data":{…}} with the non-null properties, spelled as {@code load} parses them back. */
  private void data(JsonGenerator gen, TablePin pin, List<Property> properties, Map<String, Object> row)
      throws IOException {
    gen.writeObjectFieldStart("data");
    for (Property p : properties) {
      Object v = row.get(p.name());
      if (v != null) {
        gen.writeFieldName(p.name());
        if (v instanceof dev.omnigraph.schema.BlobValue external) {
          gen.writeString(external.spelling()); // the scan folded its URI: written as given, never read
        } else if (p.type().isBlob()) {
          gen.writeString(managedBlob(pin, String.valueOf(row.get("id")), p.name()));
        } else {
          value(gen, p.type(), v);
        }
      }
    }
    gen.writeEndObject();
  }

  /**
   * A managed Blob cell as load reads it back ({@code base64:<payload>}): the scan carried only its
   * description, so its bytes are read here, one cell at a time, at the pinned version.
   */
  private String managedBlob(TablePin pin, String id, String property) {
    try (var cell = tables.blobs().open(pin.at(), id, property)
        .orElseThrow(() -> new IllegalStateException("row " + id + " vanished from a pinned version"))) {
      return dev.omnigraph.schema.BlobValue.managed(cell.readAll()).spelling();
    }
  }

  static void value(JsonGenerator gen, PropertyType type, Object v) throws IOException {
    if (v instanceof List<?> list) {
      gen.writeStartArray();
      for (Object item : list) {
        value(gen, type, item);
      }
      gen.writeEndArray();
    } else if (v instanceof float[] f) {
      gen.writeStartArray();
      for (float x : f) {
        gen.writeNumber(x);
      }
      gen.writeEndArray();
    } else if (type.kind() == ScalarKind.U64 && v instanceof Long l) {
      // Stored as the unsigned bits of a signed long.
      gen.writeNumber(new BigInteger(Long.toUnsignedString(l)));
    } else if (v instanceof LocalDate || v instanceof Instant) {
      gen.writeString(v.toString());
    } else if (v instanceof String s) {
      gen.writeString(s);
    } else if (v instanceof Boolean b) {
      gen.writeBoolean(b);
    } else if (v instanceof Integer i) {
      gen.writeNumber(i);
    } else if (v instanceof Long l) {
      gen.writeNumber(l);
    } else if (v instanceof Float f) {
      gen.writeNumber(f);
    } else if (v instanceof Double d) {
      gen.writeNumber(d);
    } else {
      throw new IllegalStateException("cannot export a " + v.getClass().getName() + " value of " + type.display());
    }
  }
}
