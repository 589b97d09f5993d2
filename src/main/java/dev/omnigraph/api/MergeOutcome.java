package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonValue;

/** Reference {@code BranchMergeOutcome}: what a branch merge did to its target. */
public enum MergeOutcome {
  /** The target already contains every change of the source: nothing was written. */
  ALREADY_UP_TO_DATE("already_up_to_date"),
  /**
   * The target had no change the source lacks: it adopts the source's state in one new commit whose
   * merged parent is the source head (table pins adopted where the target can read the source's
   * versions, the source's delta replayed onto the target's own table lineage otherwise).
   */
  FAST_FORWARD("fast_forward"),
  /** Both sides changed: the three-way result landed as one new commit with two parents. */
  MERGED("merged");

  private final String wire;

  MergeOutcome(String wire) {
    this.wire = wire;
  }

  /** The wire spelling. */
  @JsonValue
  public String wire() {
    return wire;
  }
}
