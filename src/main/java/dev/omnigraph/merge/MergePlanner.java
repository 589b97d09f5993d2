package dev.omnigraph.merge;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.MergeConflict;
import dev.omnigraph.api.MergeOutcome;
import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.table.InsertCertificate;
import dev.omnigraph.table.TableAt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Classifies a merge table by table against three immutable snapshots — base, source and target,
 * each a manifest state whose pins name exact Lance versions — outside every gate (docs/merge.md,
 * "Per table: what reaches the target"). Decides per table whether the source changed it, whether
 * the target can adopt the source's pin, must fork a ref, or receives a row delta (three-way by id
 * when both sides changed the table).
 *
 * <p>Bounded memory (docs/merge.md, "Bounded memory"): each changed table is read through
 * {@link TableJoin}'s ordered cursors, one scanner batch per side at a time. What is kept is only: the
 * chain's chunk boundaries (from each row's measured Arrow bytes plus the managed Blob payloads its
 * chunk will materialise, which count toward the chunk's 32 MiB), the conflicts, and the validation
 * view (written rows projected to the columns validation reads, deleted ids), charged against one
 * {@value #VALIDATION_BUDGET}-byte budget shared by every table. A row above {@value
 * #MAX_CHUNK_BYTES} bytes, a chain above {@value #MAX_CHAIN} transactions, or a budget overrun is
 * {@link ResourceLimitExceeded} here, before anything is armed.
 */
public final class MergePlanner {

  /** Rows per chunk transaction. */
  public static final int MAX_CHUNK_ROWS = 8_192;
  /** Bytes per chunk transaction, and the most one row may hold. */
  public static final long MAX_CHUNK_BYTES = 32L * 1024 * 1024;
  /** Data transactions per table chain. */
  public static final int MAX_CHAIN = 1_024;
  /** The one validation budget shared by every merge candidate. */
  public static final long VALIDATION_BUDGET = 32L * 1024 * 1024;

  /** What validation needs from the join: which columns it reads, and a look at each written row. */
  public interface Validation {
    /** The columns of table {@code tableKey} the merged result's validation reads ({@code id} included). */
    List<String> projection(TableKey tableKey);

    /**
     * Each row the merge writes (constraints of one row), read column by column: the whole row as
     * the join produces it, or a streamed row that decodes only what is asked for.
     */
    void written(TableKey tableKey, Function<String, Object> column);

    /**
     * Whether table {@code tableKey} has a Blob column: its rows are copied through the ordinary
     * join, whose chunks materialise each carried cell, never as the proven route's raw Arrow
     * (a scan holds a cell's description, not its bytes).
     */
    boolean holdsBlobs(TableKey tableKey);
  }

  private final DataTables tables;
  private final Validation validation;
  private final MergeLimits limits;
  private long retained;

  /** A planner with the production limits. */
  public MergePlanner(DataTables tables, Validation validation) {
    this(tables, validation, MergeLimits.PRODUCTION);
  }

  /** A planner bounded by {@code limits} (production: {@link MergeLimits#PRODUCTION}). */
  public MergePlanner(DataTables tables, Validation validation, MergeLimits limits) {
    this.tables = tables;
    this.validation = validation;
    this.limits = limits;
  }

  /**
   * Plans merging {@code source} into {@code target} over {@code base}.
   *
   * @param targetBranch the target graph branch (decides which refs the target owns)
   * @param fastForward the target head is the merge base
   * @throws Conflict when a table's identity differs between the snapshots (a type dropped and
   *     re-created on one side): not mergeable entity by entity
   * @throws ResourceLimitExceeded for a row, a chain or the validation view past the write path's bounds
   */
  public MergePlan plan(ManifestState base, ManifestState source, ManifestState target, String targetBranch,
      boolean fastForward) {
    Optional<String> targetNative = targetBranch.equals(ManifestState.MAIN) ? Optional.empty()
        : Optional.of(targetBranch);
    TreeSet<TableKey> keys = new TreeSet<>(target.tables().keySet());
    keys.addAll(source.tables().keySet());
    List<TablePlan> plans = new ArrayList<>();
    List<MergeConflict> conflicts = new ArrayList<>();
    for (TableKey key : keys) {
      TablePin b = base.tables().get(key);
      TablePin s = source.tables().get(key);
      TablePin t = target.tables().get(key);
      if (s == null || t == null || b == null) {
        throw new Conflict("table " + key + " is not registered on every side of the merge (base, source, target);"
            + " a merge across schema changes is not supported");
      }
      if (!s.identity().equals(t.identity()) || !b.identity().equals(t.identity())) {
        throw new Conflict("table " + key + " has different identities on the two sides of the merge (base "
            + b.identity() + ", source " + s.identity() + ", target " + t.identity() + ")");
      }
      if (samePin(s, t) || samePin(s, b)) {
        continue; // the source changed nothing here that the target lacks
      }
      boolean adopt = samePin(t, b);
      boolean ownsRef = t.nativeBranch().equals(targetNative);
      TablePlan.Action action;
      if (adopt && s.nativeBranch().isEmpty() && targetNative.isPresent() && !ownsRef) {
        // Main's lineage, which every branch reads. A target that owns a ref keeps writing it, so
        // its pin must stay on that ref (else its next write would meet its own ref as drift).
        action = TablePlan.Action.POINTER;
      } else if (adopt && targetNative.isPresent() && !ownsRef && s.nativeBranch().isPresent()
          && t.nativeBranch().isPresent()) {
        // The target already reads another branch's ref, so any ref it forks is a fork of a fork:
        // forking from the source's version costs no data and is no worse than forking its own pin.
        action = TablePlan.Action.FORK;
      } else {
        // Includes a target on main's lineage adopting a branch's ref (the reference's logic tests; its
        // #624): a ref forked from the source's branch ref is a fork of a fork, and lance-core 7.0.0
        // re-stamps every index such a fork inherits with the source branch's base path
        // (lance-format/lance#7840), so the indexes built on main resolve under tree/<source>/ and
        // every full-text read and later merge of the target failed. The first-touch fork from the
        // target's own pin (main's lineage) keeps their base path; the delta is then applied on it.
        action = TablePlan.Action.APPLY;
      }
      boolean firstTouch = action == TablePlan.Action.APPLY && !ownsRef;
      // The certificate fast path is for a target that receives data and still holds the base (a
      // first-touch target forks its ref at its pin, which is the base).
      List<Integer> proof = adopt && action == TablePlan.Action.APPLY && !validation.holdsBlobs(key)
          ? proveAllNew(key, b, s) : List.of();
      MergeMemory.planned(!proof.isEmpty());
      TableDelta delta = join(key, b, s, t, proof, conflicts);
      if (action == TablePlan.Action.APPLY && delta.isEmpty()) {
        // Same rows at different versions: nothing to write. The target keeps its pin (its row
        // count already equals the source's).
        continue;
      }
      if (action == TablePlan.Action.APPLY && delta.chain().size() > limits.chain()) {
        throw new ResourceLimitExceeded("merge_chain:" + key, limits.chain(), delta.chain().size());
      }
      plans.add(new TablePlan(key, action, t, s, b, delta, firstTouch));
    }
    return new MergePlan(fastForward ? MergeOutcome.FAST_FORWARD : MergeOutcome.MERGED, plans, conflicts);
  }

  /** Chunk boundaries of one kind, closed at the row or byte bound. */
  private final class Chunker {
    private final ChunkSpec.Kind kind;
    private final List<ChunkSpec> out = new ArrayList<>();
    private int rows;
    private long bytes;

    Chunker(ChunkSpec.Kind kind) {
      this.kind = kind;
    }

    void add(long rowBytes) {
      if (rows > 0 && (rows == limits.chunkRows() || bytes + rowBytes > limits.chunkBytes())) {
        close();
      }
      rows++;
      bytes += rowBytes;
    }

    List<ChunkSpec> specs() {
      if (rows > 0) {
        close();
      }
      return out;
    }

    private void close() {
      out.add(new ChunkSpec(kind, rows, bytes));
      rows = 0;
      bytes = 0;
    }
  }

  /**
   * The certificate proof (docs/merge.md, "Certificate fast path": a merge trusts the
   * certificates only through a complete retained-history proof): the source version descends from
   * the base version with no other history — the same ref, or a ref forked from the base's ref
   * exactly at the base version — and every transaction of the interval (base, source] carries a
   * valid {@code omnigraph.insert_absence = v1} certificate ({@link InsertCertificate#violations}:
   * parent, pure insertion-only shape, full field preorder, row counts). Then the source version is
   * the base's fragments plus new ones holding exactly the inserted rows.
   *
   * @return the new fragments' ids; empty when anything is missing, cleaned or unfamiliar (the
   *     caller falls back to the ordinary ordered join)
   */
  private List<Integer> proveAllNew(TableKey key, TablePin b, TablePin s) {
    if (!key.isNode() || s.version() <= b.version() || s.version() - b.version() > limits.chain() + 2) {
      return List.of(); // only node writers certify; a longer interval is not worth proving
    }
    try {
      if (!s.nativeBranch().equals(b.nativeBranch())) {
        if (s.nativeBranch().isEmpty()) {
          return List.of();
        }
        Optional<dev.omnigraph.table.NativeBranch> ref = tables.branches().list(s.location()).stream()
            .filter(nb -> nb.name().equals(s.nativeBranch().get())).findFirst();
        if (ref.isEmpty() || !ref.get().parent().equals(b.nativeBranch())
            || ref.get().parentVersion() != b.version()) {
          return List.of();
        }
      }
      for (long v = b.version() + 1; v <= s.version(); v++) {
        if (!tables.insertCertificate().violations(s.ref().at(v)).isEmpty()) {
          return List.of();
        }
      }
      Set<Integer> added = new java.util.TreeSet<>(tables.fragmentIds(s.ref().at(s.version())));
      Set<Integer> before = tables.fragmentIds(b.ref().at(b.version()));
      if (!added.containsAll(before)) {
        return List.of(); // a base fragment is gone: not an insertion-only interval
      }
      added.removeAll(before);
      return List.copyOf(added);
    } catch (RuntimeException unreadable) {
      // Cleaned or unreadable history proves nothing; the ordinary join decides.
      return List.of();
    }
  }

  private TableDelta join(TableKey key, TablePin b, TablePin s, TablePin t, List<Integer> proof,
      List<MergeConflict> conflicts) {
    List<String> projection = validation.projection(key);
    Chunker inserts = new Chunker(ChunkSpec.Kind.STRICT_INSERT);
    Chunker updates = new Chunker(ChunkSpec.Kind.UPSERT);
    Chunker deletes = new Chunker(ChunkSpec.Kind.DELETE);
    List<Map<String, Object>> written = new ArrayList<>();
    Set<String> updatedIds = new LinkedHashSet<>();
    Set<String> deletedIds = new LinkedHashSet<>();
    long[] counts = new long[2];
    TableJoin.Visitor visitor = new TableJoin.Visitor() {
      @Override
      public void insert(Map<String, Object> row, long bytes) {
        counts[0]++;
        inserts.add(rowBytes(key, bytes + dev.omnigraph.table.StoredBlob.carriedBytes(row)));
        keep(key, row, projection, written);
      }

      @Override
      public void update(Map<String, Object> row, long bytes) {
        counts[1]++;
        updates.add(rowBytes(key, bytes + dev.omnigraph.table.StoredBlob.carriedBytes(row)));
        String id = String.valueOf(row.get("id"));
        updatedIds.add(id);
        charge(id.length() * 2L + 48);
        keep(key, row, projection, written);
      }

      @Override
      public void delete(String id) {
        long filterBytes = id.length() * 2L + 4;
        deletes.add(filterBytes);
        deletedIds.add(id);
        charge(id.length() * 2L + 48); // a retained String and its set entry, conservatively
      }

      @Override
      public void conflict(MergeConflict conflict) {
        conflicts.add(conflict);
      }
    };
    if (proof.isEmpty()) {
      TableJoin.run(tables, key, b, s, t, List.of(), validation.holdsBlobs(key), visitor);
    } else {
      // Proven rows are all inserts and stay Arrow: only the columns validation reads are decoded,
      // the chunk boundaries come from each row's Arrow bytes as scanned.
      TableJoin.runProven(tables, s, proof, rows -> {
        counts[0]++;
        inserts.add(rowBytes(key, rows.rowBytes()));
        keep(key, rows::value, projection, written);
      });
    }
    List<ChunkSpec> chain = new ArrayList<>(inserts.specs());
    chain.addAll(updates.specs());
    chain.addAll(deletes.specs());
    return new TableDelta(counts[0], counts[1], deletedIds, written, updatedIds, chain, proof);
  }

  private long rowBytes(TableKey key, long bytes) {
    if (bytes > limits.chunkBytes()) {
      throw new ResourceLimitExceeded("merge_row_bytes:" + key, limits.chunkBytes(), bytes);
    }
    return bytes;
  }

  private void keep(TableKey key, Map<String, Object> row, List<String> projection, List<Map<String, Object>> written) {
    keep(key, row::get, projection, written);
  }

  /** Validates one written row read column by column, and retains its projection, charged. */
  private void keep(TableKey key, Function<String, Object> column, List<String> projection,
      List<Map<String, Object>> written) {
    validation.written(key, column);
    // Null columns are left out: validation reads the view by column (an absent column reads as
    // null), and a compact immutable map keeps the retained view small.
    Object[] entries = new Object[projection.size() * 2];
    int n = 0;
    long bytes = 64; // the map and its entries, conservatively
    for (String c : projection) {
      Object v = column.apply(c);
      bytes += Rows.estimatedBytes(v);
      if (v != null) {
        entries[n++] = c;
        entries[n++] = v;
      }
    }
    charge(bytes);
    written.add(compact(entries, n));
  }

  private void charge(long bytes) {
    retained += bytes;
    MergeMemory.validation(retained);
    if (retained > limits.validationBudget()) {
      throw new ResourceLimitExceeded("merge_validation_bytes", limits.validationBudget(), retained);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> compact(Object[] entries, int n) {
    return switch (n) {
      case 0 -> Map.of();
      case 2 -> Map.of((String) entries[0], entries[1]);
      case 4 -> Map.of((String) entries[0], entries[1], (String) entries[2], entries[3]);
      default -> {
        Map.Entry<String, Object>[] pairs = new Map.Entry[n / 2];
        for (int i = 0; i < pairs.length; i++) {
          pairs[i] = Map.entry((String) entries[2 * i], entries[2 * i + 1]);
        }
        yield Map.ofEntries(pairs);
      }
    };
  }

  /** Same dataset version on the same ref: the same rows, without reading them. */
  static boolean samePin(TablePin a, TablePin b) {
    return a.location().equals(b.location()) && a.version() == b.version() && a.nativeBranch().equals(b.nativeBranch());
  }
}
