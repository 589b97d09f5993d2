package dev.omnigraph.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A loopback pass-through in front of S3Mock that makes conditional writes atomic, as they are on
 * S3. Measured here: S3Mock 5.2.0 answers eight concurrent {@code PUT If-None-Match: *} on a fresh
 * key with eight 200s (its existence check and write are not one step), which would let two Lance
 * commits or two sidecar claims both "win". Every request with {@code If-None-Match} or
 * {@code If-Match} is forwarded under one lock; every other request passes through unchanged and
 * concurrently. Except for faults a test injects explicitly ({@link #inject}), nothing is
 * answered by this class itself: S3Mock decides every response.
 */
public final class ConditionalWriteSerializer implements AutoCloseable {

  private final HttpServer server;
  private final HttpClient client;
  private final String upstream;
  private final ReentrantLock conditional = new ReentrantLock(true);
  private final java.util.concurrent.ConcurrentHashMap<String, Fault> faults = new java.util.concurrent.ConcurrentHashMap<>();
  private final java.util.concurrent.CopyOnWriteArrayList<RequestLog> recorders = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile long delayMillis;
  private final boolean checksDeleteIfMatch;

  /**
   * One forwarded request as a recorder sees it: method, bucket-relative key or listing prefix,
   * bytes, and when this front received it and had its answer (after any injected delay).
   */
  public record Request(String method, String key, boolean listing, long requestBytes, long responseBytes, int status,
      long receivedNanos, long answeredNanos) {

    /**
     * The serial round trips of {@code requests}: the most of them that ran one after another, each
     * received only after the one before was answered (the greatest set of pairwise disjoint
     * intervals, found by taking the earliest-answered request that starts after the last taken).
     * Requests in flight together count once, however their times fall; with a delay injected per
     * request ({@link ConditionalWriteSerializer#delay}) the figure is what the delay multiplies.
     */
    public static int serialRoundTrips(java.util.List<Request> requests) {
      java.util.List<Request> byAnswer = new java.util.ArrayList<>(requests);
      byAnswer.sort(java.util.Comparator.comparingLong(Request::answeredNanos));
      int trips = 0;
      long free = Long.MIN_VALUE;
      for (Request r : byAnswer) {
        if (r.receivedNanos() >= free) {
          trips++;
          free = r.answeredNanos();
        }
      }
      return trips;
    }
  }

  /** Collects the requests addressing one bucket/prefix until closed. */
  public final class RequestLog implements AutoCloseable {
    private final String prefix;
    private final java.util.List<Request> requests = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    private RequestLog(String prefix) {
      this.prefix = prefix;
    }

    /** The requests answered so far, in the order answered, and forgets them. */
    public java.util.List<Request> drain() {
      synchronized (requests) {
        java.util.List<Request> out = java.util.List.copyOf(requests);
        requests.clear();
        return out;
      }
    }

    @Override
    public void close() {
      recorders.remove(this);
    }
  }

  /**
   * Records every request addressing {@code target} (bucket/keyPrefix) for a test that counts what an
   * operation costs on object storage (issue 11's request accounting).
   */
  RequestLog record(String target) {
    RequestLog log = new RequestLog(target);
    recorders.add(log);
    return log;
  }

  /** Adds a fixed delay to every forwarded request (serial round trips ≈ latency ÷ delay). */
  void delay(long millis) {
    this.delayMillis = millis;
  }

  /** An injected S3 error answered for every request addressing {@code bucket/keyPrefix...}. */
  record Fault(int status, String code, java.util.Set<String> methods) {}

  /**
   * Fault injection (STYLE #9): requests whose bucket/key (or listing prefix) starts with
   * {@code target} are answered with {@code status} and an S3 error document with {@code code},
   * instead of being forwarded, until the returned handle is closed.
   */
  AutoCloseable inject(String target, int status, String code) {
    return inject(target, status, code, java.util.Set.of());
  }

  /** As {@link #inject(String, int, String)}, for the given HTTP methods only (empty: all). */
  AutoCloseable inject(String target, int status, String code, java.util.Set<String> methods) {
    faults.put(target, new Fault(status, code, methods));
    return () -> faults.remove(target);
  }

  /**
   * A lost exchange: the next request with {@code method} addressing {@code bucket/keyPrefix...} gets
   * no answer at all, its connection closed; with {@code forwardFirst} it reaches S3Mock first (it
   * landed, only its answer is lost), otherwise it never does.
   */
  record Drop(String method, boolean forwardFirst) {}

  private final java.util.concurrent.ConcurrentHashMap<String, Drop> drops = new java.util.concurrent.ConcurrentHashMap<>();

  /** Arms one {@link Drop}; the handle disarms it if it has not fired. */
  AutoCloseable dropOnce(String target, String method, boolean forwardFirst) {
    drops.put(target, new Drop(method, forwardFirst));
    return () -> drops.remove(target);
  }

  /** The armed drop this request fires (and disarms), if any. */
  private Drop dropFor(String method, URI uri) {
    if (drops.isEmpty()) {
      return null;
    }
    String addressed = addressed(uri);
    for (Map.Entry<String, Drop> d : drops.entrySet()) {
      if (addressed.startsWith(d.getKey()) && d.getValue().method().equals(method)
          && drops.remove(d.getKey(), d.getValue())) {
        return d.getValue();
      }
    }
    return null;
  }

  private static String addressed(URI uri) {
    String path = uri.getPath().startsWith("/") ? uri.getPath().substring(1) : uri.getPath();
    String addressed = path;
    String query = uri.getRawQuery();
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith("prefix=")) {
          String bucket = path.contains("/") ? path.substring(0, path.indexOf('/')) : path;
          addressed = bucket + "/" + java.net.URLDecoder.decode(part.substring(7), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
    }
    return addressed;
  }

  private Fault faultFor(String method, URI uri) {
    if (faults.isEmpty()) {
      return null;
    }
    String path = uri.getPath().startsWith("/") ? uri.getPath().substring(1) : uri.getPath();
    String addressed = path;
    String query = uri.getRawQuery();
    if (query != null) {
      for (String part : query.split("&")) {
        if (part.startsWith("prefix=")) {
          String bucket = path.contains("/") ? path.substring(0, path.indexOf('/')) : path;
          addressed = bucket + "/" + java.net.URLDecoder.decode(part.substring(7), java.nio.charset.StandardCharsets.UTF_8);
        }
      }
    }
    for (Map.Entry<String, Fault> f : faults.entrySet()) {
      if (addressed.startsWith(f.getKey())
          && (f.getValue().methods().isEmpty() || f.getValue().methods().contains(method))) {
        return f.getValue();
      }
    }
    return null;
  }

  /** Listens on {@code host:port} (a loopback address) and forwards to S3Mock on {@code 127.0.0.1:upstreamPort}. */
  ConditionalWriteSerializer(String host, int port, int upstreamPort) throws IOException {
    this(host, port, upstreamPort, false);
  }

  /**
   * @param checksDeleteIfMatch for an upstream that ignores {@code If-Match} on {@code DELETE}
   *     (S3Proxy 4.1.0 deletes unconditionally): this front checks it, under the lock every
   *     conditional write holds, by a {@code HEAD} of the object: a missing object is answered 404,
   *     another ETag 412 {@code PreconditionFailed}, as S3 answers them; only a match is forwarded.
   *     The one response this class decides itself besides injected faults.
   */
  ConditionalWriteSerializer(String host, int port, int upstreamPort, boolean checksDeleteIfMatch) throws IOException {
    this.checksDeleteIfMatch = checksDeleteIfMatch;
    this.upstream = "http://127.0.0.1:" + upstreamPort;
    this.client = S3Relay.client();
    this.server = S3Relay.serve(host, port, 256, "s3-conditional-proxy", this::handle);
  }

  private void handle(HttpExchange exchange) throws IOException {
    long received = System.nanoTime();
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String method = exchange.getRequestMethod();
      Fault fault = faultFor(method, exchange.getRequestURI());
      if (fault != null) {
        answerError(exchange, fault.status(), fault.code(), "injected by the test harness");
        return;
      }
      HttpRequest.Builder request = S3Relay.request(upstream, exchange, body);
      Drop drop = dropFor(method, exchange.getRequestURI());
      if (drop != null) {
        if (drop.forwardFirst()) {
          conditional.lock(); // as any conditional write is forwarded
          try {
            client.send(request.build(), HttpResponse.BodyHandlers.discarding());
          } finally {
            conditional.unlock();
          }
        }
        return; // closed with no response sent: the JDK server drops the connection
      }
      boolean isConditional = exchange.getRequestHeaders().containsKey("If-None-Match")
          || exchange.getRequestHeaders().containsKey("If-Match");
      HttpResponse<byte[]> response;
      if (isConditional) {
        conditional.lock();
        try {
          String ifMatch = exchange.getRequestHeaders().getFirst("If-Match");
          if (checksDeleteIfMatch && method.equals("DELETE") && ifMatch != null) {
            int refused = deleteRefusal(exchange.getRequestURI(), ifMatch);
            if (refused != 0) {
              String code = refused == 404 ? "NoSuchKey" : "PreconditionFailed";
              answerError(exchange, refused, code, code);
              return;
            }
          }
          response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } finally {
          conditional.unlock();
        }
      } else {
        response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      }
      if (delayMillis > 0) {
        Thread.sleep(delayMillis);
      }
      if (!recorders.isEmpty()) {
        long answered = System.nanoTime();
        String addressed = addressed(exchange.getRequestURI());
        String raw = exchange.getRequestURI().getRawQuery();
        boolean listing = raw != null && (raw.contains("list-type") || raw.contains("prefix="));
        for (RequestLog log : recorders) {
          if (addressed.startsWith(log.prefix)) {
            log.requests.add(new Request(method, addressed.substring(log.prefix.length()), listing, body.length,
                response.body().length, response.statusCode(), received, answered));
          }
        }
      }
      S3Relay.answer(exchange, response, response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      exchange.sendResponseHeaders(502, -1);
    } catch (IOException e) {
      exchange.sendResponseHeaders(502, -1);
    }
  }

  /** 404 when the object is gone, 412 when its ETag is not {@code ifMatch}, 0 when the delete may go. */
  private int deleteRefusal(URI uri, String ifMatch) throws IOException, InterruptedException {
    HttpResponse<Void> head = client.send(HttpRequest.newBuilder(URI.create(upstream + uri.getRawPath()))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    if (head.statusCode() == 404) {
      return 404;
    }
    String etag = head.headers().firstValue("ETag").orElse("");
    return ifMatch.trim().equals("*") || unquoted(ifMatch).equals(unquoted(etag)) ? 0 : 412;
  }

  private static String unquoted(String etag) {
    String t = etag.trim();
    return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
  }

  /** Answers an S3 error document; a HEAD gets the status alone, as S3 sends no body to a HEAD. */
  private static void answerError(HttpExchange exchange, int status, String code, String message) throws IOException {
    byte[] doc = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>" + code + "</Code><Message>"
        + message + "</Message></Error>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/xml");
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, doc.length);
    try (OutputStream os = exchange.getResponseBody()) {
      os.write(doc);
    }
  }

  @Override
  public void close() {
    S3Relay.stop(server);
  }
}
