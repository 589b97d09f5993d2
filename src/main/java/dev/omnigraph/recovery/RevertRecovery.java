package dev.omnigraph.recovery;

import java.util.Optional;

/**
 * The settle plan of a revert (writer kind {@value WriterKind.Revert#WIRE}; docs/recovery.md, "The
 * settle template"). Each effect is one pre-minted Lance {@code Restore} on the branch's own ref, read
 * at the pin and landing at pin + 1, never a first-touch ref: a mutation's exact shape. So whether
 * it landed, when the record rolls forward (from {@code effects_confirmed}, every restore exactly
 * ours, the captured authority live: publishing the recorded pins under the fixed lineage) and what
 * rolling back restores (each table to its pin) are a mutation's ({@link WriteSettlePlan}); this
 * plan adds only the check that the record has that shape.
 */
final class RevertRecovery extends WriteSettlePlan {

  RevertRecovery(TableEvidence evidence, SchemaContracts contracts) {
    super(evidence, contracts);
  }

  @Override
  public Optional<String> malformed(RecoverySidecar s) {
    for (RecoverySidecar.TableIntent t : s.tables()) {
      if (t.firstTouch() || t.uuid() == null || t.readVersion() != t.expectedVersion()
          || t.postCommitVersion() != t.readVersion() + 1) {
        return Optional.of("its effect on " + t.tableKey() + " is not one restore on the pinned ref at pin + 1");
      }
    }
    return Optional.empty();
  }
}
