package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.nio.file.Files;

class RootCopyS3Test extends AbstractRootCopyTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("copy");
  }

  @Override
  protected StorageConfig movedRoot(StorageConfig original) {
    return original.backend() == StorageConfig.Backend.LOCAL ? S3TestServer.get().freshRoot("moved/graphs/g")
        : S3TestServer.get().rootBeside(original, original.prefix() + "-moved/graphs/g");
  }

  @Override
  protected StorageConfig buildRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("built"));
  }

  @Override
  protected void copyRoot(StorageConfig from, StorageConfig to) throws Exception {
    if (from.backend() == StorageConfig.Backend.LOCAL) {
      S3TestServer.get().upload(from.localRoot(), to); // a local root synced to S3
    } else {
      super.copyRoot(from, to);
    }
  }

  @Override
  protected boolean thorough() {
    return false;
  }
}
