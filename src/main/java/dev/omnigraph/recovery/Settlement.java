package dev.omnigraph.recovery;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.ManifestBatchPublisher;
import dev.omnigraph.manifest.TableIdentity;
import dev.omnigraph.api.recovery.TableClass;
import dev.omnigraph.api.recovery.TableOutcome;
import dev.omnigraph.api.recovery.Verdict;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What recovery decided for one sidecar ({@link SettleTemplate#decide}), before it acts: roll
 * forward, roll back, discard, or refuse. Immutable; reading it changes nothing, so
 * {@link Recovery#refusal} shows an operator the same decision {@code recover} would act on.
 */
sealed interface Settlement {

  /** Every table's class (empty when the commit or its rollback was already visible). */
  Map<TableKey, TableClass> classes();

  /**
   * Publish the recorded intent ({@code publish}), or only record it when its commit is visible
   * already ({@code publish} empty; {@code commitId} null when nothing was left to publish).
   */
  record RollForward(Verdict verdict, Map<TableKey, TableClass> classes, Optional<ManifestBatchPublisher.Intent> publish,
      String commitId, List<TableOutcome> tables) implements Settlement {}

  /**
   * Restore what the writer changed and publish the restored pins against {@code live} (full
   * recovery only; the write-entry heal defers it); {@code landed}: the rollback commit is visible
   * already, so only the record is left.
   */
  record RollBack(Verdict verdict, Map<TableKey, TableClass> classes, SettlePlan.Live live, boolean landed)
      implements Settlement {}

  /**
   * Nothing the manifest references moved: remove the owned first-touch refs in {@code steps} (full
   * recovery only, while there are any) and record {@code auditKind}.
   */
  record Discard(Verdict verdict, Map<TableKey, TableClass> classes, String auditKind, List<Step> steps)
      implements Settlement {}

  /**
   * Settle nothing and keep the sidecar for an operator: {@code message} is what the caller is told,
   * {@code why} what a quarantine records.
   */
  record Refuse(Map<TableKey, TableClass> classes, String message, String why) implements Settlement {}

  /** One table's part of a rollback or discard, and the audit row it leaves. */
  sealed interface Step {

    /** Where a restored table is republished: its key, identity and the pin's row count. */
    record Pin(TableKey tableKey, TableIdentity identity, long rowCount) {}

    /** Restore the table to its pin, then republish the restored version. */
    record Restore(RecoverySidecar.TableIntent table, TableClass tableClass, Pin pin) implements Step {}

    /** Our own Restore to the pin is the live head already: republish that version. */
    record Restored(RecoverySidecar.TableIntent table, TableClass tableClass, Pin pin) implements Step {}

    /** Delete the first-touch ref the sidecar owns (the manifest never referenced it). */
    record RemoveRef(RecoverySidecar.TableIntent table, TableClass tableClass) implements Step {}

    /** Delete a version-one dataset if it is exactly ours (a schema apply's new type). */
    record DropCreate(RecoverySidecar.TableIntent table, TableClass tableClass) implements Step {}

    /** Leave the table as it is. */
    record Leave(TableOutcome outcome) implements Step {}
  }
}
