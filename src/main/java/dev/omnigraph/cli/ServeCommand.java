package dev.omnigraph.cli;

import io.quarkus.runtime.Quarkus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph serve}: run the HTTP service until stopped. The options are applied before boot by
 * {@link BootSettings}, which parses this tree first; they are declared here for help text and
 * validation. {@code --help} never reaches {@link #run}: picocli answers it, and BootSettings kept
 * HTTP off for it.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph serve --port 9090 --store ./g", description = "Start the HTTP service (default 127.0.0.1:8080).")
public class ServeCommand implements Runnable {

  @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to bind (default 127.0.0.1).")
  String host;

  @Option(names = "--port", paramLabel = "PORT", description = "Port to bind (default 8080; 0 picks a free one).")
  Integer port;

  @Option(names = "--store", paramLabel = "URI", description = "Graph root URI served (default ./omnigraph-data).")
  String store;

  @Override
  public void run() {
    Quarkus.waitForExit();
  }
}
