package dev.omnigraph.cli;

import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.util.function.Function;

class GqtCasesS3Test extends AbstractGqtCasesTest {

  @Override
  protected Function<String, StorageConfig> roots() {
    return label -> S3TestServer.get().freshRoot("gqt-" + label);
  }

  @Override
  protected int threads() {
    return 4;
  }
}
