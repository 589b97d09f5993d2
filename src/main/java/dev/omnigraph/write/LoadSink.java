package dev.omnigraph.write;

import dev.omnigraph.api.TableKey;
import java.util.Map;

/** Where {@link NdjsonReader} puts each row it parsed: held ({@link LoadBatch}) or spilled ({@link StreamedOverwrite}). */
interface LoadSink {

  /**
   * A node row (or an edge row, through {@link #addEdge}) with its {@code id}; {@code strict}: a
   * second row of the same id is a {@link LoadInputError}, else the last one wins.
   */
  void add(TableKey tableKey, String id, Map<String, Object> row, long line, boolean strict);

  /** An edge row, with its endpoints to check and whether the input named its id. */
  void addEdge(TableKey tableKey, String id, Map<String, Object> row, long line, String fromType, String from,
      String toType, String to, boolean named, boolean strict);

  /** Rows of {@code tableKey} so far (the keyed-plan bound of append and merge). */
  int rowsIn(TableKey tableKey);

  /**
   * Where the reader may decode a {@code base64:} Blob value too long for its line into a file
   * (NdjsonReader, docs/schema-language.md "Blob"): only an overwrite, which spills its rows and has
   * no per-operation Blob cap, gives one; a keyed load keeps the line bound.
   */
  default java.util.Optional<java.nio.file.Path> blobSpillDirectory() {
    return java.util.Optional.empty();
  }
}
