package dev.omnigraph.sim;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omnigraph.sim.FaultPlan.Decision;
import dev.omnigraph.sim.FaultPlan.Fault;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.testing.S3Relay;
import dev.omnigraph.testing.S3TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated object store: an S3 endpoint on loopback in front of the test
 * S3Mock that every request of a simulated run goes through, Lance's own object-store I/O (its
 * {@code aws_endpoint} storage option) as well as our {@code S3StorageAdapter} (the AWS SDK). A
 * {@code StorageAdapter} stand-in could not fault Lance, which does its own I/O from Rust; the wire
 * can. S3Mock (behind {@code ConditionalWriteSerializer}, so conditional writes are atomic as on
 * S3) decides every answer that is not a fault.
 *
 * <p>Faults come from {@link FaultPlan}: a pure function of (scenario, seed, {@link RequestId}). The
 * driver numbers steps ({@link #step}); a request's identity is its step, method, canonical key,
 * query and range, and its occurrence within the step. The request log is kept per step and sorted
 * by identity there, so the threads' interleaving does not change it; {@link #traceHash} is its
 * SHA-256.
 *
 * <p>A crash ({@link #armCrash}) stops the store at a seeded request of the step: that request and
 * every later one are answered 403 AccessDenied (at once, so neither client retries for minutes)
 * and never reach S3Mock, until {@link #restart}: what a killed client had not yet had acknowledged
 * is gone, and nothing it would have done afterwards happens. Requests refused while down are
 * counted but kept out of the trace: how many a dying client still sends is its business.
 *
 * <p>Not under simulation: Lance's {@code createBranch}, which reads the endpoint from the process
 * environment (see {@code S3TestServer}) and so reaches S3Mock directly.
 */
public final class SimS3 implements SimStore {
  private static final Pattern CONTENTS = Pattern.compile("<Contents>.*?</Contents>", Pattern.DOTALL);
  private static final Pattern KEY = Pattern.compile("<Key>(.*?)</Key>", Pattern.DOTALL);

  /** One line of the trace: the request's identity, its fault and the status the client got. */
  record Entry(int step, String identity, boolean writes, Fault fault, String outcome) {
    String line() {
      return identity + " " + fault + " " + outcome;
    }
  }

  private final Scenario scenario;
  private final long seed;
  private final FaultPlan plan;
  private final HttpServer server;
  private final HttpClient client;
  private final String upstream;
  private final Map<String, Integer> occurrences = new HashMap<>();
  private final List<Entry> log = new ArrayList<>();
  private final Map<Fault, Integer> faults = new EnumMap<>(Fault.class);
  /** Bucket-relative key to the step that last wrote it, for slow LIST. */
  private final Map<String, Integer> writtenAt = new ConcurrentHashMap<>();
  private final Set<Integer> crashedSteps = new java.util.HashSet<>();
  private int step;
  private boolean faultsOn = true;
  private boolean crashArmed;
  private volatile boolean down;
  private int refused;
  /** The roots this store made (on S3Mock directly), emptied when it closes. */
  private final List<StorageConfig> roots = new ArrayList<>();
  /** The initialised graph every wire-tier history of this JVM copies. */
  private static StorageConfig template;

  public SimS3(Scenario scenario, long seed) throws IOException {
    this.scenario = scenario;
    this.seed = seed;
    this.plan = new FaultPlan(scenario, seed);
    this.upstream = S3TestServer.get().endpoint();
    this.client = S3Relay.client();
    this.server = S3Relay.serve("127.0.0.1", 0, 64, "sim-s3", this::handle);
  }

  /** {@code http://127.0.0.1:<port>}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** A fresh root (a bucket of its own) whose Lance and SDK traffic all goes through this store. */
  @Override
  public StorageConfig freshRoot(String label) {
    return throughThisStore(S3TestServer.get().freshRoot(label));
  }

  /**
   * Builds, once per JVM, the graph {@code init} makes, on S3Mock directly: init is not what a
   * history tests, and through this store it took about half of a history's time.
   */
  static void prepareTemplate(RootTemplates.Builder init) throws Exception {
    synchronized (SimS3.class) {
      if (template == null) {
        StorageConfig t = S3TestServer.get().freshRoot("sim-template");
        init.build(t);
        template = t;
      }
    }
  }

  /**
   * A fresh root holding a copy of the {@link #prepareTemplate template} (server-side copies on
   * S3Mock, outside the trace), addressed through this store.
   */
  @Override
  public StorageConfig initialised() {
    StorageConfig direct = S3TestServer.get().freshRoot("sim");
    RootTemplates.copy(template, direct);
    return throughThisStore(direct);
  }

  private StorageConfig throughThisStore(StorageConfig direct) {
    roots.add(direct);
    return StorageConfig.fromEnvironment(direct.rootUri(), Map.of(
        "AWS_ENDPOINT", endpoint(),
        "AWS_REGION", S3TestServer.REGION,
        "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY,
        "AWS_ALLOW_HTTP", "true"));
  }

  /** Starts step {@code n}: occurrences count afresh, and no crash is armed. */
  @Override
  public synchronized void step(int n) {
    step = n;
    occurrences.clear();
    crashArmed = false;
  }

  /** Lets the current step crash at a seeded request ({@link Scenario#crashShare}). */
  @Override
  public synchronized void armCrash() {
    crashArmed = true;
  }

  /** Faults on (the operation under test) or off (the checker's reads, recovery's settling). */
  @Override
  public synchronized void faults(boolean on) {
    faultsOn = on;
  }

  /** Whether a crash stopped the store (until {@link #restart}). */
  @Override
  public boolean crashed() {
    return down;
  }

  /** Stops the store now, as a crash between two requests would. */
  @Override
  public synchronized void crashNow() {
    down = true;
    crashedSteps.add(step);
    faults.merge(Fault.CRASH, 1, Integer::sum);
  }

  /** The store answers again (the restarted process's requests reach it). */
  @Override
  public synchronized void restart() {
    down = false;
    crashArmed = false;
  }

  /** How many requests met each fault so far. */
  @Override
  public synchronized Map<Fault, Integer> faultCounts() {
    return Map.copyOf(faults);
  }

  /** Requests refused while the store was down. */
  public synchronized int refused() {
    return refused;
  }

  /**
   * The trace: per step, its entries sorted by identity. In a step that crashed only the writes are
   * kept: a read racing the crash point (Lance reads in parallel) falls before it in one run and
   * after it, refused, in another; the writes that landed decide the store either way.
   */
  @Override
  public synchronized List<String> trace() {
    List<Entry> sorted = new ArrayList<>(log.stream()
        .filter(e -> !crashedSteps.contains(e.step()) || e.writes()).toList());
    sorted.sort(java.util.Comparator.comparingInt(Entry::step).thenComparing(Entry::identity));
    return sorted.stream().map(Entry::line).toList();
  }

  /** How many requests the trace holds. */
  @Override
  public synchronized int requests() {
    return log.size();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      String path = uri.getPath();
      boolean conditional = exchange.getRequestHeaders().containsKey("If-Match")
          || exchange.getRequestHeaders().containsKey("If-None-Match");
      String range = exchange.getRequestHeaders().getFirst("Range");
      RequestId id;
      Decision decision;
      int stepNow;
      synchronized (this) {
        if (down) {
          refused++;
          answerError(exchange, 403, "AccessDenied", "simulated crash: the store is down");
          return;
        }
        stepNow = step;
        RequestId base = new RequestId(step, method, RequestId.canonicalKey(path),
            RequestId.canonicalQuery(uri.getRawQuery()), RequestId.canonicalRange(range), conditional, 0);
        int n = occurrences.merge(base.withoutOccurrence(), 1, Integer::sum) - 1;
        id = new RequestId(base.step(), method, base.key(), base.query(), base.range(), conditional, n);
        decision = faultsOn ? plan.decide(id, crashArmed) : new Decision(0, Fault.NONE);
        if (decision.fault() != Fault.NONE) {
          faults.merge(decision.fault(), 1, Integer::sum);
        }
        if (decision.fault() == Fault.CRASH) {
          down = true;
          crashedSteps.add(stepNow);
          log.add(new Entry(stepNow, id.canonical(), true, Fault.CRASH, "403"));
          answerError(exchange, 403, "AccessDenied", "simulated crash: the store is down");
          return;
        }
      }
      if (decision.latencyMillis() > 0) {
        Thread.sleep(decision.latencyMillis());
      }
      switch (decision.fault()) {
        case SLOW_DOWN -> {
          record(stepNow, id, decision.fault(), "503");
          answerError(exchange, 503, "SlowDown", "Please reduce your request rate.");
          return;
        }
        case INTERNAL_ERROR -> {
          record(stepNow, id, decision.fault(), "500");
          answerError(exchange, 500, "InternalError", "We encountered an internal error. Please try again.");
          return;
        }
        case TIMEOUT -> {
          record(stepNow, id, decision.fault(), "dropped");
          throw new Dropped();
        }
        default -> { }
      }
      HttpResponse<byte[]> response = forward(exchange, body);
      int status = response.statusCode();
      if (status / 100 == 2 && (method.equals("PUT") || method.equals("POST"))) {
        writtenAt.put(bucketKey(path), stepNow);
      }
      if (decision.fault() == Fault.LOST_RESPONSE_DROP) {
        record(stepNow, id, decision.fault(), status + ",dropped");
        throw new Dropped();
      }
      if (decision.fault() == Fault.LOST_RESPONSE_500) {
        record(stepNow, id, decision.fault(), status + ",500");
        answerError(exchange, 500, "InternalError", "We encountered an internal error. Please try again.");
        return;
      }
      byte[] out = response.body();
      if (scenario.slowListSteps() > 0 && method.equals("GET") && isListing(uri) && status == 200) {
        out = lagListing(out, bucketOf(path), stepNow);
      }
      record(stepNow, id, Fault.NONE, Integer.toString(status));
      S3Relay.answer(exchange, response, out);
    } catch (Dropped e) {
      // Closing the exchange without response headers makes the server drop the connection.
      exchange.getRequestBody().close();
      exchange.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    } catch (IOException e) {
      exchange.sendResponseHeaders(502, -1);
    }
  }

  private synchronized void record(int stepNow, RequestId id, Fault fault, String outcome) {
    log.add(new Entry(stepNow, id.canonical(), id.writes(), fault, outcome));
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
    return client.send(S3Relay.request(upstream, exchange, body).build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void answerError(HttpExchange exchange, int status, String code, String message)
      throws IOException {
    byte[] xml = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>" + message
        + "</Message></Error>").getBytes(UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, xml.length);
    try (OutputStream os = exchange.getResponseBody()) {
      os.write(xml);
    }
  }

  /** A ListObjects(V2) request: a GET of the bucket itself, path-style. */
  private static boolean isListing(URI uri) {
    String p = uri.getPath();
    return p.indexOf('/', 1) < 0 || p.indexOf('/', 1) == p.length() - 1;
  }

  private static String bucketOf(String path) {
    int slash = path.indexOf('/', 1);
    return slash < 0 ? path.substring(1) : path.substring(1, slash);
  }

  /** {@code <bucket>/<key>} of a path-style object path. */
  private static String bucketKey(String path) {
    return path.substring(1);
  }

  /**
   * The listing without the keys written in the last {@link Scenario#slowListSteps} steps: an
   * eventually consistent LIST. The page's KeyCount is corrected; its continuation is left alone.
   */
  private byte[] lagListing(byte[] xml, String bucket, int stepNow) {
    String s = new String(xml, UTF_8);
    StringBuilder out = new StringBuilder();
    Matcher m = CONTENTS.matcher(s);
    int omitted = 0;
    while (m.find()) {
      Matcher k = KEY.matcher(m.group());
      String key = k.find() ? URLDecoder.decode(k.group(1).replace("+", "%2B"), UTF_8) : "";
      Integer at = writtenAt.get(bucket + "/" + key);
      boolean recent = at != null && at > stepNow - scenario.slowListSteps();
      m.appendReplacement(out, recent ? "" : Matcher.quoteReplacement(m.group()));
      omitted += recent ? 1 : 0;
    }
    m.appendTail(out);
    String lagged = out.toString();
    if (omitted > 0) {
      Matcher count = Pattern.compile("<KeyCount>(\\d+)</KeyCount>").matcher(lagged);
      if (count.find()) {
        lagged = count.replaceFirst("<KeyCount>" + (Integer.parseInt(count.group(1)) - omitted) + "</KeyCount>");
      }
    }
    return lagged.getBytes(UTF_8);
  }

  private static final class Dropped extends RuntimeException {
    Dropped() {
      super(null, null, false, false);
    }
  }

  @Override
  public void close() {
    S3Relay.stop(server);
    roots.forEach(RootTemplates::delete); // S3Mock keeps every bucket until its JVM exits
  }

  /** (scenario, seed), as a failure names the run. */
  @Override
  public String toString() {
    return "(" + scenario.name() + ", " + seed + ")";
  }
}
