package dev.omnigraph.read;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The read goldens with every traversal hop resolved from the in-memory CSR adjacency; the default
 * run resolves these small, selective expansions from the src/dst BTree instead. Same rows.
 */
class ReadQueryCsrLocalTest extends AbstractReadQueryTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("read-csr"));
  }

  @BeforeAll
  void forceCsr() {
    System.setProperty(Hops.TRAVERSAL_MODE, "csr");
  }

  @AfterAll
  void restore() {
    System.clearProperty(Hops.TRAVERSAL_MODE);
  }
}
