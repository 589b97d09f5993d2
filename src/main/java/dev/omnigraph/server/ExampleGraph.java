package dev.omnigraph.server;

import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.lease.LeaseDocument;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * The embedded default graph: a small example (schema and data bundled in the jar) the service
 * creates on first use of an empty local root, when {@code seedExample} is set. The only graph the
 * service ever creates.
 */
final class ExampleGraph {

  private static final Logger LOG = Logger.getLogger(ExampleGraph.class);
  static final String ACTOR = "omnigraph:example";

  private ExampleGraph() {}

  /** Whether the local root holds nothing yet but (perhaps) the writer lease. */
  static boolean emptyLocalRoot(StorageConfig config) {
    Path root = config.localRoot();
    if (!Files.exists(root)) {
      return true;
    }
    try (Stream<Path> entries = Files.list(root)) {
      // The writer lease (and its lock file) may be there before the graph is.
      return entries.noneMatch(p -> !p.getFileName().toString().startsWith(LeaseDocument.KEY));
    } catch (IOException e) {
      return false;
    }
  }

  /** Creates the example graph at the (local) root and returns its open handle. */
  static Omnigraph create(String graphId, StorageConfig config) {
    try {
      Files.createDirectories(config.localRoot());
      Omnigraph g = Omnigraph.init(config, resource("example/social.pg"), Optional.of(ACTOR));
      try (Reader data = new InputStreamReader(stream("example/social.ndjson"), StandardCharsets.UTF_8)) {
        g.load(dev.omnigraph.api.BranchName.MAIN, data, LoadMode.APPEND, Optional.of(ACTOR));
      }
      LOG.infof("graph %s: created the example graph at %s", graphId, config.rootUri());
      return g;
    } catch (IOException e) {
      throw new UncheckedIOException("could not create the example graph at " + config.rootUri(), e);
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = stream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static InputStream stream(String name) {
    InputStream in = ExampleGraph.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException("missing bundled resource " + name);
    }
    return in;
  }
}
