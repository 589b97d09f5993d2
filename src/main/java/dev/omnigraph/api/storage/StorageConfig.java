package dev.omnigraph.api.storage;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one description of where a graph lives and how to reach it. It feeds both the
 * {@code StorageAdapter} (through {@code StorageAdapters.open}) and Lance (through
 * {@link #lanceStorageOptions()}), so the two can never disagree about endpoint or credentials.
 *
 * <p>Lance 7.0.0's {@code createBranch} ignores per-dataset storage options on S3 and reads the
 * process environment instead, so an S3 deployment must also export {@code AWS_ENDPOINT},
 * {@code AWS_REGION}, {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY} and
 * {@code AWS_ALLOW_HTTP} (docs/storage.md). {@link #fromEnvironment} reads exactly those names, which
 * makes the environment the single source for the common case.
 *
 * @param rootUri {@code file:///abs/dir} or {@code s3://bucket[/prefix]}, canonicalised
 * @param endpoint S3 endpoint override (MinIO, S3Mock, LocalStack), empty for AWS itself
 * @param region S3 region
 * @param pathStyle address buckets as {@code endpoint/bucket} instead of {@code bucket.endpoint}
 * @param allowHttp permit a plain-HTTP endpoint
 * @param accessKeyId static credentials; empty means the SDK's default chain
 * @param secretAccessKey static credentials
 * @param sessionToken optional session token
 */
public record StorageConfig(
    String rootUri,
    Optional<String> endpoint,
    String region,
    boolean pathStyle,
    boolean allowHttp,
    Optional<String> accessKeyId,
    Optional<String> secretAccessKey,
    Optional<String> sessionToken) {

  /** The backend a root URI names. */
  public enum Backend {
    LOCAL,
    S3
  }

  static final String DEFAULT_REGION = "us-east-1";

  public StorageConfig {
    rootUri = canonicalRoot(Objects.requireNonNull(rootUri, "rootUri"));
    endpoint = endpoint.filter(s -> !s.isBlank());
    region = region == null || region.isBlank() ? DEFAULT_REGION : region;
    accessKeyId = accessKeyId.filter(s -> !s.isBlank());
    secretAccessKey = secretAccessKey.filter(s -> !s.isBlank());
    sessionToken = sessionToken.filter(s -> !s.isBlank());
    if (accessKeyId.isPresent() != secretAccessKey.isPresent()) {
      throw new IllegalArgumentException(
          "S3 credentials need both an access key id and a secret access key");
    }
  }

  /** A local-directory graph root with no S3 settings. */
  public static StorageConfig local(Path dir) {
    return new StorageConfig(
        dir.toAbsolutePath().normalize().toUri().toString(),
        Optional.empty(),
        DEFAULT_REGION,
        true,
        false,
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  /** Reads S3 settings from the process environment (the variables Lance also reads). */
  public static StorageConfig fromEnvironment(String rootUri) {
    return fromEnvironment(rootUri, System.getenv());
  }

  /**
   * Reads S3 settings from {@code env}: {@code AWS_ENDPOINT} (or {@code AWS_ENDPOINT_URL}),
   * {@code AWS_REGION} (or {@code AWS_DEFAULT_REGION}), {@code AWS_ACCESS_KEY_ID},
   * {@code AWS_SECRET_ACCESS_KEY}, {@code AWS_SESSION_TOKEN}, {@code AWS_ALLOW_HTTP}, and
   * {@code AWS_VIRTUAL_HOSTED_STYLE_REQUEST} (path style is the default whenever an endpoint is set,
   * as MinIO and S3Mock need).
   */
  public static StorageConfig fromEnvironment(String rootUri, Map<String, String> env) {
    Optional<String> endpoint = first(env, "AWS_ENDPOINT", "AWS_ENDPOINT_URL");
    String region = first(env, "AWS_REGION", "AWS_DEFAULT_REGION").orElse(DEFAULT_REGION);
    boolean virtualHosted =
        first(env, "AWS_VIRTUAL_HOSTED_STYLE_REQUEST").map(StorageConfig::truthy).orElse(endpoint.isEmpty());
    boolean allowHttp = first(env, "AWS_ALLOW_HTTP").map(StorageConfig::truthy).orElse(false);
    return new StorageConfig(
        rootUri,
        endpoint,
        region,
        !virtualHosted,
        allowHttp,
        first(env, "AWS_ACCESS_KEY_ID"),
        first(env, "AWS_SECRET_ACCESS_KEY"),
        first(env, "AWS_SESSION_TOKEN"));
  }

  /** Which backend {@link #rootUri()} names. */
  public Backend backend() {
    return rootUri.startsWith("s3://") ? Backend.S3 : Backend.LOCAL;
  }

  /** The local root directory; only for {@link Backend#LOCAL}. */
  public Path localRoot() {
    if (backend() != Backend.LOCAL) {
      throw new IllegalStateException("not a local root: " + rootUri);
    }
    return Path.of(URI.create(rootUri));
  }

  /** The bucket of an S3 root. */
  public String bucket() {
    requireS3();
    String rest = rootUri.substring("s3://".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  /** The key prefix of an S3 root, without leading or trailing slash ("" for a bucket root). */
  public String prefix() {
    requireS3();
    String rest = rootUri.substring("s3://".length());
    int slash = rest.indexOf('/');
    return slash < 0 ? "" : rest.substring(slash + 1);
  }

  /** The URI Lance opens for {@code key} under this root (a local path or an {@code s3://} URI). */
  public String lanceUri(String key) {
    String k = key.startsWith("/") ? key.substring(1) : key;
    if (backend() == Backend.LOCAL) {
      return k.isEmpty() ? localRoot().toString() : localRoot().resolve(k).toString();
    }
    return k.isEmpty() ? rootUri : rootUri + "/" + k;
  }

  /**
   * Lance/object_store storage options equivalent to this configuration. Empty for a local root.
   */
  public Map<String, String> lanceStorageOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    if (backend() != Backend.S3) {
      return options;
    }
    options.put("aws_region", region);
    endpoint.ifPresent(e -> options.put("aws_endpoint", e));
    options.put("allow_http", Boolean.toString(allowHttp));
    options.put("aws_virtual_hosted_style_request", Boolean.toString(!pathStyle));
    accessKeyId.ifPresent(v -> options.put("aws_access_key_id", v));
    secretAccessKey.ifPresent(v -> options.put("aws_secret_access_key", v));
    sessionToken.ifPresent(v -> options.put("aws_session_token", v));
    return options;
  }

  /** A copy pointing at another root with the same connection settings. */
  public StorageConfig withRoot(String otherRoot) {
    return new StorageConfig(
        otherRoot, endpoint, region, pathStyle, allowHttp, accessKeyId, secretAccessKey, sessionToken);
  }

  @Override
  public String toString() {
    // Never print the secret or the session token.
    return "StorageConfig[rootUri=" + rootUri
        + ", endpoint=" + endpoint.orElse("<aws>")
        + ", region=" + region
        + ", pathStyle=" + pathStyle
        + ", allowHttp=" + allowHttp
        + ", accessKeyId=" + accessKeyId.orElse("<default chain>")
        + ", secretAccessKey=" + (secretAccessKey.isPresent() ? "<redacted>" : "<none>")
        + "]";
  }

  /**
   * Canonical spelling of a root: {@code s3://bucket/prefix} without trailing slash, or an absolute
   * normalised {@code file:} URI for anything else (a plain path is taken as local).
   */
  static String canonicalRoot(String uri) {
    String trimmed = uri.trim();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("empty graph root URI");
    }
    String lower = trimmed.toLowerCase(Locale.ROOT);
    if (lower.startsWith("s3://") || lower.startsWith("s3a://")) {
      String rest = trimmed.substring(trimmed.indexOf("://") + 3);
      while (rest.endsWith("/")) {
        rest = rest.substring(0, rest.length() - 1);
      }
      while (rest.contains("//")) {
        rest = rest.replace("//", "/");
      }
      if (rest.isEmpty() || rest.startsWith("/")) {
        throw new IllegalArgumentException("S3 root has no bucket: " + uri);
      }
      return "s3://" + rest;
    }
    if (lower.contains("://") && !lower.startsWith("file:")) {
      throw new IllegalArgumentException(
          "unsupported graph root scheme (use a local path, file:// or s3://): " + uri);
    }
    Path path = lower.startsWith("file:") ? Path.of(URI.create(trimmed)) : Path.of(trimmed);
    String canonical = path.toAbsolutePath().normalize().toUri().toString();
    // Path.toUri adds a trailing slash for existing directories only; make it independent of state.
    return canonical.endsWith("/") && canonical.length() > "file:///".length()
        ? canonical.substring(0, canonical.length() - 1)
        : canonical;
  }

  private void requireS3() {
    if (backend() != Backend.S3) {
      throw new IllegalStateException("not an S3 root: " + rootUri);
    }
  }

  private static Optional<String> first(Map<String, String> env, String... names) {
    for (String name : names) {
      String v = env.get(name);
      if (v != null && !v.isBlank()) {
        return Optional.of(v.trim());
      }
    }
    return Optional.empty();
  }

  private static boolean truthy(String v) {
    String s = v.trim().toLowerCase(Locale.ROOT);
    return s.equals("1") || s.equals("true") || s.equals("yes") || s.equals("on");
  }
}
