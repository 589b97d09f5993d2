package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import java.util.List;

/**
 * What a writer (mutation, load; later merge, schema apply) supplies to the attempt template: its
 * kind, whether an effect-free authority change may be reprepared, and the planning itself.
 * Everything else (gates, revalidation, sidecar, commit, confirm, publish) is the template's.
 */
interface PreparedWrite {

  /** A mutation or a load: recorded in the sidecar. */
  dev.omnigraph.recovery.WriterKind writerKind();

  /**
   * True for insert/upsert/append writers, which fully reprepare after unrelated pre-effect
   * authority movement; false for update/delete/overwrite, which answer {@code ReadSetChanged}.
   */
  boolean repreparable();

  /**
   * Validates the whole write against {@code ctx} and stages every effect outside the gates.
   * Throws a typed outcome ({@code KeyConflict}, {@code ResourceLimitExceeded}, input errors) to
   * abort before any sidecar. Returns no effects for a write that changes nothing.
   */
  List<TableEffect> prepare(PrepareContext ctx);

  /** The failpoints the commit template hits for this writer ({@code write.*} unless it has its own). */
  default dev.omnigraph.util.Failpoint.WriterPhases phases() {
    return dev.omnigraph.util.Failpoint.WriterPhases.WRITE;
  }

  /** Ids whose exact presence turns an effect-free Lance conflict into {@code KeyConflict}. */
  default java.util.Map<TableKey, java.util.Set<String>> strictIds() {
    return java.util.Map.of();
  }
}
