package dev.omnigraph.api;

/**
 * Told as a long engine operation (index ensure, optimize, branch merge, cleanup) moves through the
 * tables it works on, so a caller can show how far it got. Calls come on the operation's own thread,
 * in order; a listener must be quick and must not throw (it cannot change the operation's outcome,
 * which is decided by the write path alone). The service passes {@link #NONE}.
 */
@FunctionalInterface
public interface ProgressListener {

  /** Ignores every step. */
  ProgressListener NONE = (what, done, total, rows) -> { };

  /**
   * Step {@code what} (a table key) begins.
   *
   * @param done steps of this operation finished before this one
   * @param total steps the operation plans (a re-planned attempt starts again from 0)
   * @param rows rows this step reads or rewrites, or -1 when it does not know
   */
  void step(String what, long done, long total, long rows);
}
