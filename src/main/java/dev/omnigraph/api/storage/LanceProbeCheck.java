package dev.omnigraph.api.storage;

import java.util.Objects;

/**
 * The outcome of one check.
 *
 * @param name one of {@code LanceProbe.CHECKS}
 * @param passed whether the check held
 * @param detail what was observed (on failure: what went wrong, or why the check did not run)
 * @param millis wall time the check took; 0 when it did not run
 */
public record LanceProbeCheck(String name, boolean passed, String detail, long millis) {
  public LanceProbeCheck {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(detail, "detail");
  }
}
