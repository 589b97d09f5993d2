package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.Dataset;
import org.lance.WriteParams;
import org.lance.ipc.ScanOptions;

/**
 * {@code _graph_commit_recoveries.lance}: one row per completed crash recovery (docs/recovery.md,
 * "When it runs"). Internal, append-only and small; created by its first append. Ordinary commit
 * history is not a complete recovery log — this is.
 */
public final class RecoveryAuditTable {

  public static final String KEY = "_graph_commit_recoveries.lance";

  /**
   * One recovery.
   *
   * @param recoveryId ULID of this recovery action
   * @param operationId the recovered write's operation id (its sidecar name)
   * @param kind {@code RolledForward}, {@code RolledBack}, {@code Discarded} or {@code OrphanDiscarded}
   * @param forActor the original writer's actor (null when it had none)
   * @param writerKind the recovered writer's kind
   * @param branch the graph branch the write targeted
   * @param commitId the graph commit recovery published (the original lineage on roll forward, the
   *     pre-minted rollback id on roll back); null when nothing was published
   * @param recoveredAtMicros when
   * @param tableOutcomes per-table outcomes as a JSON document
   */
  public record Entry(String recoveryId, String operationId, String kind, String forActor, String writerKind,
      String branch, String commitId, long recoveredAtMicros, String tableOutcomes) {
    public Entry {
      Objects.requireNonNull(recoveryId, "recoveryId");
      Objects.requireNonNull(operationId, "operationId");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(writerKind, "writerKind");
      Objects.requireNonNull(branch, "branch");
      Objects.requireNonNull(tableOutcomes, "tableOutcomes");
    }
  }

  static final Schema SCHEMA = new Schema(List.of(
      string("recovery_id", false),
      string("operation_id", false),
      string("recovery_kind", false),
      string("recovery_for_actor", true),
      string("writer_kind", false),
      string("branch", false),
      string("recovery_commit_id", true),
      new Field("recovered_at", FieldType.notNullable(new ArrowType.Int(64, true)), null),
      string("table_outcomes", false)));

  private final StorageConfig config;
  private final dev.omnigraph.storage.StorageAdapter storage;
  private final LanceRoot lance;

  public RecoveryAuditTable(StorageConfig config, dev.omnigraph.storage.StorageAdapter storage, LanceRoot lance) {
    this.config = Objects.requireNonNull(config, "config");
    this.storage = Objects.requireNonNull(storage, "storage");
    this.lance = Objects.requireNonNull(lance, "lance");
  }

  /**
   * Appends {@code entry} unless a row for its operation id is already there, so a recovery that
   * crashed after its audit append but before deleting its sidecar records exactly one row when it
   * is retried.
   *
   * @return whether a row was appended
   */
  public boolean appendOnce(Entry entry) {
    if (entries().stream().anyMatch(e -> e.operationId().equals(entry.operationId()))) {
      return false;
    }
    write(entry, exists() ? WriteParams.WriteMode.APPEND : WriteParams.WriteMode.CREATE);
    return true;
  }

  /** Every recorded recovery, oldest first; empty when none was ever recorded. */
  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>();
    try (BufferAllocator allocator = new RootAllocator()) {
      if (!exists()) {
        return out;
      }
      try (Dataset ds = LanceSupport.open(lance, config, KEY, OptionalLong.empty(), allocator)) {
        LanceSupport.scanBatches(ds, new ScanOptions.Builder().batchSize(1024).build(), allocator, batch -> {
          for (int i = 0; i < batch.getRowCount(); i++) {
            Map<String, Object> r = RowCodec.decode(batch, i);
            out.add(new Entry((String) r.get("recovery_id"), (String) r.get("operation_id"),
                (String) r.get("recovery_kind"), (String) r.get("recovery_for_actor"), (String) r.get("writer_kind"),
                (String) r.get("branch"), (String) r.get("recovery_commit_id"), (Long) r.get("recovered_at"),
                (String) r.get("table_outcomes")));
          }
        });
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("recovery audit scan failed: " + e.getMessage(), e);
      }
    }
    out.sort(java.util.Comparator.comparing(Entry::recoveryId));
    return out;
  }

  /** A committed version manifest is what makes the dataset exist; a storage failure is thrown. */
  private boolean exists() {
    return !storage.list(KEY + "/_versions").isEmpty();
  }

  private void write(Entry entry, WriteParams.WriteMode mode) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("recovery_id", entry.recoveryId());
    row.put("operation_id", entry.operationId());
    row.put("recovery_kind", entry.kind());
    row.put("recovery_for_actor", entry.forActor());
    row.put("writer_kind", entry.writerKind());
    row.put("branch", entry.branch());
    row.put("recovery_commit_id", entry.commitId());
    row.put("recovered_at", entry.recoveredAtMicros());
    row.put("table_outcomes", entry.tableOutcomes());
    try (BufferAllocator allocator = new RootAllocator();
        VectorSchemaRoot rows = RowCodec.encode(SCHEMA, List.of(row), allocator);
        ArrowReader reader = new RootReader(allocator, rows);
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
      Data.exportArrayStream(allocator, reader, stream);
      try (Dataset written = Dataset.write()
          .allocator(allocator)
          .uri(config.lanceUri(KEY))
          .stream(stream)
          .mode(mode)
          .storageOptions(config.lanceStorageOptions())
          .execute()) {
        // landed
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("recovery audit append failed: " + e.getMessage(), e);
    }
  }

  private static Field string(String name, boolean nullable) {
    return new Field(name, nullable ? FieldType.nullable(new ArrowType.Utf8()) : FieldType.notNullable(
        new ArrowType.Utf8()), null);
  }
}
