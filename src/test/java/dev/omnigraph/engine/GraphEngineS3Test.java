package dev.omnigraph.engine;

import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.storage.StorageAdapters;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3TestServer;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

class GraphEngineS3Test extends AbstractGraphEngineTest {

  @Override
  protected StorageConfig newRoot() {
    return S3TestServer.get().freshRoot("engine");
  }

  @Override
  protected List<String> fingerprint(StorageConfig config) throws Exception {
    try (StorageAdapter storage = StorageAdapters.open(config)) {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return storage.list("").stream()
          .map(k -> k + " " + HexFormat.of().formatHex(sha.digest(storage.read(k))))
          .toList();
    }
  }
}
