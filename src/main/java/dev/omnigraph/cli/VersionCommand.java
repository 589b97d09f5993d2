package dev.omnigraph.cli;

import dev.omnigraph.Versions;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/** {@code omnigraph version}: the release and the internal schema version this binary serves. */
@Command(name = "version", description = "Print the version and the served internal schema version.")
public class VersionCommand implements Runnable {

  @Option(names = "--json", description = "Print the reference HealthOutput-style JSON.")
  boolean json;

  @Override
  public void run() {
    if (json) {
      System.out.println("{\"version\":\"" + Versions.version() + "\",\"internal_schema_version\":"
          + Versions.INTERNAL_SCHEMA_VERSION + "}");
    } else {
      for (String line : new Provider().getVersion()) {
        System.out.println(line);
      }
    }
  }

  /** Shared by {@code version} and {@code --version}. */
  public static class Provider implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "omnigraph " + Versions.version(),
        "internal schema version " + Versions.INTERNAL_SCHEMA_VERSION
      };
    }
  }
}
