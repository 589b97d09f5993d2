package dev.omnigraph.cli;

import io.quarkus.runtime.Quarkus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph serve}: run the HTTP service until stopped. The options are applied before boot by
 * {@link BootSettings}; they are declared here for help text and validation.
 */
@Command(name = "serve", description = "Start the HTTP service (default 127.0.0.1:8080).")
public class ServeCommand implements Runnable {

  @Option(names = "--host", description = "Address to bind (default 127.0.0.1).")
  String host;

  @Option(names = "--port", description = "Port to bind (default 8080; 0 picks a free one).")
  Integer port;

  @Option(names = "--store", description = "Graph root URI served (default ./omnigraph-data).")
  String store;

  @Override
  public void run() {
    Quarkus.waitForExit();
  }
}
