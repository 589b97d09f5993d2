package dev.omnigraph.cli;

import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.util.function.Function;

class GqtCasesS3Test extends AbstractGqtCasesTest {

  @Override
  protected Function<String, StorageConfig> roots() {
    // Started here, before the cases' clock: the fork's S3Mock boots once (tens of seconds cold).
    S3TestServer server = S3TestServer.get();
    return label -> server.freshRoot("gqt-" + label);
  }

  @Override
  protected int threads() {
    return 4;
  }
}
