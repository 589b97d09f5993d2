package dev.omnigraph.testing;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A real S3 protocol server on loopback, started once per test JVM and stopped when it exits.
 *
 * <p>Adobe S3Mock 5.2.0 (the standalone {@code exec} jar Maven copies to {@code target/s3mock}) runs
 * as a child process. Its port is the one Maven reserved before the JVM started
 * ({@code omnigraph.test.s3.port}), because Lance's {@code createBranch} reads the endpoint from the
 * process environment, which surefire sets from the same reserved port. Without that property (an
 * IDE run) an ephemeral port is picked, and only branch creation on S3 can then disagree.
 *
 * <p>S3Mock itself listens on a private port behind {@link ConditionalWriteSerializer}, which
 * restores S3's atomic conditional writes (S3Mock's are racy under concurrency); see there.
 *
 * <p>With parallel surefire forks each fork has its own server: the same reserved port on its own
 * loopback address, {@code 127.0.0.<fork number>} ({@code omnigraph.test.s3.host}), which surefire
 * also substitutes into that fork's {@code AWS_ENDPOINT}; Linux routes all of 127.0.0.0/8 to the
 * loopback interface.
 */
public final class S3TestServer implements AutoCloseable {

  /** The bucket S3Mock creates at start, for the few tests that address a root by hand. */
  public static final String BUCKET = "omnigraph-test";

  public static final String ACCESS_KEY = "omnigraph-test";
  public static final String SECRET_KEY = "omnigraph-test-secret";
  public static final String REGION = "us-east-1";

  private static S3TestServer instance;

  private final String host;
  private final int port;
  private final Process process;
  private final ConditionalWriteSerializer front;
  /** S3Mock's own (private) port, behind the fronts. */
  private final int upstreamPort;
  private final Path store;
  /** S3Proxy rather than S3Mock behind the fronts ({@link #s3proxyCommand}). */
  private final boolean s3proxy;
  /** Creates the per-root buckets; made on first use, closed with the server. */
  private software.amazon.awssdk.services.s3.S3Client adminClient;

  private S3TestServer(String host, int port, Process process, ConditionalWriteSerializer front, int upstreamPort,
      Path store, boolean s3proxy) {
    this.s3proxy = s3proxy;
    this.store = store;
    this.host = host;
    this.port = port;
    this.process = process;
    this.front = front;
    this.upstreamPort = upstreamPort;
  }

  /**
   * A second front to the same S3Mock store on its own loopback port, for a test that needs the
   * store to stop answering: {@link Front#close} closes the port and every connection through it, so
   * later requests to {@link Front#endpoint} are refused, while the shared server keeps serving
   * everyone else. Roots made by {@link Front#root} address the same bucket and objects.
   */
  public Front openFront() {
    try {
      int p = freePort();
      return new Front("http://127.0.0.1:" + p, new ConditionalWriteSerializer("127.0.0.1", p, upstreamPort, s3proxy));
    } catch (IOException e) {
      throw new IllegalStateException("could not open a second S3 front", e);
    }
  }

  /** A closable front to the test S3 store ({@link #openFront}). */
  public static final class Front implements AutoCloseable {
    private final String endpoint;
    private final ConditionalWriteSerializer server;

    private Front(String endpoint, ConditionalWriteSerializer server) {
      this.endpoint = endpoint;
      this.server = server;
    }

    /** {@code http://127.0.0.1:<port>}. */
    public String endpoint() {
      return endpoint;
    }

    /** {@code config}'s root and credentials, through this front. */
    public StorageConfig root(StorageConfig config) {
      return StorageConfig.fromEnvironment(config.rootUri(), Map.of(
          "AWS_ENDPOINT", endpoint,
          "AWS_REGION", REGION,
          "AWS_ACCESS_KEY_ID", ACCESS_KEY,
          "AWS_SECRET_ACCESS_KEY", SECRET_KEY,
          "AWS_ALLOW_HTTP", "true"));
    }

    /** Closes the port and every open connection: from now on nothing answers at the endpoint. */
    @Override
    public void close() {
      server.close();
    }
  }

  /**
   * Answers every request addressing {@code keyPrefix} under {@code root} (objects and listings)
   * with {@code status} and the S3 error {@code code}, until the handle is closed. For tests of
   * typed failure handling (403 AccessDenied, 503 SlowDown, 500 InternalError).
   */
  public AutoCloseable injectFault(StorageConfig root, String keyPrefix, int status, String code) {
    String prefix = root.prefix().isEmpty() ? keyPrefix : root.prefix() + "/" + keyPrefix;
    return front.inject(root.bucket() + "/" + prefix, status, code);
  }

  /** As {@link #injectFault(StorageConfig, String, int, String)}, for these HTTP methods only. */
  public AutoCloseable injectFault(StorageConfig root, String keyPrefix, int status, String code,
      String... methods) {
    String prefix = root.prefix().isEmpty() ? keyPrefix : root.prefix() + "/" + keyPrefix;
    return front.inject(root.bucket() + "/" + prefix, status, code, java.util.Set.of(methods));
  }

  /**
   * Loses the next {@code method} request addressing {@code keyPrefix} under {@code root}: its
   * connection is closed with no answer, after it reached S3Mock ({@code landed}) or before. For
   * tests of how a writer settles an exchange whose outcome it cannot know.
   */
  public AutoCloseable dropOnce(StorageConfig root, String keyPrefix, String method, boolean landed) {
    String prefix = root.prefix().isEmpty() ? keyPrefix : root.prefix() + "/" + keyPrefix;
    return front.dropOnce(root.bucket() + "/" + prefix, method, landed);
  }

  /**
   * Records every request addressing {@code root} (objects and listings under its prefix) until the
   * log is closed; each entry's key is relative to the root.
   */
  public ConditionalWriteSerializer.RequestLog record(StorageConfig root) {
    String prefix = root.prefix().isEmpty() ? "" : root.prefix() + "/";
    return front.record(root.bucket() + "/" + prefix);
  }

  /**
   * Uploads every file under the local graph root {@code localRoot} to {@code remote} (same relative
   * keys), eight at a time: a history grown quickly on local disk becomes an S3 fixture. Lance
   * writes the same relative layout on both backends; roots with Lance branches record absolute
   * parent URIs, so such an upload is a copy to relocate ({@code Omnigraph.relocate}).
   */
  public void upload(Path localRoot, StorageConfig remote) throws IOException {
    List<Path> files;
    try (var walk = Files.walk(localRoot)) {
      files = walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().contains("#")).toList();
    }
    var client = client();
    var pool = java.util.concurrent.Executors.newFixedThreadPool(16);
    try (client) {
      List<java.util.concurrent.Future<?>> puts = new ArrayList<>();
      for (Path f : files) {
        String rel = localRoot.relativize(f).toString().replace('\\', '/');
        String key = remote.prefix().isEmpty() ? rel : remote.prefix() + "/" + rel;
        puts.add(pool.submit(() -> client.putObject(b -> b.bucket(remote.bucket()).key(key),
            software.amazon.awssdk.core.sync.RequestBody.fromFile(f))));
      }
      for (var p : puts) {
        p.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException("upload of " + localRoot + " failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdown();
    }
  }

  /** Delays every forwarded request by {@code millis} (0: none), to count serial round trips. */
  public void delay(long millis) {
    front.delay(millis);
  }

  /** The running server, started on first use. */
  public static synchronized S3TestServer get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  /** {@code http://<loopback host>:<port>}. */
  public String endpoint() {
    return "http://" + host + ":" + port;
  }

  /**
   * A fresh, empty graph root {@code s3://og-<uuid>/<label>} with this server's settings, in a bucket
   * of its own. S3Mock parses a bucket's whole key map ({@code bucketMetadata.json}) under the
   * bucket's lock on every request, so one shared bucket made every S3 request of a test JVM slower
   * with every object any earlier test had left (measured: a GET 65 ms in a 10-object bucket, 264 ms
   * in a 30,000-object one); a bucket per root bounds that cost by the root's own objects.
   */
  public StorageConfig freshRoot(String label) {
    String bucket = "og-" + UUID.randomUUID().toString().replace("-", "");
    createBucket(bucket);
    return rootIn(bucket, label);
  }

  /** The root {@code s3://<root's bucket>/<prefix>}: another prefix of an existing root's bucket. */
  public StorageConfig rootBeside(StorageConfig root, String prefix) {
    return rootIn(root.bucket(), prefix);
  }

  /** As {@link #freshRoot(String)}; kept for the bulk fixtures, which once needed a bucket apart. */
  public StorageConfig freshBulkRoot(String label) {
    return freshRoot(label);
  }

  /** {@code s3://<bucket>/<prefix>} with this server's settings; the bucket is not created. */
  private StorageConfig rootIn(String bucket, String prefix) {
    return StorageConfig.fromEnvironment(
        "s3://" + bucket + "/" + prefix,
        Map.of(
            "AWS_ENDPOINT", endpoint(),
            "AWS_REGION", REGION,
            "AWS_ACCESS_KEY_ID", ACCESS_KEY,
            "AWS_SECRET_ACCESS_KEY", SECRET_KEY,
            "AWS_ALLOW_HTTP", "true"));
  }

  private void createBucket(String bucket) {
    synchronized (this) {
      if (adminClient == null) {
        adminClient = client();
      }
    }
    adminClient.createBucket(b -> b.bucket(bucket));
  }

  /** Deletes every object under {@code root} (batched), so a bulk fixture does not outlive its test. */
  public void deleteAll(StorageConfig root) {
    try (var client = client()) {
      String prefix = root.prefix().isEmpty() ? "" : root.prefix() + "/";
      var pages = client.listObjectsV2Paginator(b -> b.bucket(root.bucket()).prefix(prefix));
      List<software.amazon.awssdk.services.s3.model.ObjectIdentifier> batch = new ArrayList<>();
      for (var page : pages) {
        for (var o : page.contents()) {
          batch.add(software.amazon.awssdk.services.s3.model.ObjectIdentifier.builder().key(o.key()).build());
          if (batch.size() == 1000) {
            deleteBatch(client, root.bucket(), batch);
          }
        }
      }
      deleteBatch(client, root.bucket(), batch);
    }
  }

  private static void deleteBatch(software.amazon.awssdk.services.s3.S3Client client, String bucket,
      List<software.amazon.awssdk.services.s3.model.ObjectIdentifier> batch) {
    if (!batch.isEmpty()) {
      List<software.amazon.awssdk.services.s3.model.ObjectIdentifier> keys = List.copyOf(batch);
      client.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(keys)));
      batch.clear();
    }
  }

  private software.amazon.awssdk.services.s3.S3Client client() {
    return software.amazon.awssdk.services.s3.S3Client.builder()
        .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
        .region(software.amazon.awssdk.regions.Region.of(REGION))
        .forcePathStyle(true)
        .endpointOverride(URI.create(endpoint()))
        .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
            software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .build();
  }

  /** The same settings but a bucket that does not exist. */
  public StorageConfig missingBucketRoot() {
    return rootIn("no-such-bucket-" + UUID.randomUUID(), "g");
  }

  private static S3TestServer start() {
    int port = Optional.ofNullable(System.getProperty("omnigraph.test.s3.port"))
        .filter(s -> !s.isBlank() && !s.startsWith("$"))
        .map(Integer::parseInt)
        .orElseGet(S3TestServer::freePort);
    String host = Optional.ofNullable(System.getProperty("omnigraph.test.s3.host"))
        .filter(h -> h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}"))
        .orElse("127.0.0.1");
    String envEndpoint = System.getenv("AWS_ENDPOINT");
    if (envEndpoint != null && !envEndpoint.equals("http://" + host + ":" + port)) {
      System.err.println("[S3TestServer] warning: AWS_ENDPOINT=" + envEndpoint
          + " differs from the S3Mock port " + port + "; Lance branch creation on S3 will miss it");
    }
    try {
      return start(Files.createTempDirectory("s3mock-store"), host, port, true);
    } catch (IOException e) {
      throw new IllegalStateException("could not start S3Mock", e);
    }
  }

  /**
   * A private S3Mock, stopped by {@link #close}, whose store already holds the given local graph
   * roots, each in a bucket of its own (a bucket's size taxes every request to it, since S3Mock
   * re-reads the bucket's whole key map per request) as {@link #seededRoot}. The store is written
   * straight in S3Mock 5.2.0's on-disk layout (a folder per object with its bytes and metadata, and
   * the bucket's key map) before the server starts and loads it: uploading the ~9,000 objects of a
   * 1,000-deep history through the API took S3Mock over ten minutes, because every put rewrites the
   * bucket's whole key map. What the server then answers is decided by S3Mock itself, exactly as
   * for uploaded objects. Roots with Lance branches record absolute parent URIs and are not
   * portable this way. The local roots' files may be hard-linked, so they must not change after.
   *
   * @param roots bucket name (3-63 lowercase letters, digits and hyphens) to local graph root
   */
  public static S3TestServer seeded(Map<String, Path> roots) {
    if (usesS3Proxy()) {
      throw new IllegalStateException("a seeded store is S3Mock's on-disk layout; run without -Domnigraph.test.s3.server=s3proxy");
    }
    try {
      Path store = Files.createTempDirectory("s3mock-seeded");
      SeededStore.write(store, roots, SEEDED_PREFIX);
      return start(store, "127.0.0.1", freePort(), false);
    } catch (IOException e) {
      throw new IllegalStateException("could not seed an S3Mock store", e);
    }
  }

  private static final String SEEDED_PREFIX = "g";

  /** The graph root {@link #seeded} wrote into {@code bucket}, with this server's settings. */
  public StorageConfig seededRoot(String bucket) {
    return rootIn(bucket, SEEDED_PREFIX);
  }

  /** Stops a server made by {@link #seeded} and deletes its store; the shared one stops on exit. */
  @Override
  public void close() {
    if (this == instance) {
      return;
    }
    front.close();
    if (adminClient != null) {
      adminClient.close();
    }
    stop(process, store);
  }

  private static void stop(Process process, Path store) {
    process.destroy();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    TestFiles.deleteTree(store);
  }

  /** Copies the local tree {@code from} to {@code to}, leaving out in-flight temporaries ('#'). */
  public static void copyTree(Path from, Path to) throws IOException {
    try (var walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().contains("#")) {
          Files.copy(p, target);
        }
      }
    }
  }

  /**
   * @param quickStart JIT for start-up (the shared server, whose buckets stay small) rather than for
   *     throughput (a seeded store, whose big key maps S3Mock parses on every request)
   */
  private static S3TestServer start(Path store, String host, int port, boolean quickStart) throws IOException {
    boolean s3proxy = usesS3Proxy();
    String jar = s3proxy
        ? System.getProperty("omnigraph.test.s3proxy.jar", "target/s3proxy/s3proxy.jar")
        : System.getProperty("omnigraph.test.s3mock.jar", "target/s3mock/s3mock.jar");
    if (!Files.isRegularFile(Path.of(jar))) {
      throw new IllegalStateException((s3proxy ? "S3Proxy" : "S3Mock") + " jar not found at " + jar
          + "; run the tests through Maven (./mvnw verify" + (s3proxy ? " -Psoak)" : ")"));
    }
    // The server listens on a private port; the advertised port is the atomic-conditional-write front.
    int upstreamPort = freePort();
    Path log = Path.of(jar).toAbsolutePath().getParent().resolve(
        (s3proxy ? "s3proxy-" : "s3mock-") + host + "-" + port + ".log");
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = s3proxy ? s3proxyCommand(java, jar, store, upstreamPort) : new ArrayList<>(List.of(
        java,
        quickStart ? "-Xmx512m" : "-Xmx1g",
        quickStart ? "-XX:TieredStopAtLevel=1" : "-XX:+UseParallelGC",
        "-jar", jar,
        "--http.port=" + upstreamPort,
        "--server.port=" + freePort(),
        "--server.address=127.0.0.1",
        "--com.adobe.testing.s3mock.store.root=" + store,
        "--com.adobe.testing.s3mock.store.initial-buckets=" + BUCKET,
        "--com.adobe.testing.s3mock.max-payload-size=256MB",
        // S3Mock logs a line per key of a bucket it loads at start (a seeded store's thousands).
        "--logging.level.com.adobe.testing.s3mock.store=WARN"));
    Process process = new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process, store), "s3mock-stop"));
    waitUntilUp(process, "127.0.0.1", upstreamPort, log, Duration.ofSeconds(90));
    ConditionalWriteSerializer front = new ConditionalWriteSerializer(host, port, upstreamPort, s3proxy);
    Runtime.getRuntime().addShutdownHook(new Thread(front::close, "s3-front-stop"));
    waitUntilUp(process, host, port, log, Duration.ofSeconds(10));
    S3TestServer server = new S3TestServer(host, port, process, front, upstreamPort, store, s3proxy);
    if (s3proxy) {
      server.createBucket(BUCKET); // S3Mock makes it at start
    }
    return server;
  }

  private static boolean usesS3Proxy() {
    return "s3proxy".equals(System.getProperty("omnigraph.test.s3.server", "s3mock"));
  }

  /**
   * S3Proxy (gaul/s3proxy, its own in-memory {@code transient-nio2} store), chosen with
   * {@code -Domnigraph.test.s3.server=s3proxy}, for the long soaks only. Why: S3Mock parses its
   * bucket's whole key map on every request and rewrites it on every PUT and DELETE, so a request
   * costs time in proportion to the objects the bucket holds and a soak that grows a graph to tens of
   * thousands of objects slows quadratically (measured on the kill -9 soak: a GET 9.8 ms in the first
   * 25 rounds, 92.6 ms by round 100, at the same ~450 GETs a round). S3Proxy answers a GET or PUT in
   * under a millisecond at 30,000 objects. It checks {@code If-None-Match}/{@code If-Match} on PUT
   * itself (412 PreconditionFailed), and the same front serializes them; it ignores {@code If-Match}
   * on DELETE, which the front then checks (see {@link ConditionalWriteSerializer}). It does not check signatures
   * ({@code authorization=none}): the front forwards requests to it with its own Host header.
   * The default suites stay on S3Mock.
   */
  private static List<String> s3proxyCommand(String java, String jar, Path store, int upstreamPort) throws IOException {
    Path properties = store.resolve("s3proxy.properties");
    Files.writeString(properties, String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + upstreamPort,
        "s3proxy.authorization=none",
        "jclouds.provider=transient-nio2",
        "jclouds.identity=" + ACCESS_KEY,
        "jclouds.credential=" + SECRET_KEY,
        ""));
    return new ArrayList<>(List.of(java, "-Xmx4g", "-XX:+UseParallelGC", "-jar", jar, "--properties",
        properties.toString()));
  }

  private static void waitUntilUp(Process process, String host, int port, Path log, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the S3 server exited with " + process.exitValue() + "; see " + log);
      }
      try {
        HttpURLConnection c =
            (HttpURLConnection) URI.create("http://" + host + ":" + port + "/").toURL().openConnection();
        c.setConnectTimeout(500);
        c.setReadTimeout(2000);
        if (c.getResponseCode() == 200) {
          c.disconnect();
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    process.destroyForcibly();
    throw new IllegalStateException("the S3 server did not answer on " + host + ":" + port + " within " + timeout
        + "; see " + log);
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
