package dev.omnigraph.table;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.S3Relay;
import dev.omnigraph.testing.S3TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pass-through HTTP front on loopback, in front of the test S3 server, that records every request
 * (method and object key) it forwards: the in-process equivalent of {@code s3count.py}, so a test
 * can assert how many GETs an operation costs. Only tables opened through {@link #freshRoot} go
 * through it; branch creation (which reads the endpoint from the process environment) does not.
 */
final class CountingS3Front implements AutoCloseable {

  /** One forwarded request: HTTP method and the path below the bucket (URL-decoded, no query). */
  record Request(String method, String key, String query) {}

  private final HttpServer server;
  private final HttpClient client;
  private final String upstream;
  private final List<Request> log = new ArrayList<>();
  /** A lost-response fault: method, key pattern, and how many more matches to drop. */
  private String dropMethod;
  private java.util.regex.Pattern dropKey;
  private int dropCount;
  private int dropSkip;
  /** Random lost responses: each request's response is lost with this probability (0: off). */
  private double dropShare;
  private java.util.Random dropRandom;
  private int dropped;

  CountingS3Front() throws IOException {
    this.upstream = S3TestServer.get().endpoint();
    this.client = S3Relay.client();
    this.server = S3Relay.serve("127.0.0.1", 0, 64, "s3-counting-front", this::handle);
  }

  /** A fresh root (a bucket of its own) whose Lance and SDK traffic goes through this front. */
  StorageConfig freshRoot(String label) {
    String root = S3TestServer.get().freshRoot(label).rootUri();
    return StorageConfig.fromEnvironment(root, Map.of(
        "AWS_ENDPOINT", "http://127.0.0.1:" + server.getAddress().getPort(),
        "AWS_REGION", S3TestServer.REGION,
        "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET_KEY,
        "AWS_ALLOW_HTTP", "true"));
  }

  /**
   * Loses the response to the next {@code count} requests with {@code method} whose key matches
   * {@code keyPattern}: each is forwarded (so it takes effect upstream) and then the connection is
   * closed without an answer, the in-doubt outcome of a real network.
   */
  synchronized void dropResponses(String method, String keyPattern, int count) {
    dropResponses(method, keyPattern, count, 0);
  }

  /** As {@link #dropResponses(String, String, int)}, after letting the first {@code skip} matches through. */
  synchronized void dropResponses(String method, String keyPattern, int count, int skip) {
    dropMethod = method;
    dropKey = java.util.regex.Pattern.compile(keyPattern);
    dropCount = count;
    dropSkip = skip;
  }

  /** Turns every fault off. */
  synchronized void faultsOff() {
    dropCount = 0;
    dropShare = 0;
  }

  /**
   * Loses the response to each request with probability {@code share} (after forwarding it), drawn
   * from a generator seeded with {@code seed}; 0 turns it off.
   */
  synchronized void dropAtRandom(double share, long seed) {
    dropShare = share;
    dropRandom = new java.util.Random(seed);
  }

  /** How many responses were lost so far. */
  synchronized int dropped() {
    return dropped;
  }

  private synchronized boolean dropThis(String method, String key) {
    if (dropCount > 0 && method.equals(dropMethod) && dropKey.matcher(key).find()) {
      if (dropSkip > 0) {
        dropSkip--;
        return false;
      }
      dropCount--;
      dropped++;
      return true;
    }
    if (dropShare > 0 && dropRandom.nextDouble() < dropShare) {
      dropped++;
      return true;
    }
    return false;
  }

  /** Forgets every request recorded so far. */
  synchronized void reset() {
    log.clear();
  }

  /** The requests recorded since the last {@link #reset()}, in arrival order. */
  synchronized List<Request> requests() {
    return List.copyOf(log);
  }

  /** The recorded requests with {@code method} whose key contains {@code fragment}. */
  synchronized long count(String method, String fragment) {
    return log.stream().filter(r -> r.method().equals(method) && r.key().contains(fragment)).count();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String method = exchange.getRequestMethod();
      URI uri = exchange.getRequestURI();
      synchronized (this) {
        log.add(new Request(method, uri.getPath(), uri.getRawQuery() == null ? "" : uri.getRawQuery()));
      }
      HttpResponse<byte[]> response = client.send(S3Relay.request(upstream, exchange, body).build(),
          HttpResponse.BodyHandlers.ofByteArray());
      if (dropThis(method, uri.getPath())) {
        // Forwarded and applied upstream; the caller never hears back.
        exchange.getHttpContext().getServer();
        throw new LostResponse();
      }
      S3Relay.answer(exchange, response, response.body());
    } catch (LostResponse e) {
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

  private static final class LostResponse extends RuntimeException {
    LostResponse() {
      super(null, null, false, false);
    }
  }

  @Override
  public void close() {
    S3Relay.stop(server);
  }
}
