package dev.omnigraph.engine;

import dev.omnigraph.api.storage.StorageConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

class GraphEngineLocalTest extends AbstractGraphEngineTest {

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("graph"));
  }

  @Override
  protected List<String> fingerprint(StorageConfig config) throws Exception {
    Path root = config.localRoot();
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).sorted().map(p -> {
        try {
          return root.relativize(p) + " " + HexFormat.of().formatHex(
              MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }).toList();
    }
  }
}
