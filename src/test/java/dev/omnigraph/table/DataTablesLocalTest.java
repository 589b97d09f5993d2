package dev.omnigraph.table;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;

class DataTablesLocalTest extends AbstractDataTablesTest {
  @TempDir Path dir;

  @Override
  StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }

  /**
   * Moves the directory aside and puts a plain file in its place: every read and write below it
   * then fails with "not a directory", even for root (tests may run as root, where permissions do
   * not bite). Closing restores the directory.
   */
  @Override
  AutoCloseable breakStorageUnder(StorageConfig root, String keyPrefix) throws Exception {
    Path target = root.localRoot().resolve(keyPrefix);
    Path aside = target.resolveSibling(target.getFileName() + ".aside-" + UUID.randomUUID());
    boolean existed = Files.exists(target);
    if (existed) {
      Files.move(target, aside);
    }
    Files.createDirectories(target.getParent());
    Files.writeString(target, "fault injected by the test");
    return () -> {
      Files.delete(target);
      if (existed) {
        Files.move(aside, target);
      }
    };
  }
}
