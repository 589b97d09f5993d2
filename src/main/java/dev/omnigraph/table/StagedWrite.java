package dev.omnigraph.table;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.vector.types.pojo.Schema;
import org.lance.FragmentMetadata;
import org.lance.operation.Delete;
import org.lance.operation.Operation;
import org.lance.operation.Overwrite;
import org.lance.operation.Update;

/**
 * One data-table transaction that {@link DataTables} has prepared but not committed: its data
 * files (and deletion files) are written, invisible to every reader, and named by nothing until
 * {@link DataTables#commit} commits them with the pre-minted {@link #uuid()} against exactly
 * {@link #readVersion()}. Dropping a staged write is always safe; its files are garbage for
 * cleanup.
 *
 * <p>Immutable, except that {@link DataTables#commit} accepts each staged write once. The Lance description of the transaction (fragments, deletion vectors, schema) is
 * held in package-private fields, so nothing outside {@code dev.omnigraph.table} touches a Lance
 * type, and a fresh Lance {@link Operation} is built for every commit attempt (an operation's
 * native schema export is released after use).
 */
public final class StagedWrite {

  /** What the transaction does to the table. */
  public enum Kind {
    /** Insertion-only {@code Update} (RewriteRows, new fragments only). */
    INSERT,
    /** {@code Update} (RewriteRows) replacing existing rows by id and inserting new ones. */
    UPSERT,
    /** {@code Delete} through deletion vectors. */
    DELETE,
    /** {@code Overwrite}: the new fragments replace the whole table. */
    OVERWRITE,
    /**
     * The strict version-one create of a new dataset: an {@code Overwrite} with zero fragments at
     * read version 0, committed only where no dataset exists (schema apply's AddType).
     */
    CREATE,
    /**
     * {@code CreateIndex}: index files already written (uncommitted), committed as one transaction
     * that adds every index of the batch; no row changes.
     */
    INDEX,
    /**
     * {@code Restore}: the table's content at {@link #restoreVersion()} of the same ref becomes a
     * new version (a graph revert); no files are written.
     */
    RESTORE
  }

  private final TableAt readAt;
  private final String uuid;
  private final Kind kind;
  private final long insertedRows;
  private final long updatedRows;
  private final long deletedRows;
  private final Map<String, String> properties;
  private final long arrowBytes;
  private final boolean empty;
  // The one mutable bit: commit() claims a staged write once (see DataTables#commit).
  private final AtomicBoolean commitClaimed = new AtomicBoolean();

  // The Lance description, package-private on purpose (see class comment).
  final List<FragmentMetadata> newFragments;
  final List<FragmentMetadata> updatedFragments;
  final List<Long> removedFragmentIds;
  final long[] preservedFieldIds;
  final Schema overwriteSchema;
  final String deletePredicate;
  final List<org.lance.index.Index> newIndices;
  private final long restoreVersion;

  private StagedWrite(Builder b) {
    this.readAt = Objects.requireNonNull(b.readAt, "readAt");
    this.uuid = Objects.requireNonNull(b.uuid, "uuid");
    this.kind = Objects.requireNonNull(b.kind, "kind");
    this.insertedRows = b.insertedRows;
    this.updatedRows = b.updatedRows;
    this.deletedRows = b.deletedRows;
    this.properties = Map.copyOf(b.properties);
    this.arrowBytes = b.arrowBytes;
    this.empty = b.empty;
    this.newFragments = List.copyOf(b.newFragments);
    this.updatedFragments = List.copyOf(b.updatedFragments);
    this.removedFragmentIds = List.copyOf(b.removedFragmentIds);
    this.preservedFieldIds = b.preservedFieldIds.clone();
    this.overwriteSchema = b.overwriteSchema;
    this.deletePredicate = b.deletePredicate;
    this.newIndices = List.copyOf(b.newIndices);
    this.restoreVersion = b.restoreVersion;
  }

  /** RESTORE: the version whose content the transaction makes current; -1 otherwise. */
  public long restoreVersion() {
    return restoreVersion;
  }

  /** INDEX: the names of the indexes the transaction adds, in build order; empty otherwise. */
  public List<String> indexNames() {
    return newIndices.stream().map(org.lance.index.Index::name).toList();
  }

  /** The table's dataset key under the graph root. */
  public String location() {
    return readAt.location();
  }

  /** The Lance branch of the table this write targets (empty: the table's main). */
  public Optional<String> nativeBranch() {
    return readAt.nativeBranch();
  }

  /** The version the write was planned against; the commit lands at {@code readVersion + 1} or not at all. */
  public long readVersion() {
    return readAt.version();
  }

  /** The dataset branch the write commits to. */
  public TableRef ref() {
    return readAt.ref();
  }

  /** The dataset branch and version the write was planned against. */
  public TableAt readAt() {
    return readAt;
  }

  /** The pre-minted transaction uuid, the identity the commit is confirmed by. */
  public String uuid() {
    return uuid;
  }

  /** What the transaction does. */
  public Kind kind() {
    return kind;
  }

  /** Rows whose id was absent at the read version (INSERT, UPSERT, OVERWRITE: every row written). */
  public long insertedRows() {
    return insertedRows;
  }

  /** UPSERT: rows whose id existed at the read version and are replaced. 0 otherwise. */
  public long updatedRows() {
    return updatedRows;
  }

  /** DELETE: rows removed. 0 otherwise (an upsert's replaced rows count as {@link #updatedRows()}). */
  public long deletedRows() {
    return deletedRows;
  }

  /** The transaction properties committed with it (e.g. {@code omnigraph.insert_absence = v1}). */
  public Map<String, String> properties() {
    return properties;
  }

  /**
   * True when there is nothing to commit (no rows to insert/upsert, or a delete that matched no
   * row). {@link DataTables#commit} rejects an empty write; the table simply keeps its version.
   */
  public boolean isEmpty() {
    return empty;
  }

  /** Exact Arrow size of the rows written ({@link RowCodec#arrowBytes}), for the 32 MiB limit. */
  public long arrowBytes() {
    return arrowBytes;
  }

  /** True for the first caller only: a staged write is committed at most once. */
  boolean claimCommit() {
    return commitClaimed.compareAndSet(false, true);
  }

  /** A fresh Lance operation for one commit attempt. */
  Operation operation() {
    if (empty) {
      throw new IllegalStateException("an empty staged write has no operation");
    }
    return switch (kind) {
      case INSERT, UPSERT -> Update.builder()
          .newFragments(newFragments)
          .updatedFragments(updatedFragments)
          .removedFragmentIds(removedFragmentIds)
          .fieldsModified(new long[0])
          .fieldsForPreservingFragBitmap(preservedFieldIds.clone())
          .updateMode(Optional.of(Update.UpdateMode.RewriteRows))
          .build();
      case DELETE -> Delete.builder()
          .updatedFragments(updatedFragments)
          .deletedFragmentIds(removedFragmentIds)
          .predicate(deletePredicate)
          .build();
      case OVERWRITE, CREATE -> Overwrite.builder().fragments(newFragments).schema(overwriteSchema).build();
      case INDEX -> org.lance.operation.CreateIndex.builder().withNewIndices(newIndices)
          .withRemovedIndices(List.of()).build();
      case RESTORE -> org.lance.operation.Restore.builder().version(restoreVersion).build();
    };
  }

  @Override
  public String toString() {
    return "StagedWrite[" + kind + " " + readAt.location() + readAt.nativeBranch().map(b -> "@" + b).orElse("")
        + " from v" + readAt.version() + ", uuid=" + uuid + (empty ? ", empty" : "")
        + ", inserted=" + insertedRows + ", updated=" + updatedRows + ", deleted=" + deletedRows
        + ", properties=" + properties + (newIndices.isEmpty() ? "" : ", indexes=" + indexNames()) + "]";
  }

  static Builder builder(TableAt readAt, String uuid, Kind kind) {
    return new Builder(readAt, uuid, kind);
  }

  /** Package-private assembly; only {@link DataTables} creates staged writes. */
  static final class Builder {
    private final TableAt readAt;
    private final String uuid;
    private final Kind kind;
    private long insertedRows;
    private long updatedRows;
    private long deletedRows;
    private Map<String, String> properties = Map.of();
    private long arrowBytes;
    private boolean empty;
    private List<FragmentMetadata> newFragments = List.of();
    private List<FragmentMetadata> updatedFragments = List.of();
    private List<Long> removedFragmentIds = List.of();
    private long[] preservedFieldIds = new long[0];
    private Schema overwriteSchema;
    private String deletePredicate = "";
    private List<org.lance.index.Index> newIndices = List.of();
    private long restoreVersion = -1;

    private Builder(TableAt readAt, String uuid, Kind kind) {
      this.readAt = readAt;
      this.uuid = uuid;
      this.kind = kind;
    }

    Builder counts(long inserted, long updated, long deleted) {
      this.insertedRows = inserted;
      this.updatedRows = updated;
      this.deletedRows = deleted;
      return this;
    }

    Builder properties(Map<String, String> properties) {
      this.properties = properties;
      return this;
    }

    Builder arrowBytes(long arrowBytes) {
      this.arrowBytes = arrowBytes;
      return this;
    }

    Builder empty() {
      this.empty = true;
      return this;
    }

    Builder fragments(List<FragmentMetadata> newFragments, List<FragmentMetadata> updatedFragments,
        List<Long> removedFragmentIds) {
      this.newFragments = newFragments;
      this.updatedFragments = updatedFragments;
      this.removedFragmentIds = removedFragmentIds;
      return this;
    }

    Builder preservedFieldIds(long[] ids) {
      this.preservedFieldIds = ids;
      return this;
    }

    Builder overwriteSchema(Schema schema) {
      this.overwriteSchema = schema;
      return this;
    }

    Builder indices(List<org.lance.index.Index> indices) {
      this.newIndices = indices;
      return this;
    }

    Builder restoreVersion(long version) {
      this.restoreVersion = version;
      return this;
    }

    Builder deletePredicate(String predicate) {
      this.deletePredicate = predicate;
      return this;
    }

    StagedWrite build() {
      return new StagedWrite(this);
    }
  }
}
