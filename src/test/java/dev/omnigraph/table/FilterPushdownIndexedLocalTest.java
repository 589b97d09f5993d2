package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/** The pushdown suite with a BTree index on every scalar column that covers half of the rows. */
class FilterPushdownIndexedLocalTest extends AbstractFilterPushdownTest {
  @Override
  StorageConfig newRoot() {
    try {
      return StorageConfig.local(Files.createTempDirectory("filters-indexed"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  boolean indexed() {
    return true;
  }
}
