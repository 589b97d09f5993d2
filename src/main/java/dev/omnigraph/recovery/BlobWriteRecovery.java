package dev.omnigraph.recovery;

import java.util.Optional;

/**
 * The settle plan of a Blob cell write (writer kind {@value WriterKind.BlobWrite#WIRE};
 * docs/write-path.md, "Blob cell writes"). Its one effect is one pre-minted upsert of one row at
 * pin + 1, on the branch's own ref or on a first-touch ref it owns: a mutation's exact shape, so
 * whether it landed, when it rolls forward and what rolling back restores are a mutation's
 * ({@link WriteSettlePlan}); this plan adds only the check that the record has that shape.
 */
final class BlobWriteRecovery extends WriteSettlePlan {

  BlobWriteRecovery(TableEvidence evidence, SchemaContracts contracts) {
    super(evidence, contracts);
  }

  @Override
  public Optional<String> malformed(RecoverySidecar s) {
    if (s.tables().size() != 1) {
      return Optional.of("a Blob cell write records exactly one table, not " + s.tables().size());
    }
    RecoverySidecar.TableIntent t = s.tables().get(0);
    if (t.uuid() == null || t.postCommitVersion() != t.readVersion() + 1) {
      return Optional.of("its effect on " + t.tableKey() + " is not one transaction at pin + 1");
    }
    return Optional.empty();
  }
}
