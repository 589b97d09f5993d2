package dev.omnigraph.server;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The service's {@code omnigraph.*} settings as one typed mapping (docs/deployment.md lists every
 * key). Values whose validation message names the key ({@code omnigraph.mode}, the lease durations,
 * the admission limits, {@code omnigraph.auth.allow-unauthenticated}) are read here as text and
 * checked by their owner, so a bad value fails startup with the same message as before.
 *
 * <p>Two families stay hand-parsed behind the mapping, each for a reason the mapping cannot
 * express. The bearer tokens ({@link BearerTokens}): auth fails closed on every key under
 * {@code omnigraph.auth.} that is not a setting, in both spellings, which needs the raw property
 * names (Quarkus ignores unknown keys under a mapping's prefix, and a map would accept an actor
 * {@code alice.smith} as a key); so the token family is read from the names that scan validated
 * ({@link KeyedConfig}). The read budgets ({@code omnigraph.read.*}) and compaction settings
 * ({@code omnigraph.optimize.*}) are parsed by the engine's own settings types, shared with the
 * CLI's system properties, and are read by key name from {@link Config}.
 */
@ConfigMapping(prefix = "omnigraph")
interface OmnigraphConfig {

  /** {@code omnigraph.graphs.<id>.*}: the graphs served, by id (both spellings: the environment's ids are lower case). */
  Map<String, GraphConfig> graphs();

  Storage storage();

  /** {@code omnigraph.mode}: {@code writer} or {@code read-only} (checked by {@link GraphRegistry}). */
  @WithDefault("writer")
  String mode();

  Lease lease();

  Auth auth();

  Admission admission();

  Policy policy();

  Recovery recovery();

  Drain drain();

  /** One served graph. */
  interface GraphConfig {
    /** The graph's root (a directory or {@code s3://bucket/prefix}); a graph without one is not served. */
    Optional<String> uri();

    /** Its stored queries: {@code .gq} files, comma-separated. */
    Optional<String> queries();

    /** Its own policy file (per-graph rules only). */
    @WithName("policy-file")
    Optional<String> policyFile();

    /** Its external-Blob settings. */
    Blob blob();

    /** {@code omnigraph.graphs.<id>.blob.*}. */
    interface Blob {
      /** The allowed external-Blob bases, comma-separated (docs/schema-language.md, "Blob"); none: deny. */
      Optional<String> allow();
    }
  }

  /** The single root served as graph {@code default} when no {@code omnigraph.graphs.<id>.uri} is set. */
  interface Storage {
    Optional<String> uri();

    /** Create the embedded example graph in an empty local root of graph {@code default}. */
    @WithDefault("false")
    boolean example();
  }

  /** The writer lease (docs/lease.md); text, so {@code LeaseSettings.parse} names the key of a bad value. */
  interface Lease {
    Optional<String> ttl();

    @WithName("renew-every")
    Optional<String> renewEvery();
  }

  interface Auth {
    /** A file of {@code actor=sha256hex} lines (a mounted Secret). */
    @WithName("tokens-file")
    Optional<String> tokensFile();

    /** Serve without tokens on a non-loopback address; {@link BearerTokens} refuses a value that is no boolean. */
    @WithName("allow-unauthenticated")
    @WithDefault("false")
    boolean allowUnauthenticated();
  }

  /** Per-actor admission control; text, so {@link AdmissionControl} names the key of a bad value. */
  interface Admission {
    @WithName("max-concurrent-per-actor")
    Optional<String> maxConcurrentPerActor();

    /** {@code omnigraph.admission.actors.<actor>}: an actor's own limit. */
    Map<String, String> actors();
  }

  interface Policy {
    /** The server policy: {@code graph_list} and every graph without its own. */
    Optional<String> file();

    @WithName("reload-interval")
    @WithDefault("2s")
    Duration reloadInterval();
  }

  interface Recovery {
    @WithName("reconcile-interval")
    @WithDefault("5s")
    Duration reconcileInterval();
  }

  interface Drain {
    /** How long a shutdown waits for in-flight writes. */
    @WithDefault("30s")
    Duration grace();
  }

  /**
   * The mapping of {@code config}: the one Quarkus registered, or, for a {@link Config} built by hand
   * (tests, tools) without it, one built over the same sources, so every caller reads the keys one way.
   */
  static OmnigraphConfig of(Config config) {
    SmallRyeConfig smallRye = config.unwrap(SmallRyeConfig.class);
    try {
      return smallRye.getConfigMapping(OmnigraphConfig.class);
    } catch (NoSuchElementException notRegistered) {
      // Quarkus's duration syntax (30s, 500ms), as the registered mapping reads it; plain SmallRye
      // reads only ISO-8601 (PT30S).
      return new SmallRyeConfigBuilder().withSources(sources(smallRye)).withMapping(OmnigraphConfig.class)
          .withConverter(Duration.class, 200, new io.quarkus.runtime.configuration.DurationConverter())
          .withValidateUnknown(false).build().getConfigMapping(OmnigraphConfig.class);
    }
  }

  private static java.util.List<ConfigSource> sources(SmallRyeConfig config) {
    java.util.List<ConfigSource> out = new java.util.ArrayList<>();
    config.getConfigSources().forEach(out::add);
    return out;
  }
}
