package dev.omnigraph.write;

import dev.omnigraph.gate.GateManager;
import dev.omnigraph.manifest.GraphManifest;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.schema.SchemaIr;
import dev.omnigraph.table.DataTables;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What every writer of a graph handle shares (the load/mutation attempt, merge, schema apply, index
 * ensure, revert, optimize): built once by the engine per handle, so a writer's constructor names
 * only what is its own, and a new writer takes the same parts instead of repeating their list.
 *
 * @param gates the root's schema, branch and table gates and writer queues
 * @param manifest the graph manifest of the handle
 * @param tables the data-table layer of the root
 * @param template the one commit protocol (arm, effect, revalidate, publish, confirm)
 * @param recovery the barrier every writer passes first (heals or refuses a pending sidecar)
 * @param accepted the schema this handle accepted (in memory; no storage read)
 * @param liveSchemaIdentity the accepted schema's identity as storage holds it now (one read), which
 *     a writer revalidates before it publishes
 */
public record WriterParts(GateManager gates, GraphManifest manifest, DataTables tables, CommitTemplate template,
    Recovery recovery, Supplier<SchemaIr> accepted, Supplier<String> liveSchemaIdentity) {

  public WriterParts {
    Objects.requireNonNull(gates, "gates");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(tables, "tables");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(recovery, "recovery");
    Objects.requireNonNull(accepted, "accepted");
    Objects.requireNonNull(liveSchemaIdentity, "liveSchemaIdentity");
  }

  /** The identity of the accepted schema in memory (what a maintenance writer records, without a read). */
  public String acceptedIdentity() {
    return accepted.get().identity();
  }
}
