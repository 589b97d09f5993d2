package dev.omnigraph.api.storage;

import java.util.List;

/**
 * Every check the probe defines, in order. After the first failure the remaining checks are
 * reported as failed with a "not run" detail, because each builds on the state the previous one
 * left.
 *
 * @param datasetUri the Lance URI of the scratch dataset
 * @param checks one entry per name in {@code LanceProbe.CHECKS}, plus a {@code close} entry if releasing the
 *     probe's resources failed
 */
public record LanceProbeReport(String datasetUri, List<LanceProbeCheck> checks) {
  public LanceProbeReport {
    checks = List.copyOf(checks);
  }

  /** True when every check passed. */
  public boolean passed() {
    return checks.stream().allMatch(LanceProbeCheck::passed);
  }
}
