package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import dev.omnigraph.manifest.TablePin;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.table.StagedWrite;
import dev.omnigraph.table.TableSchemas;
import java.util.Optional;
import java.util.UUID;
import org.apache.arrow.vector.types.pojo.Schema;

/** Builds a {@link TableEffect} the same way for every writer: staged now, or deferred on first touch. */
final class Effects {

  private Effects() {}

  /**
   * Stages on the pin's own native branch now, or, when the write's branch has not forked this
   * table yet, pre-mints the transaction identity and defers staging until the ref exists (after
   * the sidecar is armed: a ref is a durable effect, and no effect comes before the arm).
   */
  static TableEffect of(PrepareContext ctx, TablePin pin, TableEffect.Stager stager, long rowCountAfter,
      long rowsAffected, boolean bytesLimited) {
    if (ctx.ownsTarget(pin)) {
      StagedWrite staged = stager.stage(pin.version(), UUID.randomUUID().toString());
      if (bytesLimited) {
        WriteLimits.checkBytes(pin.tableKey(), staged.arrowBytes());
      }
      return new TableEffect(pin.tableKey(), pin.identity(), pin.location(), ctx.targetBranch(), pin.nativeBranch(),
          pin.version(), false, Optional.of(staged), stager, staged.uuid(), rowCountAfter,
          rowsAffected);
    }
    return new TableEffect(pin.tableKey(), pin.identity(), pin.location(), ctx.targetBranch(), pin.nativeBranch(),
        pin.version(), true, Optional.empty(), stager, UUID.randomUUID().toString(), rowCountAfter,
        rowsAffected);
  }

  /** The Arrow schema of a table key. */
  static Schema schemaOf(Catalog catalog, TableKey tableKey) {
    String name = tableKey.typeName();
    return tableKey.isNode()
        ? TableSchemas.node(catalog.node(name).orElseThrow())
        : TableSchemas.edge(catalog.edge(name).orElseThrow());
  }

  /** Whether table {@code tableKey} has a Blob column (each has its URI companion column). */
  static boolean holdsBlobs(Catalog catalog, TableKey tableKey) {
    return schemaOf(catalog, tableKey).getFields().stream()
        .anyMatch(f -> f.getName().startsWith(dev.omnigraph.schema.BlobValue.URI_COLUMN_PREFIX));
  }
}
