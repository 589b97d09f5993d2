package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageException;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.storage.StorageException.Kind;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@link StorageAdapter} over one S3 bucket and key prefix, through the AWS SDK v2 {@link S3Client}.
 *
 * <p>What S3 guarantees and this adapter relies on: a {@code PutObject} is atomic per object (readers
 * see the old or the new body in full, never a mix) and, since December 2020, strongly consistent
 * for read-after-write, overwrite, delete and listing. A {@code PutObject} with
 * {@code If-None-Match: *} is a compare-and-swap on the key's absence: of concurrent creators exactly
 * one gets 200, the others 412 (or a 409 while the winner is still in flight). Nothing spans more
 * than one object: {@link #deletePrefix} is a list followed by batched deletes and may stop part way,
 * and a listing is a paged snapshot that a concurrent writer can change between pages.
 *
 * <p>Keys map to {@code <prefix>/<key>} in the bucket. S3 has no directories, so a "prefix" here is
 * always the directory {@code <prefix>/<key>/}: {@code list("a")} never matches {@code ab/x}, and an
 * object named exactly {@code a} is not under the directory {@code a}. Temp-shaped names are the
 * local backend's staging files; S3 never creates them, but residue copied or synced from a local
 * root is filtered and refused exactly as locally ({@link Keys}).
 *
 * <p>Two clients share one HTTP client: the ordinary one keeps the SDK's standard retries (every call
 * on it is idempotent), the other has retries disabled and serves only the conditional writes
 * ({@link #putIfAbsent}, {@link #putIfMatch}, {@link #deleteIfMatch}).
 */
final class S3StorageAdapter implements StorageAdapter {

  /** The most keys one {@code DeleteObjects} request may name, and S3's largest listing page. */
  static final int MAX_PAGE = 1000;

  private final String rootUri;
  private final String bucket;
  /** {@code "<prefix>/"}, or {@code ""} for a bucket root. */
  private final String base;
  private final SdkHttpClient http;
  private final AwsCredentialsProvider credentials;
  private final boolean ownsCredentials;
  private final S3Client s3;
  private final S3Client s3NoRetry;
  /** Keys per listing page and per {@code DeleteObjects} batch. */
  private final int pageSize;
  /** This store in a client's terms, for the message of a failure ({@link StorageException#store()}). */
  private final String store;

  S3StorageAdapter(StorageConfig config) {
    this(config, MAX_PAGE);
  }

  /** With a smaller page, so tests can cross page and batch boundaries with a few objects. */
  S3StorageAdapter(StorageConfig config, int pageSize) {
    if (pageSize < 1 || pageSize > MAX_PAGE) {
      throw new IllegalArgumentException("page size must be 1.." + MAX_PAGE + ": " + pageSize);
    }
    this.pageSize = pageSize;
    this.rootUri = config.rootUri();
    this.bucket = config.bucket();
    this.base = config.prefix().isEmpty() ? "" : config.prefix() + "/";
    Optional<URI> endpoint = config.endpoint().map(S3StorageAdapter::endpointUri);
    // Scheme, host and port only: whatever else an endpoint URL carries stays out of client messages.
    this.store = endpoint.map(e -> "endpoint " + e.getScheme() + "://" + e.getHost()
            + (e.getPort() == -1 ? "" : ":" + e.getPort()) + ", ")
        .orElse("AWS S3 in " + config.region() + ", ") + "graph root " + rootUri;
    if (endpoint.isPresent()
        && "http".equals(endpoint.get().getScheme().toLowerCase(Locale.ROOT))
        && !config.allowHttp()) {
      // Lance (object_store) refuses a plain-HTTP endpoint without allow_http; refusing here too keeps
      // the adapter from working against a root Lance cannot open.
      throw new StorageException(Kind.CONFIGURATION, "open", rootUri,
          "plain-HTTP endpoint " + endpoint.get() + " needs AWS_ALLOW_HTTP=true");
    }
    if (config.accessKeyId().isPresent()) {
      AwsCredentials c = config.sessionToken().isPresent()
          ? AwsSessionCredentials.create(config.accessKeyId().get(), config.secretAccessKey().get(),
              config.sessionToken().get())
          : AwsBasicCredentials.create(config.accessKeyId().get(), config.secretAccessKey().get());
      this.credentials = StaticCredentialsProvider.create(c);
      this.ownsCredentials = false;
    } else {
      this.credentials = DefaultCredentialsProvider.builder().build();
      this.ownsCredentials = true;
      requireCredentials(credentials, rootUri, store);
    }
    this.http = UrlConnectionHttpClient.builder()
        .connectionTimeout(Duration.ofSeconds(10))
        .socketTimeout(Duration.ofSeconds(60))
        .build();
    S3Client plain = null;
    try {
      plain = builder(config, endpoint).build();
      // A retried conditional put whose first attempt landed but whose answer was lost would be
      // told 412 by its own object: the caller would believe it lost a race it won. So the
      // conditional put gets exactly one attempt, and a lost answer surfaces as TRANSIENT/UNKNOWN
      // for the caller to settle by reading the key.
      this.s3NoRetry = builder(config, endpoint)
          .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
          .build();
    } catch (RuntimeException e) {
      if (plain != null) {
        plain.close();
      }
      http.close();
      throw S3Errors.classify(store, "open", rootUri, e);
    }
    this.s3 = plain;
  }

  /**
   * Where the default chain finds no credentials, say which variables to set before anything else
   * runs: otherwise the first request fails inside Lance with its chain's warnings and a
   * "please file a bug report", and the SDK's own message lists every provider it tried. Resolving
   * here costs one chain walk per adapter, which the SDK caches for the clients built from it.
   */
  static void requireCredentials(AwsCredentialsProvider chain, String rootUri, String store) {
    try {
      chain.resolveCredentials();
    } catch (software.amazon.awssdk.core.exception.SdkClientException e) {
      if (chain instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception ignored) {
          // closing a provider that found nothing releases nothing worth reporting
        }
      }
      throw new StorageException(Kind.CONFIGURATION, "open", rootUri, "no AWS credentials found", e, store,
          NO_CREDENTIALS);
    }
  }

  /** What to set when the default chain finds no credentials. */
  static final String NO_CREDENTIALS = "no AWS credentials found; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"
      + " (plus AWS_SESSION_TOKEN for temporary credentials), or AWS_PROFILE naming a profile in ~/.aws/credentials;"
      + " on EC2, ECS or EKS an instance, task or pod role (AWS_WEB_IDENTITY_TOKEN_FILE) provides them";

  private S3ClientBuilder builder(StorageConfig config, Optional<URI> endpoint) {
    S3ClientBuilder b = S3Client.builder()
        .httpClient(http)
        .region(Region.of(config.region()))
        .credentialsProvider(credentials)
        .forcePathStyle(config.pathStyle())
        // The SDK's default (since 2.30) adds CRC trailers and checksum headers to every upload;
        // MinIO, S3Mock and other S3-compatible stores do not all accept them. Only operations S3
        // itself requires a checksum for (DeleteObjects) get one.
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    endpoint.ifPresent(b::endpointOverride);
    return b;
  }

  private static URI endpointUri(String endpoint) {
    URI uri;
    try {
      uri = URI.create(endpoint.trim());
    } catch (IllegalArgumentException e) {
      throw new StorageException(Kind.CONFIGURATION, "open", endpoint, "S3 endpoint is not a URL", e);
    }
    if (uri.getScheme() == null || uri.getHost() == null) {
      throw new StorageException(Kind.CONFIGURATION, "open", endpoint,
          "S3 endpoint must be an absolute http(s) URL");
    }
    return uri;
  }

  @Override
  public String rootUri() {
    return rootUri;
  }

  @Override
  public void put(String key, byte[] data) {
    String k = Keys.object("put", key);
    try {
      s3.putObject(r -> r.bucket(bucket).key(base + k), RequestBody.fromBytes(data));
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "put", key, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>One {@code PutObject} with {@code If-None-Match: *} on the non-retrying client: a retry after
   * a lost response could meet our own landed object and report 412 for a write that won. A 409
   * {@code ConditionalRequestConflict} (another conditional write in flight) is
   * {@link Kind#TRANSIENT}: ours did not land and the other may still fail, so the caller's retry
   * decides between success and {@link Kind#PRECONDITION}.
   */
  @Override
  public String putIfAbsent(String key, byte[] data) {
    String k = Keys.object("putIfAbsent", key);
    software.amazon.awssdk.services.s3.model.PutObjectResponse response;
    try {
      response = s3NoRetry.putObject(
          r -> r.bucket(bucket).key(base + k).ifNoneMatch("*"), RequestBody.fromBytes(data));
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "putIfAbsent", key, e);
    }
    return landedEtag("putIfAbsent", key, response);
  }

  @Override
  public byte[] read(String key) {
    String k = Keys.object("read", key);
    try {
      return s3.getObjectAsBytes(r -> r.bucket(bucket).key(base + k)).asByteArrayUnsafe();
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "read", key, e);
    }
  }

  /**
   * The length of object {@code objectKey} of this adapter's bucket, by one HEAD: an external Blob's
   * size probe ({@link ExternalSources}). The key is the URI's, not one of this root's: no root
   * prefix, no key rules.
   */
  long externalSize(String objectKey) {
    try {
      return s3.headObject(r -> r.bucket(bucket).key(objectKey)).contentLength();
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "head", objectKey, e);
    }
  }

  /** The bytes of object {@code objectKey} of this adapter's bucket: the copy that materialises an external Blob. */
  byte[] externalRead(String objectKey) {
    try {
      return s3.getObjectAsBytes(r -> r.bucket(bucket).key(objectKey)).asByteArrayUnsafe();
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "read", objectKey, e);
    }
  }

  @Override
  public Optional<String> readTextIfExists(String key) {
    String k = Keys.object("readTextIfExists", key);
    byte[] body;
    try {
      // One GET and nothing else: a HEAD first would open the very race this method exists to close.
      body = s3.getObjectAsBytes(r -> r.bucket(bucket).key(base + k)).asByteArrayUnsafe();
    } catch (RuntimeException e) {
      StorageException failure = S3Errors.classify(store, "readTextIfExists", key, e);
      // Only the object's own 404 is absence; NoSuchBucket is CONFIGURATION and stays loud.
      if (failure.kind() == Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw failure;
    }
    return Optional.of(new String(body, StandardCharsets.UTF_8));
  }

  @Override
  public Optional<Versioned> readVersionedIfExists(String key) {
    String k = Keys.object("readVersioned", key);
    software.amazon.awssdk.core.ResponseBytes<software.amazon.awssdk.services.s3.model.GetObjectResponse> got;
    try {
      got = s3.getObjectAsBytes(r -> r.bucket(bucket).key(base + k));
    } catch (RuntimeException e) {
      StorageException failure = S3Errors.classify(store, "readVersioned", key, e);
      if (failure.kind() == Kind.NOT_FOUND) {
        return Optional.empty();
      }
      throw failure;
    }
    String etag = got.response().eTag();
    if (etag == null || etag.isEmpty()) {
      // Without an ETag there is nothing to make a conditional replace on; never invent one.
      throw new StorageException(Kind.PERMANENT, "readVersioned", key,
          "the store answered GetObject without an ETag, so conditional replace cannot work here", null, store,
          "the store sent no ETag");
    }
    return Optional.of(new Versioned(got.asByteArrayUnsafe(), etag));
  }

  /**
   * {@inheritDoc}
   *
   * <p>One {@code PutObject} with {@code If-Match: <ETag>} on the non-retrying client (see
   * {@link #putIfAbsent} for why). S3 answers 412 when the ETag differs and 404 {@code NoSuchKey} when
   * the object is gone: both mean the token no longer names the object, so both are
   * {@link Kind#PRECONDITION}. A 409 {@code ConditionalRequestConflict} (a concurrent write in flight)
   * stays {@link Kind#TRANSIENT}: ours did not land, and the caller re-reads to decide.
   */
  @Override
  public String putIfMatch(String key, byte[] data, String versionToken) {
    String k = Keys.object("putIfMatch", key);
    java.util.Objects.requireNonNull(versionToken, "versionToken");
    software.amazon.awssdk.services.s3.model.PutObjectResponse response;
    try {
      response = s3NoRetry.putObject(r -> r.bucket(bucket).key(base + k).ifMatch(versionToken),
          RequestBody.fromBytes(data));
    } catch (RuntimeException e) {
      throw conditionalFailure("putIfMatch", key, e);
    }
    return landedEtag("putIfMatch", key, response);
  }

  /**
   * The ETag a successful conditional put answered with. A store that answers without one leaves the
   * new version unnamed; reading it back could name someone else's later version, so that is
   * {@link Kind#UNKNOWN}: the write landed, and the caller settles by reading and comparing content.
   */
  private String landedEtag(String operation, String key,
      software.amazon.awssdk.services.s3.model.PutObjectResponse response) {
    String etag = response.eTag();
    if (etag == null || etag.isEmpty()) {
      throw new StorageException(Kind.UNKNOWN, operation, key,
          "the write landed but the store answered without an ETag", null, store, "the store sent no ETag");
    }
    return etag;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One {@code DeleteObject} with {@code If-Match: <ETag>} on the non-retrying client: a retried
   * delete that had landed would be told 404 and report a loss for a delete that won. 412 and the
   * object's 404 are {@link Kind#PRECONDITION}, as for {@link #putIfMatch}.
   */
  @Override
  public void deleteIfMatch(String key, String versionToken) {
    String k = Keys.object("deleteIfMatch", key);
    java.util.Objects.requireNonNull(versionToken, "versionToken");
    try {
      s3NoRetry.deleteObject(r -> r.bucket(bucket).key(base + k).ifMatch(versionToken));
    } catch (RuntimeException e) {
      throw conditionalFailure("deleteIfMatch", key, e);
    }
  }

  /** The object's own 404 under {@code If-Match} means the token names nothing any more: a lost race. */
  private StorageException conditionalFailure(String operation, String key, RuntimeException e) {
    StorageException failure = S3Errors.classify(store, operation, key, e);
    if (failure.kind() == Kind.NOT_FOUND) {
      return new StorageException(Kind.PRECONDITION, operation, key, "no object (the token names nothing)", e,
          store, null);
    }
    return failure;
  }

  @Override
  public List<String> list(String prefix) {
    String p = Keys.prefix("list", prefix);
    List<String> keys = new ArrayList<>();
    try {
      scan(directory(p), pageSize, relative -> {
        if (Keys.addressable(relative)) {
          keys.add(relative);
        }
        return true;
      });
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "list", p, e);
    }
    // S3 lists in UTF-8 byte order; the contract is String order, which differs above U+FFFF.
    keys.sort(Comparator.naturalOrder());
    return keys;
  }

  @Override
  public List<Child> children(String prefix) {
    String p = Keys.prefix("children", prefix);
    String dir = directory(p);
    List<Child> out = new ArrayList<>();
    try {
      String token = null;
      do {
        ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(bucket).prefix(dir).delimiter("/")
            .maxKeys(pageSize);
        if (token != null) {
          req.continuationToken(token);
        }
        ListObjectsV2Response page = s3.listObjectsV2(req.build());
        for (software.amazon.awssdk.services.s3.model.CommonPrefix cp : page.commonPrefixes()) {
          String name = cp.prefix().substring(dir.length(), cp.prefix().length() - 1);
          if (Keys.addressable(p.isEmpty() ? name : p + "/" + name) && !name.contains("/")) {
            out.add(new Child(name, true, Optional.empty()));
          }
        }
        for (S3Object object : page.contents()) {
          String name = object.key().substring(dir.length());
          if (Keys.addressable(p.isEmpty() ? name : p + "/" + name) && !name.contains("/")) {
            out.add(new Child(name, false, Optional.ofNullable(object.lastModified())));
          }
        }
        token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      } while (token != null);
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "children", p, e);
    }
    out.sort(Comparator.comparing(Child::name));
    return out;
  }

  @Override
  public List<Listed> listDetailed(String prefix) {
    String p = Keys.prefix("listDetailed", prefix);
    List<Listed> out = new ArrayList<>();
    try {
      scanObjects(directory(p), pageSize, object -> {
        String relative = object.key().substring(base.length());
        if (Keys.addressable(relative)) {
          out.add(new Listed(relative, object.lastModified()));
        }
        return true;
      });
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "listDetailed", p, e);
    }
    out.sort(Comparator.comparing(Listed::key));
    return out;
  }

  @Override
  public void delete(String key) {
    String k = Keys.object("delete", key);
    try {
      s3.deleteObject(r -> r.bucket(bucket).key(base + k));
    } catch (RuntimeException e) {
      StorageException failure = S3Errors.classify(store, "delete", key, e);
      // S3 answers 204 for an absent key; a store that answers the object's 404 means the same.
      if (failure.kind() != Kind.NOT_FOUND) {
        throw failure;
      }
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    String p = Keys.prefix("deletePrefix", prefix);
    List<String> all = new ArrayList<>();
    try {
      // Collect first, delete after: deleting while paging would rely on how the store encodes its
      // continuation token (an offset-based one would skip keys).
      scan(directory(p), pageSize, relative -> all.add(base + relative));
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "deletePrefix", p, e);
    }
    for (int from = 0; from < all.size(); from += pageSize) {
      List<ObjectIdentifier> batch = all.subList(from, Math.min(all.size(), from + pageSize))
          .stream()
          .map(full -> ObjectIdentifier.builder().key(full).build())
          .toList();
      DeleteObjectsResponse response;
      try {
        response = s3.deleteObjects(r -> r.bucket(bucket)
            .delete(Delete.builder().objects(batch).quiet(true).build()));
      } catch (RuntimeException e) {
        throw S3Errors.classify(store, "deletePrefix", p, e);
      }
      failOnErrors(p, response);
    }
  }

  /** A 200 answer to DeleteObjects still reports per-key failures; any is a failure of the whole. */
  private void failOnErrors(String prefix, DeleteObjectsResponse response) {
    if (!response.hasErrors() || response.errors().isEmpty()) {
      return;
    }
    List<S3Error> errors = response.errors().stream()
        .filter(err -> S3Errors.kindOfCode(err.code()) != Kind.NOT_FOUND)
        .toList();
    if (errors.isEmpty()) {
      return;
    }
    S3Error first = errors.get(0);
    throw new StorageException(S3Errors.kindOfCode(first.code()), "deletePrefix", prefix,
        errors.size() + " key(s) not deleted; first " + first.key() + ": code " + first.code());
  }

  @Override
  public boolean exists(String key) {
    String k = Keys.object("exists", key);
    try {
      s3.headObject(r -> r.bucket(bucket).key(base + k));
      return true;
    } catch (RuntimeException e) {
      StorageException failure = S3Errors.classify(store, "exists", key, e);
      // A HEAD 404 has no body, so a missing bucket looks like a missing object here; the listing
      // below tells them apart (NoSuchBucket). 403 and everything else stay loud.
      if (failure.kind() != Kind.NOT_FOUND) {
        throw failure;
      }
    }
    boolean[] found = {false};
    try {
      // Only a visible object makes a directory exist; pages of nothing but residue are skipped.
      scan(base + k + "/", 1, relative -> {
        found[0] = Keys.addressable(relative);
        return !found[0];
      });
    } catch (RuntimeException e) {
      throw S3Errors.classify(store, "exists", key, e);
    }
    return found[0];
  }

  @Override
  public void close() {
    try {
      s3.close();
      s3NoRetry.close();
    } finally {
      // A client built with an explicit httpClient leaves it (and the credentials) to the caller.
      http.close();
      if (ownsCredentials && credentials instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception ignored) {
          // releasing credential-refresh threads is best effort at shutdown
        }
      }
    }
  }

  /** The S3 key prefix of the directory {@code p} (a checked prefix, "" for the root). */
  private String directory(String p) {
    return p.isEmpty() ? base : base + p + "/";
  }

  /**
   * Pages through every object under {@code s3Prefix}, feeding keys relative to the root to
   * {@code visitor} until it answers false. The first page asks for {@code firstPage} keys, later
   * ones for a full page.
   */
  private void scan(String s3Prefix, int firstPage, Predicate<String> visitor) {
    scanObjects(s3Prefix, firstPage, object -> visitor.test(object.key().substring(base.length())));
  }

  /** As {@link #scan}, feeding the listed objects themselves (their times, too). */
  private void scanObjects(String s3Prefix, int firstPage, Predicate<S3Object> visitor) {
    String token = null;
    int size = firstPage;
    do {
      ListObjectsV2Request.Builder req = ListObjectsV2Request.builder()
          .bucket(bucket)
          .prefix(s3Prefix)
          .maxKeys(size);
      if (token != null) {
        req.continuationToken(token);
      }
      ListObjectsV2Response page = s3.listObjectsV2(req.build());
      for (S3Object object : page.contents()) {
        if (!visitor.test(object)) {
          return;
        }
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
      size = pageSize;
    } while (token != null);
  }
}
