package dev.omnigraph.recovery;

import dev.omnigraph.schema.SchemaIr;

/**
 * The accepted-schema contract as schema apply and its recovery use it (implemented by the engine,
 * which owns the contract files). Staging makes a schema durable under its identity without
 * accepting it; acceptance is the one write that makes it the graph's schema, after the apply's
 * commit is visible, so a crash between the two leaves a published apply whose schema recovery can
 * still accept, never an accepted schema the tables do not match (docs/recovery.md, "Schema apply
 * sidecars").
 */
public interface SchemaContracts {

  /** The identity accepted now, read from storage (one GET). */
  String liveIdentity();

  /** Makes {@code source}/{@code ir} durable under {@code ir.identity()}; idempotent. */
  void stage(String source, SchemaIr ir);

  /** Whether the schema {@code identity} is staged (or was accepted before). */
  boolean staged(String identity);

  /**
   * Removes the staged files of {@code identity} unless it was ever accepted: a rolled-back or
   * discarded apply leaves no staging behind (read-only opens look for unaccepted staged schemas).
   */
  void unstage(String identity);

  /**
   * Accepts the staged schema {@code identity}, published by the main commit at
   * {@code manifestVersion}; idempotent (an accepted identity is left as is).
   *
   * @throws IllegalStateException when it was never staged
   */
  void accept(String identity, long manifestVersion);
}
