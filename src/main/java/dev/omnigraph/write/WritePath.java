package dev.omnigraph.write;

import dev.omnigraph.schema.SchemaIr;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The engine's entry to the write path: each call is one attempt template run, one graph commit. */
public final class WritePath {

  private final WriteAttempt attempt;
  private final SchemaIr schema;

  public WritePath(WriteAttempt attempt, SchemaIr schema) {
    this.attempt = attempt;
    this.schema = schema;
  }

  /**
   * Loads NDJSON into {@code branch} as one commit. The whole input is parsed and validated before
   * anything is staged; every input error names its line.
   */
  public WriteResult load(String branch, Reader ndjson, LoadMode mode, Optional<String> actor) {
    LoadBatch batch;
    try {
      batch = NdjsonReader.read(ndjson, schema.catalog(), mode);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the load input", e);
    }
    return attempt.run(branch, new LoadWriter(batch, mode, schema.catalog()), actor, Optional.empty());
  }
}
