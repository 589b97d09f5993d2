package dev.omnigraph;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Build and storage-format versions this binary serves. */
public final class Versions {

  /**
   * The one {@code omnigraph:internal_schema_version} this binary reads and writes (the write path's strand
   * model: MIN_SUPPORTED == CURRENT == 6, no in-place migration).
   */
  public static final int INTERNAL_SCHEMA_VERSION = 6;

  /**
   * The reference HTTP API version this binary serves (the wire contract, reference OpenAPI 0.10).
   * {@code /healthz} reports it as {@code version}: the reference SDK compares its major.minor with its
   * own and refuses a server that differs, so our own release version cannot go there.
   */
  public static final String API_VERSION = "0.10.0";

  private static final String VERSION = load();

  private Versions() {}

  /** The release version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    return VERSION;
  }

  /** Our own build, as {@code /healthz} reports it in {@code source_version}: {@code omnigraph-jvm <release>}. */
  public static String buildVersion() {
    return "omnigraph-jvm " + VERSION;
  }

  private static String load() {
    try (InputStream in = Versions.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
