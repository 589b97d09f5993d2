package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;

class RootCopyS3Test extends AbstractRootCopyTest {
  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("copy");
  }

  @Override
  protected StorageConfig movedRoot(StorageConfig original) {
    return S3TestServer.get().rootBeside(original, original.prefix() + "-moved/graphs/g");
  }

  @Override
  protected StorageConfig rootWith(java.util.function.Consumer<StorageConfig> build) throws Exception {
    StorageConfig local = StorageConfig.local(java.nio.file.Files.createTempDirectory("built"));
    build.accept(local);
    StorageConfig root = newRoot();
    S3TestServer.get().upload(local.localRoot(), root);
    assertThat(Omnigraph.relocate(root, false).recordedRoots()).containsExactly(local.lanceUri(""));
    return root;
  }

  @Override
  protected boolean thorough() {
    return false;
  }
}
