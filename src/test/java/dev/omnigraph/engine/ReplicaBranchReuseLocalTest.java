package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;

class ReplicaBranchReuseLocalTest extends AbstractReplicaBranchReuseTest {
  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("replica-reuse"));
  }
}
