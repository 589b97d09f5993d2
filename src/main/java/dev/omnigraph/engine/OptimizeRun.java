package dev.omnigraph.engine;

/**
 * One Optimize run, as reported to {@link Omnigraph#onOptimize} listeners (the service turns these
 * into its {@code omnigraph_optimize_*} metrics).
 *
 * @param branch the graph branch optimized
 * @param automatic true for a run the write path triggered, false for an explicit one
 * @param outcome {@code compacted} (a maintenance commit was published), {@code noop} (nothing was
 *     due), or the {@link ErrorKind} label of the failure ({@code recovery_required}, …)
 * @param compactedFragments fragments removed by the run's compactions
 * @param tables tables compacted
 */
public record OptimizeRun(String branch, boolean automatic, String outcome, long compactedFragments, int tables) {}
