package dev.omnigraph.recovery;

import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.table.DataTables;
import dev.omnigraph.table.TableAt;
import dev.omnigraph.table.TableRef;
import dev.omnigraph.table.TxInfo;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How a table's live Lance history compares to what a sidecar recorded for it (docs/recovery.md,
 * "Classification"): HEAD and the exact transaction (uuid and read version) at each version after
 * the pin, never a numeric HEAD alone. Reads only; shared by every writer whose effects are
 * pre-minted transactions (mutations, loads, merges, index ensures, a schema apply's rewrites).
 */
final class TableEvidence {

  private final DataTables tables;

  TableEvidence(DataTables tables) {
    this.tables = tables;
  }

  /** Classifies {@code t}: against a branch merge's pre-minted chain (protocol_v4), else one transaction. */
  TableClass classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state) {
    return s.kind() instanceof WriterKind.BranchMerge merge
        ? classifyChain(t, merge.payload().chains().getOrDefault(t.tableKey(), List.of()), state)
        : classify(t, state);
  }

  /**
   * A branch merge table (protocol_v4): the live history after the pin must be exactly a
   * contiguous prefix of the pre-minted chain — each version {@code expected + i + 1} our
   * transaction {@code i}, read at {@code expected + i} — optionally followed by our own
   * compensating Restore to the pin. Anything else (a foreign, unreadable or out-of-order
   * transaction) is foreign, and recovery fails closed instead of restoring through it. A ref-only
   * fork (an empty chain) is ours once its created ref's identity was bound at confirmation.
   */
  private TableClass classifyChain(RecoverySidecar.TableIntent t, List<RecoverySidecar.ChainStep> chain,
      ManifestState state) {
    Optional<String> nb = Optional.ofNullable(t.nativeBranch());
    Head at = head(t, state);
    if (at.decided() != null) {
      return at.decided();
    }
    long head = at.version();
    long expected = t.expectedVersion();
    if (chain.isEmpty()) {
      if (head != expected) {
        return TableClass.UNEXPECTED_MULTISTEP;
      }
      return t.firstTouch() && t.firstTouchRefIdentity() != null ? TableClass.ROLLED_PAST_EXPECTED
          : TableClass.NO_MOVEMENT;
    }
    if (head == expected) {
      return TableClass.NO_MOVEMENT;
    }
    int prefix = 0;
    for (long v = expected + 1; v <= Math.min(head, expected + chain.size()); v++) {
      RecoverySidecar.ChainStep step = chain.get((int) (v - expected - 1));
      Optional<TxInfo> tx = tables.transactionAt(TableAt.of(t.location(), nb, v));
      if (tx.isEmpty() || !tx.get().uuid().equals(step.uuid()) || tx.get().readVersion() != step.readVersion()) {
        break;
      }
      prefix++;
    }
    if (prefix == head - expected) {
      return prefix == chain.size() ? TableClass.ROLLED_PAST_EXPECTED : TableClass.PARTIAL_CHAIN;
    }
    if (prefix >= 1 && prefix < head - expected) {
      // The last step that landed, landed again (a lost commit response, see DUPLICATED): the chain
      // stopped there, so whatever follows the copies can only be our own compensation.
      String again = chain.get(prefix - 1).uuid();
      long v = expected + prefix + 1;
      while (v <= head && tables.transactionAt(TableAt.of(t.location(), nb, v)).map(tx -> tx.uuid().equals(again))
          .orElse(false)) {
        v++;
      }
      if (v > expected + prefix + 1) {
        if (v > head) {
          return TableClass.DUPLICATED;
        }
        return v == head && restoredTo(t, nb, head, expected) ? TableClass.COMPENSATED
            : TableClass.UNEXPECTED_MULTISTEP;
      }
    }
    if (prefix >= 1 && prefix == head - expected - 1 && restoredTo(t, nb, head, expected)) {
      return TableClass.COMPENSATED;
    }
    return TableClass.UNEXPECTED_MULTISTEP;
  }

  /** One pre-minted transaction at the post-commit version ({@code state} null: an orphaned branch). */
  TableClass classify(RecoverySidecar.TableIntent t, ManifestState state) {
    Optional<String> nb = Optional.ofNullable(t.nativeBranch());
    Head at = head(t, state);
    if (at.decided() != null) {
      return at.decided();
    }
    long head = at.version();
    if (head == t.expectedVersion()) {
      return TableClass.NO_MOVEMENT;
    }
    boolean ours = tables.transactionAt(TableAt.of(t.location(), nb, t.postCommitVersion()))
        .map(tx -> tx.uuid().equals(t.uuid()) && tx.readVersion() == t.readVersion()).orElse(false);
    if (head == t.postCommitVersion()) {
      return ours ? TableClass.ROLLED_PAST_EXPECTED : TableClass.UNEXPECTED_AT_P1;
    }
    if (ours) {
      // Past our own version: further copies of our transaction (DUPLICATED), possibly ended by the
      // Restore to the pin a rollback made before its publish (COMPENSATED).
      long v = t.postCommitVersion() + 1;
      while (v <= head && tables.transactionAt(TableAt.of(t.location(), nb, v)).map(tx -> tx.uuid().equals(t.uuid()))
          .orElse(false)) {
        v++;
      }
      if (v > head) {
        return TableClass.DUPLICATED;
      }
      if (v == head && restoredTo(t, nb, head, t.expectedVersion())) {
        return TableClass.COMPENSATED;
      }
    }
    return TableClass.UNEXPECTED_MULTISTEP;
  }

  /** HEAD of a table's ref, or the class that decides it before its history is read. */
  private record Head(long version, TableClass decided) {}

  /**
   * A missing or foreign first-touch ref, or HEAD behind the manifest's pin or the sidecar's, decides
   * the class at once; otherwise HEAD is read for the history walk.
   */
  private Head head(RecoverySidecar.TableIntent t, ManifestState state) {
    Optional<TableClass> ref = firstTouchRef(t);
    if (ref.isPresent()) {
      return new Head(-1, ref.get());
    }
    long head = tables.head(TableRef.of(t.location(), Optional.ofNullable(t.nativeBranch())));
    boolean behind = behindPin(t, state, head) || head < t.expectedVersion();
    return new Head(head, behind ? TableClass.INVARIANT_VIOLATION : null);
  }

  /**
   * A first-touch ref decides alone when it does not exist (nothing moved) or is another
   * incarnation than the one the sidecar bound (not ours).
   */
  private Optional<TableClass> firstTouchRef(RecoverySidecar.TableIntent t) {
    if (!t.firstTouch()) {
      return Optional.empty();
    }
    Optional<String> ref = tables.branches().identity(t.ref());
    if (ref.isEmpty()) {
      return Optional.of(TableClass.NO_MOVEMENT);
    }
    if (t.firstTouchRefIdentity() != null && !ref.get().equals(t.firstTouchRefIdentity())) {
      return Optional.of(TableClass.UNEXPECTED_MULTISTEP);
    }
    return Optional.empty();
  }

  /** HEAD behind the manifest's pin of the same dataset and ref: should be impossible. */
  private static boolean behindPin(RecoverySidecar.TableIntent t, ManifestState state, long head) {
    if (state == null || t.firstTouch()) {
      return false;
    }
    TablePin pin = state.tables().get(t.tableKey());
    return pin != null && pin.location().equals(t.location())
        && pin.nativeBranch().equals(Optional.ofNullable(t.nativeBranch())) && head < pin.version();
  }

  /** The transaction at {@code head} is a Restore to {@code expected}: our own compensation. */
  private boolean restoredTo(RecoverySidecar.TableIntent t, Optional<String> nb, long head, long expected) {
    Optional<TxInfo> last = tables.transactionAt(TableAt.of(t.location(), nb, head));
    return last.isPresent() && last.get().operation().equals("Restore")
        && last.get().restoredVersion().equals(OptionalLong.of(expected));
  }
}
