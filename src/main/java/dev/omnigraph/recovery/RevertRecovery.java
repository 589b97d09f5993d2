package dev.omnigraph.recovery;

import dev.omnigraph.manifest.ManifestState;
import dev.omnigraph.recovery.Recovery.TableClass;
import java.util.Map;
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
final class RevertRecovery implements SettlePlan {

  private final WriteSettlePlan exact;

  RevertRecovery(WriteSettlePlan exact) {
    this.exact = exact;
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

  @Override
  public Classified classify(RecoverySidecar s, RecoverySidecar.TableIntent t, ManifestState state) {
    return exact.classify(s, t, state);
  }

  @Override
  public String foreignEffect(RecoverySidecar s, RecoverySidecar.TableIntent foreign) {
    return exact.foreignEffect(s, foreign);
  }

  @Override
  public boolean rollsForward(RecoverySidecar s, Map<String, Classified> classes, Live live) {
    return exact.rollsForward(s, classes, live);
  }

  @Override
  public Forward forward(RecoverySidecar s, Map<String, Classified> classes, Live live) {
    return exact.forward(s, classes, live);
  }

  @Override
  public Restorable restorable(RecoverySidecar s, RecoverySidecar.TableIntent t, TableClass c, Live live) {
    return exact.restorable(s, t, c, live);
  }
}
