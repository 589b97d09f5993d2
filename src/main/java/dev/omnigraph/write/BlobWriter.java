package dev.omnigraph.write;

import dev.omnigraph.api.BlobTagMismatch;
import dev.omnigraph.api.EntityTags;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.recovery.WriterKind;
import dev.omnigraph.schema.BlobValue;
import dev.omnigraph.table.BlobReads;
import dev.omnigraph.util.Failpoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Blob cell writer (docs/write-path.md, "Blob cell writes"): {@code PUT|DELETE
 * /graphs/{id}/blob} as one graph commit. Only a planner: it reads the row at the pin, checks
 * {@code If-Match} against the pinned cell's tag, and stages one upsert of the row with the cell
 * replaced (or cleared), so its effect has a mutation's exact shape and recovery settles it as one
 * ({@code BlobWriteRecovery}). The attempt and commit templates do the rest: gates, revalidation
 * (a moved head is {@code ReadSetChanged}: never reprepared, the caller's tag was read from a
 * head), the sidecar, first touch of a branch's ref, publish.
 */
final class BlobWriter implements PreparedWrite {

  private final BlobTarget target;
  private final Optional<BlobValue> value;
  private final Optional<String> ifMatch;

  /** @param value the new bytes; empty clears the cell */
  BlobWriter(BlobTarget target, Optional<BlobValue> value, Optional<String> ifMatch) {
    this.target = target;
    this.value = value;
    this.ifMatch = ifMatch;
  }

  @Override
  public WriterKind writerKind() {
    return new WriterKind.BlobWrite();
  }

  @Override
  public boolean repreparable() {
    return false;
  }

  @Override
  public Failpoint.WriterPhases phases() {
    return Failpoint.WriterPhases.BLOB_WRITE;
  }

  @Override
  public List<TableEffect> prepare(PrepareContext ctx) {
    BlobTarget.Resolved resolved = target.resolve(ctx.schema().catalog());
    if (value.isEmpty() && !resolved.property().type().nullable()) {
      throw new InvalidRequest("'" + target.property() + "' of " + target.type() + " is a required Blob: it cannot"
          + " be cleared; PUT new bytes instead");
    }
    TablePin pin = ctx.state().tables().get(resolved.tableKey());
    if (pin == null) {
      throw target.missing();
    }
    long rowId;
    boolean present;
    try (BlobReads.Cell cell = ctx.tables().blobs().open(pin.at(), target.id(), target.property()).orElseThrow(target::missing)) {
      rowId = cell.rowId();
      present = cell.size().isPresent();
    }
    String tag = BlobTarget.entityTag(pin, rowId);
    if (ifMatch.isPresent() && !(present && EntityTags.matches(ifMatch.get(), tag, true))) {
      throw new BlobTagMismatch(ifMatch.get(), present ? Optional.of(tag) : Optional.empty());
    }
    // The whole row is written again with the one cell replaced. Another non-null Blob cell of the
    // row is read as its description: it is materialised at the pin like an update's carried cell,
    // the new payload and the carried cells charged to one 32 MiB budget, all before the arm.
    Map<String, Object> row = new LinkedHashMap<>(ctx.tables().rowsById(pin.at(), List.of(target.id()),
        List.of()).get(0));
    row.put(target.property(), value.orElse(null));
    BlobAdmission.materialise(ctx, ExternalBlobs.NONE, Map.of(resolved.tableKey(), List.of(row)),
        BlobValue.MAX_OPERATION_BYTES);
    var schema = Effects.schemaOf(ctx.schema().catalog(), resolved.tableKey());
    TableEffect.Stager stager = (readVersion, uuid) -> ctx.tables().staging().stageUpsert(
        ctx.targetAt(pin, readVersion), schema, List.of(row), uuid);
    // The payload was bounded by the Blob rule (32 MiB per operation) before it was read, not by
    // the keyed plan's Arrow bytes, which a 32 MiB cell plus its row would pass.
    return List.of(Effects.of(ctx, pin, stager, pin.rowCount(), 1, false));
  }
}
