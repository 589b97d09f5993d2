package dev.omnigraph.cli;

import dev.omnigraph.Versions;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Option;

/** {@code omnigraph version}: the release and the internal schema version this binary serves. */
@Command(name = "version", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph version --json", description = "Print the version and the served internal schema version.")
public class VersionCommand implements Runnable {

  @Option(names = "--json", description = "Print the reference HealthOutput-style JSON.")
  boolean json;

  @Override
  public void run() {
    if (json) {
      // The /healthz shape: version is the API version served, source_version our own build.
      System.out.println("{\"version\":\"" + Versions.API_VERSION + "\",\"internal_schema_version\":"
          + Versions.INTERNAL_SCHEMA_VERSION + ",\"source_version\":\"" + Versions.buildVersion() + "\"}");
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
        "internal schema version " + Versions.INTERNAL_SCHEMA_VERSION,
        "api version " + Versions.API_VERSION
      };
    }
  }
}
