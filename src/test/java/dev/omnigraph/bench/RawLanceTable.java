package dev.omnigraph.bench;

import dev.omnigraph.schema.KeyIds;
import dev.omnigraph.schema.NodeType;
import dev.omnigraph.table.TableSchemas;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.CommitBuilder;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.ReadOptions;
import org.lance.Transaction;
import org.lance.WriteParams;
import org.lance.operation.Append;

/**
 * The floor our write path is compared against: a bare Lance dataset with the Person table's Arrow
 * schema and stable row ids (as the engine creates its tables), written by a client that holds the
 * latest version open, stages each batch as a fragment and commits it as one {@code Append} on the
 * version it holds. No key check, no graph manifest, no sidecar: what lance-java alone costs for
 * the same rows. Not thread-safe; one writer.
 */
final class RawLanceTable implements AutoCloseable {

  private final NodeType person;
  private final Schema arrow;
  private final Map<String, String> storageOptions;
  private final BufferAllocator allocator;
  private Dataset current;

  private RawLanceTable(NodeType person, Map<String, String> storageOptions, BufferAllocator allocator,
      Dataset current) {
    this.person = person;
    this.arrow = TableSchemas.node(person);
    this.storageOptions = storageOptions;
    this.allocator = allocator;
    this.current = current;
  }

  /** Creates an empty dataset at {@code uri} (fails if one exists). */
  static RawLanceTable create(String uri, Map<String, String> storageOptions, NodeType person,
      BufferAllocator allocator) {
    Dataset empty = Dataset.write()
        .allocator(allocator)
        .uri(uri)
        .schema(TableSchemas.node(person))
        .mode(WriteParams.WriteMode.CREATE)
        .enableStableRowIds(true)
        .storageOptions(storageOptions)
        .execute();
    return new RawLanceTable(person, storageOptions, allocator, empty);
  }

  /** Opens the latest version of the dataset at {@code uri}. */
  static RawLanceTable open(String uri, Map<String, String> storageOptions, NodeType person,
      BufferAllocator allocator) {
    Dataset latest = Dataset.open()
        .allocator(allocator)
        .uri(uri)
        .readOptions(new ReadOptions.Builder().setStorageOptions(storageOptions).build())
        .build();
    return new RawLanceTable(person, storageOptions, allocator, latest);
  }

  /** One-row write: builds the row, stages it and commits it. */
  void appendOne(String name, int age) {
    try (VectorSchemaRoot row = batch(List.of(name), age)) {
      append(row);
    }
  }

  /** Stages {@code rows} as fragments and commits them as one {@code Append} on the held version. */
  void append(VectorSchemaRoot rows) {
    List<FragmentMetadata> fragments = Fragment.write()
        .datasetUri(current.uri())
        .allocator(allocator)
        .data(rows)
        .storageOptions(storageOptions)
        .execute();
    try (Transaction tx = new Transaction.Builder()
        .readVersion(current.version())
        .operation(Append.builder().fragments(fragments).build())
        .build()) {
      Dataset committed = new CommitBuilder(current).execute(tx);
      current.close();
      current = committed;
    }
  }

  /** Person rows with the engine's id for each name, {@code age} set and email null. */
  VectorSchemaRoot batch(List<String> names, int age) {
    VectorSchemaRoot root = VectorSchemaRoot.create(arrow, allocator);
    VarCharVector id = (VarCharVector) root.getVector("id");
    IntVector ages = (IntVector) root.getVector("age");
    VarCharVector email = (VarCharVector) root.getVector("email");
    VarCharVector name = (VarCharVector) root.getVector("name");
    root.allocateNew();
    for (int i = 0; i < names.size(); i++) {
      String n = names.get(i);
      id.setSafe(i, KeyIds.nodeId(person, Map.of("name", n)).getBytes(StandardCharsets.UTF_8));
      ages.setSafe(i, age);
      email.setNull(i);
      name.setSafe(i, n.getBytes(StandardCharsets.UTF_8));
    }
    root.setRowCount(names.size());
    return root;
  }

  long countRows() {
    return current.countRows();
  }

  long version() {
    return current.version();
  }

  @Override
  public void close() {
    current.close();
  }
}
