package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Objects;

/**
 * The v9 recovery sidecar: the durable, identity-bearing intent of one write, armed before its
 * first durable effect and deleted after its publish. Everything recovery needs to decide between
 * rolling forward and rolling back is in here, bound to exact identities (stable table id and
 * incarnation, pre-minted read version and transaction uuid, native branch identity), never to a
 * mutable alias or path. Serialized as one JSON document; unknown fields are refused.
 *
 * @param formatVersion always {@link #FORMAT_VERSION}; anything else is refused loudly
 * @param writerKind the wire name of {@link #kind()}: {@code mutation}, {@code load}, {@code optimize},
 *     {@code branch_merge}, {@code schema_apply}, {@code ensure_indices}
 * @param operationId ULID; also the file name
 * @param actor the writer's actor, or null
 * @param authority the token the write was prepared against
 * @param tables one entry per table the write commits to
 * @param state {@code armed} until every effect is confirmed, then {@code effects_confirmed};
 *     {@code rolling_back} once full recovery has started to roll it back
 * @param lineage the fixed graph commit the write publishes
 * @param createdAtMicros when it was armed
 * @param protocolV4 the BranchMerge payload; null for every other writer (the payload keeps its
 *     historical name inside the v9 envelope)
 * @param protocolV7 the SchemaApply payload; null otherwise
 * @param protocolV8 the EnsureIndices payload; null otherwise
 *
 * <p>{@code writerKind} and the three payloads are the document's historical JSON shape; code reads
 * them as one {@link WriterKind} ({@link #kind()}), and builds a sidecar from one.
 */
public record RecoverySidecar(
    @JsonProperty("format_version") int formatVersion,
    @JsonProperty("writer_kind") String writerKind,
    @JsonProperty("operation_id") String operationId,
    @JsonProperty("actor") String actor,
    @JsonProperty("authority") Authority authority,
    @JsonProperty("tables") List<TableIntent> tables,
    @JsonProperty("state") State state,
    @JsonProperty("lineage") Lineage lineage,
    @JsonProperty("created_at") long createdAtMicros,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @JsonProperty("protocol_v4") MergePayload protocolV4,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @JsonProperty("protocol_v7") SchemaApplyPayload protocolV7,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    @JsonProperty("protocol_v8") EnsureIndicesPayload protocolV8) {

  public static final int FORMAT_VERSION = 9;

  /** A sidecar of the current format for {@code kind}'s writer, its payload in the field the JSON names. */
  public RecoverySidecar(WriterKind kind, String operationId, String actor, Authority authority,
      List<TableIntent> tables, State state, Lineage lineage, long createdAtMicros) {
    this(FORMAT_VERSION, kind.wire(), operationId, actor, authority, tables, state, lineage, createdAtMicros,
        kind instanceof WriterKind.BranchMerge m ? m.payload() : null,
        kind instanceof WriterKind.SchemaApply a ? a.payload() : null,
        kind instanceof WriterKind.EnsureIndices e ? e.payload() : null);
  }

  @com.fasterxml.jackson.annotation.JsonCreator
  public RecoverySidecar {
    Objects.requireNonNull(writerKind, "writer_kind");
    Objects.requireNonNull(operationId, "operation_id");
    Objects.requireNonNull(authority, "authority");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lineage, "lineage");
    tables = List.copyOf(tables);
    WriterKind.of(writerKind, protocolV4, protocolV7, protocolV8); // a known kind with exactly its payload
  }

  /** The writer that armed this sidecar, with its payload. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public WriterKind kind() {
    return WriterKind.of(writerKind, protocolV4, protocolV7, protocolV8);
  }

  /**
   * The EnsureIndices payload ({@code protocol_v8}; docs/recovery.md, "EnsureIndices sidecars").
   * The envelope's {@code tables} are the effects: per touched table one pre-minted mixed
   * {@code CreateIndex} transaction (read version = the pin, or a first-touch ref's fork point; lands at
   * read version + 1), a first-touch ref's source and, once confirmed, its created identity. The
   * payload adds what each transaction builds and, from {@code effects_confirmed} on, the complete
   * fixed table-pointer delta the commit publishes (recovery rolls forward only when it is there
   * and agrees with the effects).
   *
   * @param indexes per table key, the indexes its transaction adds
   * @param delta the confirmed pointer delta: one pin per table at its achieved version on its
   *     native branch; null while {@code armed}
   */
  public record EnsureIndicesPayload(
      @JsonProperty("indexes") java.util.Map<TableKey, List<IndexEntry>> indexes,
      // Written as an explicit null while armed: the sidecar reader requires every field.
      @JsonProperty("delta") List<PointerPin> delta) {

    public EnsureIndicesPayload {
      Objects.requireNonNull(indexes, "indexes");
      indexes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(indexes));
      delta = delta == null ? null : List.copyOf(delta);
    }

    /** This payload with the confirmed delta bound. */
    public EnsureIndicesPayload withDelta(List<PointerPin> confirmed) {
      return new EnsureIndicesPayload(indexes, confirmed);
    }
  }

  /**
   * One index an EnsureIndices transaction adds.
   *
   * @param column the indexed column
   * @param kind {@code btree}, {@code inverted} or {@code vector}
   * @param name the Lance index name
   */
  public record IndexEntry(
      @JsonProperty("column") String column,
      @JsonProperty("kind") String kind,
      @JsonProperty("name") String name) {}

  /**
   * The SchemaApply payload ({@code protocol_v7}; docs/recovery.md, "Schema apply sidecars"): which
   * accepted schema the apply replaces with which staged one, and the complete manifest delta its
   * commit publishes beside the pins of its table effects. The envelope's {@code tables} are the
   * effects: an exact Overwrite of each rewritten table (expected = read = its pin) and an exact
   * version-one create of each new type (expected = read = 0), each with its pre-minted uuid.
   *
   * @param acceptedIdentity the schema the apply was planned against (the authority's)
   * @param targetIdentity the staged schema it accepts after its publish
   * @param creates table keys of the envelope's tables that are version-one creates
   * @param registrations tables the publish registers: new types, and renamed types under their new key
   * @param pointers pins published without a table effect (a renamed type keeps its version)
   * @param tombstones dropped types the publish retires
   * @param hardDrops datasets whose earlier versions are removed after the publish
   *     ({@code allow_data_loss}): irreversible, so done only once the apply is visible
   */
  public record SchemaApplyPayload(
      @JsonProperty("accepted_identity") String acceptedIdentity,
      @JsonProperty("target_identity") String targetIdentity,
      @JsonProperty("creates") List<TableKey> creates,
      @JsonProperty("registrations") List<TableRef> registrations,
      @JsonProperty("pointers") List<PointerPin> pointers,
      @JsonProperty("tombstones") List<TableRef> tombstones,
      @JsonProperty("hard_drops") List<HardDrop> hardDrops) {

    public SchemaApplyPayload {
      Objects.requireNonNull(acceptedIdentity, "accepted_identity");
      Objects.requireNonNull(targetIdentity, "target_identity");
      creates = List.copyOf(creates);
      registrations = List.copyOf(registrations);
      pointers = List.copyOf(pointers);
      tombstones = List.copyOf(tombstones);
      hardDrops = List.copyOf(hardDrops);
    }
  }

  /** A table by identity, key and dataset location. */
  public record TableRef(
      @JsonProperty("table_key") TableKey tableKey,
      @JsonProperty("stable_table_id") long stableTableId,
      @JsonProperty("incarnation_id") long incarnationId,
      @JsonProperty("location") String location) {}

  /**
   * A hard drop: {@code whole} removes the dropped type's dataset; otherwise every version of the
   * rewritten table before {@code keepFrom} is removed.
   */
  public record HardDrop(
      @JsonProperty("table_key") TableKey tableKey,
      @JsonProperty("location") String location,
      @JsonProperty("whole") boolean whole,
      @JsonProperty("keep_from") long keepFrom) {}

  /**
   * The BranchMerge payload (docs/merge.md, "Recovery of a merge"): which source
   * commit is merged, each physical table's exact ordered transaction chain, and the pointer-only
   * pins that recovery must publish with the physical ones so the merge lands whole.
   *
   * @param sourceBranch the merged branch
   * @param sourceIdentity its native identity at capture (null for main)
   * @param mergedParent the captured source head: the commit's second parent
   * @param chains per physical table key, the pre-minted transactions in commit order (empty for a
   *     ref-only fork); transaction {@code i} reads {@code expected_version + i}
   * @param pointers pins published without a physical effect
   */
  public record MergePayload(
      @JsonProperty("source_branch") String sourceBranch,
      @JsonProperty("source_identity") String sourceIdentity,
      @JsonProperty("merged_parent") String mergedParent,
      @JsonProperty("chains") java.util.Map<TableKey, List<ChainStep>> chains,
      @JsonProperty("pointers") List<PointerPin> pointers) {

    public MergePayload {
      Objects.requireNonNull(sourceBranch, "source_branch");
      Objects.requireNonNull(mergedParent, "merged_parent");
      chains = java.util.Map.copyOf(chains);
      pointers = List.copyOf(pointers);
    }
  }

  /**
   * One pre-minted data transaction of a merge chain.
   *
   * @param kind {@code strict_insert}, {@code upsert} or {@code delete}
   * @param readVersion the version it is planned on (the previous step's, or the pin)
   * @param uuid its pre-minted Lance transaction uuid
   * @param rows the rows (or ids) it writes
   */
  public record ChainStep(
      @JsonProperty("kind") String kind,
      @JsonProperty("read_version") long readVersion,
      @JsonProperty("uuid") String uuid,
      @JsonProperty("rows") long rows) {}

  /**
   * A pin a merge publishes with no physical effect.
   *
   * @param nativeBranch the data table's Lance branch the pin names (null: its main)
   */
  public record PointerPin(
      @JsonProperty("table_key") TableKey tableKey,
      @JsonProperty("stable_table_id") long stableTableId,
      @JsonProperty("incarnation_id") long incarnationId,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("version") long version,
      @JsonProperty("row_count") long rowCount) {}

  /** Where the sidecar is progressing. */
  public enum State {
    @JsonProperty("armed") ARMED,
    @JsonProperty("effects_confirmed") EFFECTS_CONFIRMED,
    /** Full recovery decided to roll back and may already have removed owned first-touch refs. */
    @JsonProperty("rolling_back") ROLLING_BACK
  }

  /**
   * The branch-authority token: native branch identity, exact optional graph head, accepted schema.
   *
   * @param branch graph branch
   * @param branchIdentity native identity (null for main)
   * @param graphHead the exact effective head at prepare (null: none)
   * @param schemaIdentity the accepted-schema identity
   */
  public record Authority(
      @JsonProperty("branch") String branch,
      @JsonProperty("branch_identity") String branchIdentity,
      @JsonProperty("graph_head") String graphHead,
      @JsonProperty("schema_identity") String schemaIdentity) {}

  /**
   * Whether this intent is on {@code branch} or commits to any of {@code refs}: table locations on
   * one native branch each. Branches of one table share its location but never each other's
   * versions, so a pending intent on one branch's ref does not block writes to another's.
   */
  public boolean concerns(String branch, java.util.Set<dev.omnigraph.table.TableRef> refs) {
    // A schema apply is graph-global: until it is settled, no writer may plan on any branch.
    return kind().graphGlobal() || authority().branch().equals(branch) || tables().stream().anyMatch(t -> refs.contains(t.ref()));
  }

  /**
   * One table effect.
   *
   * @param tableKey {@code node:Type}
   * @param stableTableId stable id
   * @param incarnationId incarnation
   * @param location dataset key
   * @param nativeBranch the data table's Lance branch written (null: its main)
   * @param expectedVersion the manifest pin the write was prepared on (live HEAD must equal it)
   * @param readVersion the pre-minted transaction's read version
   * @param uuid the pre-minted transaction uuid
   * @param postCommitVersion the version the commit lands at ({@code readVersion + 1})
   * @param rowCount rows after the commit (for the publish)
   * @param firstTouch true when this write creates {@code nativeBranch} on the table (the ref is
   *     owned by this sidecar from before it exists)
   * @param firstTouchFrom the branch the first-touch ref forks from (null: main)
   * @param firstTouchRefIdentity the native identity of the first-touch ref this write created,
   *     bound when the effects are confirmed (null before, and for other tables)
   */
  public record TableIntent(
      @JsonProperty("table_key") TableKey tableKey,
      @JsonProperty("stable_table_id") long stableTableId,
      @JsonProperty("incarnation_id") long incarnationId,
      @JsonProperty("location") String location,
      @JsonProperty("native_branch") String nativeBranch,
      @JsonProperty("expected_version") long expectedVersion,
      @JsonProperty("read_version") long readVersion,
      @JsonProperty("uuid") String uuid,
      @JsonProperty("post_commit_version") long postCommitVersion,
      @JsonProperty("row_count") long rowCount,
      @JsonProperty("first_touch") boolean firstTouch,
      @JsonProperty("first_touch_from") String firstTouchFrom,
      @JsonProperty("first_touch_ref_identity") String firstTouchRefIdentity) {

    /** The Lance ref this intent commits to: its table location on its native branch. */
    public dev.omnigraph.table.TableRef ref() {
      return dev.omnigraph.table.TableRef.of(location, java.util.Optional.ofNullable(nativeBranch));
    }

    /** This intent with the created ref's identity bound. */

    public TableIntent withRefIdentity(String identity) {
      return new TableIntent(tableKey, stableTableId, incarnationId, location, nativeBranch, expectedVersion,
          readVersion, uuid, postCommitVersion, rowCount, firstTouch, firstTouchFrom, identity);
    }
  }

  /**
   * The pre-minted lineage: the commit the write publishes and its fixed parent.
   *
   * @param commitId ULID of the graph commit
   * @param parent the head it descends from (null at genesis)
   * @param createdAtMicros commit time
   * @param rollbackCommitId the pre-minted id of the commit a rollback publishes, so a recovery
   *     that crashes after its publish recognises its own rollback on restart
   */
  public record Lineage(
      @JsonProperty("commit_id") String commitId,
      @JsonProperty("parent") String parent,
      @JsonProperty("created_at") long createdAtMicros,
      @JsonProperty("rollback_commit_id") String rollbackCommitId) {

    public Lineage {
      java.util.Objects.requireNonNull(commitId, "commit_id");
      java.util.Objects.requireNonNull(rollbackCommitId, "rollback_commit_id");
    }
  }

  /** This sidecar with its table intents replaced (to bind confirmed identities). */
  public RecoverySidecar withTables(List<TableIntent> next) {
    return new RecoverySidecar(formatVersion, writerKind, operationId, actor, authority, next, state, lineage,
        createdAtMicros, protocolV4, protocolV7, protocolV8);
  }

  /** This sidecar with its state advanced. */
  public RecoverySidecar withState(State next) {
    return new RecoverySidecar(formatVersion, writerKind, operationId, actor, authority, tables, next, lineage,
        createdAtMicros, protocolV4, protocolV7, protocolV8);
  }

  /** This sidecar with its writer's payload replaced (an index ensure binds its confirmed delta). */
  public RecoverySidecar withKind(WriterKind next) {
    if (!next.wire().equals(writerKind)) {
      throw new IllegalArgumentException("a " + writerKind + " sidecar cannot become a " + next.wire() + " one");
    }
    return new RecoverySidecar(next, operationId, actor, authority, tables, state, lineage, createdAtMicros);
  }
}
