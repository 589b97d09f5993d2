package dev.omnigraph.api;

import java.io.OutputStream;

/**
 * A graph export pinned at one snapshot, as the front ends stream it: the rows are read only when
 * {@link #writeTo} runs, one JSON object per line in the NDJSON load format.
 */
public interface NdjsonExport {

  /** The selected rows at the pinned snapshot. */
  long rows();

  /**
   * Writes every selected row, one JSON object per line, flushing after every table. The stream is
   * not closed.
   *
   * @throws java.io.UncheckedIOException when {@code out} fails (a client that went away)
   */
  void writeTo(OutputStream out);
}
