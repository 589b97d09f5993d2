package dev.omnigraph.recovery;

import java.util.Objects;

/**
 * Which writer armed a sidecar, with the payload only that writer records. The sidecar's JSON
 * keeps its historical shape (a {@code writer_kind} text and one optional {@code protocol_vN}
 * payload per kind, docs/recovery.md); this type is how the code reads it, so a kind and its
 * payload can never disagree.
 *
 * <p>Adding a writer: one record here (its {@link #wire()} name, and its payload if it has one),
 * one line in {@link #of}, and its settle plan in {@code Recovery.planFor}.
 */
public sealed interface WriterKind {

  /** The {@code writer_kind} text of the sidecar JSON, the recovery audit row and the CLI. */
  String wire();

  /**
   * Whether a pending sidecar of this kind blocks every branch, not just its own: a schema apply
   * changes what every branch may plan against until it is settled.
   */
  default boolean graphGlobal() {
    return false;
  }

  /** A graph mutation (insert, update, delete, upsert); its table intents are its whole record. */
  record Mutation() implements WriterKind {
    public static final String WIRE = "mutation";

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /** A bulk load; its table intents are its whole record. */
  record Load() implements WriterKind {
    public static final String WIRE = "load";

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /** An optimize (compaction) run; its table intents are its whole record. */
  record Optimize() implements WriterKind {
    public static final String WIRE = "optimize";

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /** A revert (writer kind recovery settles with {@code RevertRecovery}); its table intents are its whole record. */
  record Revert() implements WriterKind {
    public static final String WIRE = "revert";

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /**
   * A Blob cell's replacement or clearing ({@code PUT|DELETE /graphs/{id}/blob}; recovery settles it
   * with {@code BlobWriteRecovery}); its one table intent is its whole record.
   */
  record BlobWrite() implements WriterKind {
    public static final String WIRE = "blob_write";

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /** A branch merge, with its transaction chains and pointer pins ({@code protocol_v4}). */
  record BranchMerge(RecoverySidecar.MergePayload payload) implements WriterKind {
    public static final String WIRE = "branch_merge";

    public BranchMerge {
      Objects.requireNonNull(payload, "protocol_v4");
    }

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /** A schema apply, with its schema identities and manifest delta ({@code protocol_v7}). */
  record SchemaApply(RecoverySidecar.SchemaApplyPayload payload) implements WriterKind {
    public static final String WIRE = "schema_apply";

    public SchemaApply {
      Objects.requireNonNull(payload, "protocol_v7");
    }

    @Override
    public String wire() {
      return WIRE;
    }

    @Override
    public boolean graphGlobal() {
      return true;
    }
  }

  /** An index ensure, with the indexes it builds and its confirmed delta ({@code protocol_v8}). */
  record EnsureIndices(RecoverySidecar.EnsureIndicesPayload payload) implements WriterKind {
    public static final String WIRE = "ensure_indices";

    public EnsureIndices {
      Objects.requireNonNull(payload, "protocol_v8");
    }

    @Override
    public String wire() {
      return WIRE;
    }
  }

  /**
   * The kind a sidecar document names, with its payload: exactly the payload of that kind may be
   * present.
   *
   * @throws IllegalArgumentException for an unknown kind or a payload of another kind
   */
  static WriterKind of(String wire, RecoverySidecar.MergePayload protocolV4,
      RecoverySidecar.SchemaApplyPayload protocolV7, RecoverySidecar.EnsureIndicesPayload protocolV8) {
    Objects.requireNonNull(wire, "writer_kind");
    WriterKind kind = switch (wire) {
      case Mutation.WIRE -> new Mutation();
      case Load.WIRE -> new Load();
      case Optimize.WIRE -> new Optimize();
      case Revert.WIRE -> new Revert();
      case BlobWrite.WIRE -> new BlobWrite();
      case BranchMerge.WIRE -> protocolV4 == null ? null : new BranchMerge(protocolV4);
      case SchemaApply.WIRE -> protocolV7 == null ? null : new SchemaApply(protocolV7);
      case EnsureIndices.WIRE -> protocolV8 == null ? null : new EnsureIndices(protocolV8);
      default -> throw new IllegalArgumentException("unknown writer_kind " + wire);
    };
    if (kind == null) {
      throw new IllegalArgumentException("a " + wire + " sidecar carries its payload");
    }
    if ((protocolV4 != null) != kind instanceof BranchMerge) {
      throw new IllegalArgumentException("protocol_v4 is present exactly on a branch_merge sidecar");
    }
    if ((protocolV7 != null) != kind instanceof SchemaApply) {
      throw new IllegalArgumentException("protocol_v7 is present exactly on a schema_apply sidecar");
    }
    if ((protocolV8 != null) != kind instanceof EnsureIndices) {
      throw new IllegalArgumentException("protocol_v8 is present exactly on an ensure_indices sidecar");
    }
    return kind;
  }
}
