package dev.omnigraph.lease;

/**
 * The check a writer makes before each step that must be taken only by the graph's one writer: in
 * the engine, before a recovery sidecar is armed (Phase A, the first durable step of every writer)
 * and before each manifest publish. Checks must be cheap (no I/O): they run on every write.
 */
@FunctionalInterface
public interface WriterFence {

  /**
   * Returns when this process may write to the graph now.
   *
   * @throws dev.omnigraph.api.LeaseLost when it may not (the writer lease was lost or expired)
   */
  void check();

  /** No fence: for the publisher of a graph being created and for tests of lower layers. */
  WriterFence NONE = () -> {};
}
