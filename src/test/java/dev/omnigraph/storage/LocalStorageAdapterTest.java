package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on a local directory. */
class LocalStorageAdapterTest extends AbstractStorageAdapterContractTest {
  @TempDir Path dir;

  @Override
  protected StorageConfig newRoot() {
    return StorageConfig.local(dir);
  }

  /**
   * A put never fails because a delete of another key under the same prefix pruned the prefix's
   * now-empty directory in the middle of the put (as on an object store, where a put and a delete
   * of different keys never interfere). Two writers each put and delete their own keys under one
   * prefix, so the prefix empties and is pruned again and again while the other puts.
   */
  @Test
  void putsUnderAPrefixSurviveConcurrentDeletesEmptyingIt() {
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    Runnable a = () -> {
      for (int i = 0; i < 400; i++) {
        store.putIfAbsent("shared/a-" + i + ".json", body);
        store.delete("shared/a-" + i + ".json");
      }
    };
    Runnable b = () -> {
      for (int i = 0; i < 400; i++) {
        store.put("shared/b-" + i + ".json", body);
        store.delete("shared/b-" + i + ".json");
      }
    };
    CompletableFuture.allOf(CompletableFuture.runAsync(a), CompletableFuture.runAsync(b)).join();
    assertThat(store.list("shared")).isEmpty();
  }
}
