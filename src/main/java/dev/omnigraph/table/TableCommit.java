package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;

/**
 * The commit of a {@link StagedWrite} and the classification of its outcome from re-read history
 * (docs/lance-write-layer.md, "Commit and confirmation"). Reached through
 * {@link DataTables#commit}, the one way a staged write lands.
 */
final class TableCommit {

  private final StorageConfig config;
  private final DataTables tables;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableCommit(StorageConfig config, LanceRoot lance, DataTables tables) {
    this.lance = lance;
    this.config = config;
    this.tables = tables;
  }

  /**
   * Commits {@code staged} with its pre-minted uuid, its read version, its properties and zero
   * Lance retries, then classifies the outcome from evidence: it re-reads the branch's head and the
   * transaction of every version after the read version (whether or not the commit call threw).
   *
   * <table>
   *   <caption>Classification</caption>
   *   <tr><th>evidence</th><th>outcome</th></tr>
   *   <tr><td>our uuid at readVersion+1, recorded read version = readVersion</td><td>LANDED</td></tr>
   *   <tr><td>our uuid at a later version (Lance rebased it over a foreign commit)</td>
   *       <td>REBASED (caller: RecoveryRequired)</td></tr>
   *   <tr><td>our uuid nowhere, head = readVersion</td><td>NOT_LANDED, effect-free</td></tr>
   *   <tr><td>our uuid nowhere, head moved</td><td>NOT_LANDED, {@code headMoved}</td></tr>
   * </table>
   *
   * <p>A staged write is committed at most once: Lance accepts the same transaction again (it
   * rebases it), so a second attempt could land the rows twice.
   *
   * @throws IllegalArgumentException when {@code staged} is empty
   * @throws IllegalStateException when {@code staged} was already passed to {@code commit}
   * @throws TableCommitUnknownException when the evidence cannot be read (the transaction may have
   *     landed: the caller must not clean up and must settle it later)
   */
  public CommitOutcome commit(StagedWrite staged) {
    if (staged.isEmpty()) {
      throw new IllegalArgumentException("nothing to commit: " + staged);
    }
    if (!staged.claimCommit()) {
      // Lance would happily rebase the same files in again under the same uuid: a duplicate.
      throw new IllegalStateException("staged write already committed once: " + staged);
    }
    if (staged.kind() == StagedWrite.Kind.CREATE) {
      return commitCreate(staged);
    }
    Exception failure = null;
    Dataset committed = null;
    try (TableHandle h =
        TableHandle.open(lance, config, staged.location(), staged.nativeBranch(), OptionalLong.of(staged.readVersion()))) {
      committed = LanceSupport.commit(
          h.table, staged.operation(), staged.readVersion(), staged.uuid(), staged.properties());
    } catch (Exception e) {
      // Deliberately not inspected: a conflict, a rebase failure and a network error all look
      // alike, and lance-java throws undeclared checked IOExceptions too, hence Exception.
      failure = e;
    }
    try {
      // A normal return at exactly readVersion + 1 is Lance's own proof: with zero retries, a
      // foreign commit after the read version would have taken readVersion + 1 (or rebased us past
      // it), so this version is ours, with our uuid. Anything else is settled by re-reading.
      CommitOutcome outcome = failure == null && committed != null && committed.version() == staged.readVersion() + 1
          ? CommitOutcome.landed(committed.version())
          : classify(staged, failure);
      if (committed != null && outcome.kind() == CommitOutcome.Kind.LANDED
          && committed.version() == outcome.version()) {
        // Confirmed from evidence to be exactly our version: the next write plans against it. On a
        // branch the committed handle is the branch's; pinned handles serve reads, stages, commits
        // and version listings of their own ref only, never a checkout from their main.
        PinnedHandles.adopt(config, staged.location(), staged.nativeBranch(), outcome.version(), committed, committed);
        committed = null;
      }
      return outcome;
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), staged.readVersion(), staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure); // the commit call's own failure, for diagnosis
      }
      throw unknown;
    } finally {
      if (committed != null) {
        committed.close();
      }
    }
  }

  /** {@link #commit} of a version-one create: settled from whether version 1 carries our uuid. */
  private CommitOutcome commitCreate(StagedWrite staged) {
    // Lance's commit at read version 0 over an existing dataset is an Overwrite of it, not a
    // refusal (tried here): the path-absence check is what makes the create strict. It is exact
    // within the single-writer-process boundary, where the caller holds the table's gate.
    if (tables.datasetExists(staged.location())) {
      return CommitOutcome.notLanded(tables.head(staged.location(), Optional.empty()), "a dataset already exists at "
          + staged.location() + "; a version-one create never replaces one");
    }
    Exception failure = null;
    try (BufferAllocator allocator = new RootAllocator();
        Dataset created = LanceSupport.commitCreate(config, staged.location(), staged.operation(), staged.uuid(),
            staged.properties(), allocator)) {
      if (created.version() == 1) {
        return CommitOutcome.landed(1);
      }
    } catch (Exception e) {
      failure = e; // not inspected: the evidence below decides
    }
    String cause = failure == null ? "the create returned normally"
        : "the create failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    try {
      if (!tables.datasetExists(staged.location())) {
        return CommitOutcome.notLanded(0, "create of " + staged.location() + " did not land; " + cause);
      }
      try (TableHandle h = TableHandle.openFresh(lance, config, staged.location(), Optional.empty(), OptionalLong.empty())) {
        Optional<TxInfo> first = DataTables.transactionAt(h, Optional.empty(), 1);
        if (first.isPresent() && first.get().uuid().equals(staged.uuid())) {
          long head = h.table.latestVersion();
          return head == 1 ? CommitOutcome.landed(1)
              : CommitOutcome.rebased(1, "our create of " + staged.location() + " is followed by versions up to "
                  + head + "; " + cause);
        }
        return CommitOutcome.notLanded(h.table.latestVersion(), "a dataset not created by transaction "
            + staged.uuid() + " exists at " + staged.location() + "; " + cause);
      }
    } catch (Exception e) {
      TableCommitUnknownException unknown = new TableCommitUnknownException(
          staged.location(), staged.nativeBranch(), 0, staged.uuid(), e);
      if (failure != null) {
        unknown.addSuppressed(failure);
      }
      throw unknown;
    }
  }

  private CommitOutcome classify(StagedWrite staged, Exception failure) {
    long readVersion = staged.readVersion();
    String cause = failure == null
        ? "the commit call returned normally"
        : "the commit call failed (" + failure.getClass().getName() + ": " + failure.getMessage() + ")";
    // Off main, a fresh open of the branch; on main, the pinned handle's version listing (the head
    // is read from storage either way, never taken from the commit call's answer).
    try (TableHandle h = staged.nativeBranch().isPresent()
        ? TableHandle.open(lance, config, staged.location(), staged.nativeBranch(), OptionalLong.empty())
        : TableHandle.open(lance, config, staged.location(), staged.nativeBranch(), OptionalLong.of(readVersion))) {
      long head = staged.nativeBranch().isPresent() ? h.table.version() : h.table.latestVersion();
      String firstForeign = null;
      List<Long> ours = new ArrayList<>();
      long oursRecordedRead = -1;
      // Every version after the read version, not just the first: the uuid must appear exactly once.
      for (long v = readVersion + 1; v <= head; v++) {
        Optional<TxInfo> tx = DataTables.transactionAt(h, staged.nativeBranch(), v);
        if (tx.isPresent() && tx.get().uuid().equals(staged.uuid())) {
          if (ours.isEmpty()) {
            oursRecordedRead = tx.get().readVersion();
          }
          ours.add(v);
        } else if (firstForeign == null) {
          firstForeign = v + " (" + tx.map(t -> t.operation() + " " + t.uuid()).orElse("no transaction") + ")";
        }
      }
      if (ours.size() > 1) {
        return CommitOutcome.rebased(ours.get(ours.size() - 1), "transaction " + staged.uuid()
            + " appears at versions " + ours + ": committed more than once; " + cause);
      }
      if (ours.size() == 1) {
        long v = ours.get(0);
        if (v == readVersion + 1 && oursRecordedRead == readVersion) {
          return CommitOutcome.landed(v);
        }
        return CommitOutcome.rebased(v, "transaction " + staged.uuid() + " planned on version "
            + readVersion + " landed at version " + v + " (recorded read version " + oursRecordedRead
            + ") after foreign version " + firstForeign + "; " + cause);
      }
      if (head == readVersion) {
        return CommitOutcome.notLanded(head, "transaction " + staged.uuid()
            + " did not land; head is still version " + head + " (effect-free); " + cause);
      }
      return CommitOutcome.notLanded(head, "transaction " + staged.uuid() + " did not land; foreign"
          + " commits moved head from " + readVersion + " to " + head + ", first " + firstForeign + "; " + cause);
    }
  }
}
