package dev.omnigraph.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.ResourceLimitExceeded;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * One graph of a running server ({@code --server URL --graph ID}), for the commands that have a
 * remote form. Requests carry {@code Authorization: Bearer $OMNIGRAPH_TOKEN} when that is set; the
 * server records the token's actor, so {@code --actor} does not apply. An error answer is turned
 * back into the engine outcome it reports (from its structured detail, else its status), so the
 * CLI prints it and picks the exit code exactly as for a local graph.
 */
final class RemoteGraph {

  private static final ObjectMapper JSON = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private final String base;
  private final Optional<String> token;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

  RemoteGraph(String server, String graphId, Optional<String> token) {
    String root = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
    this.base = root + "/graphs/" + encode(graphId);
    this.token = token;
  }

  static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  <T> T get(String path, Class<T> type) {
    return send(request(path).GET(), type);
  }

  <T> T delete(String path, Class<T> type) {
    return send(request(path).DELETE(), type);
  }

  <T> T post(String path, Object body, Map<String, String> headers, Class<T> type) {
    HttpRequest.Builder b = request(path).header("Content-Type", "application/json");
    headers.forEach(b::header);
    try {
      return send(b.POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))), type);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** POSTs {@code body} as JSON and copies a 2xx response body to {@code out} as it arrives. */
  void postStream(String path, Object body, java.io.OutputStream out) {
    HttpRequest.Builder b = request(path).header("Content-Type", "application/json");
    try {
      HttpResponse<java.io.InputStream> response = http.send(
          b.POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      try (java.io.InputStream in = response.body()) {
        if (response.statusCode() / 100 != 2) {
          throw failure(response.statusCode(), JSON.readTree(in));
        }
        in.transferTo(out);
      }
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** A raw answer's status and headers; its body, if any, went to the caller's stream. */
  record RawAnswer(int status, java.net.http.HttpHeaders headers) {
    java.util.Optional<String> header(String name) {
      return headers.firstValue(name);
    }
  }

  /**
   * {@code GET} (or {@code HEAD} when {@code out} is null) of a raw body: a 2xx body is copied to
   * {@code out} as it arrives, through {@code onLength} first with its {@code Content-Length}; any
   * other status is the server's typed error.
   */
  RawAnswer getRaw(String path, Map<String, String> headers, java.io.OutputStream out,
      java.util.function.LongConsumer onLength) {
    HttpRequest.Builder b = request(path).header("Accept", "*/*");
    headers.forEach(b::header);
    b = out == null ? b.method("HEAD", HttpRequest.BodyPublishers.noBody()) : b.GET();
    try {
      HttpResponse<java.io.InputStream> response = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (java.io.InputStream in = response.body()) {
        if (response.statusCode() / 100 != 2) {
          byte[] error = in.readAllBytes();
          throw failure(response.statusCode(), error.length == 0 ? JSON.createObjectNode() : JSON.readTree(error));
        }
        if (out != null) {
          onLength.accept(response.headers().firstValueAsLong("Content-Length").orElse(0));
          in.transferTo(out);
        }
        return new RawAnswer(response.statusCode(), response.headers());
      }
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** {@code PUT} of a raw body ({@code application/octet-stream}), the answer read as {@code type}. */
  <T> T putRaw(String path, HttpRequest.BodyPublisher body, Map<String, String> headers, Class<T> type) {
    HttpRequest.Builder b = request(path).header("Content-Type", "application/octet-stream");
    headers.forEach(b::header);
    return send(b.PUT(body), type);
  }

  /** {@code DELETE} with headers, the answer read as {@code type}. */
  <T> T delete(String path, Map<String, String> headers, Class<T> type) {
    HttpRequest.Builder b = request(path);
    headers.forEach(b::header);
    return send(b.DELETE(), type);
  }

  <T> T postNdjson(String path, HttpRequest.BodyPublisher body, Class<T> type) {
    return send(request(path).header("Content-Type", "application/x-ndjson").POST(body), type);
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", "application/json");
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return b;
  }

  private <T> T send(HttpRequest.Builder request, Class<T> type) {
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
    try {
      if (response.statusCode() / 100 == 2) {
        return JSON.readValue(response.body(), type);
      }
      throw failure(response.statusCode(), JSON.readTree(response.body()));
    } catch (IOException e) {
      throw new IllegalStateException("unexpected answer from " + base + " (HTTP " + response.statusCode() + "): "
          + new String(response.body(), StandardCharsets.UTF_8), e);
    }
  }

  /**
   * The server did not answer: the message names the URL and why (the JDK client's
   * {@code ConnectException} carries no message of its own, which printed "cannot reach …: null").
   * Exit code 1 ({@link ExitCodes#ERROR}), as for any failed command.
   */
  private UncheckedIOException unreachable(IOException e) {
    return new UncheckedIOException("cannot reach " + base + ": " + reason(e), e);
  }

  /** Why a connection failed, in words, from the exception types in the chain. */
  static String reason(IOException e) {
    int depth = 0;
    for (Throwable c = e; c != null && depth < 16; c = c.getCause(), depth++) {
      if (c instanceof java.net.http.HttpConnectTimeoutException) {
        return "connection timed out (no answer within " + CONNECT_TIMEOUT.toSeconds() + " s)";
      }
      if (c instanceof java.net.http.HttpTimeoutException) {
        return "the server did not answer in time";
      }
      if (c instanceof java.nio.channels.UnresolvedAddressException || c instanceof java.net.UnknownHostException) {
        return "unknown host";
      }
      if (c instanceof java.net.NoRouteToHostException) {
        return "no route to host";
      }
      if (c instanceof java.net.ConnectException) {
        return "connection refused (is the server running?)";
      }
    }
    for (Throwable c = e; c != null && depth < 32; c = c.getCause(), depth++) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        return c.getMessage();
      }
    }
    return "the connection failed";
  }

  /** The engine outcome an {@code ErrorOutput} body reports. */
  static RuntimeException failure(int status, JsonNode error) {
    String message = error.path("error").asText("HTTP " + status);
    JsonNode d;
    if ((d = error.get("key_conflict")) != null && !d.isNull()) {
      return new KeyConflict(d.path("entity_kind").asText() + ":" + d.path("type_name").asText(),
          d.path("entity_id").asText(null));
    }
    if ((d = error.get("read_set_conflict")) != null && !d.isNull()) {
      return new ReadSetChanged(dev.omnigraph.api.ReadSetMember.parse(d.path("member").asText()), text(d, "expected"), text(d, "actual"));
    }
    if ((d = error.get("precondition_failure")) != null && !d.isNull()) {
      return new PreconditionFailed(d.path("expected").asText(), text(d, "actual"));
    }
    if ((d = error.get("resource_limit")) != null && !d.isNull()) {
      return new ResourceLimitExceeded(d.path("resource").asText(), d.path("limit").asLong(), d.path("actual").asLong());
    }
    if ((d = error.get("merge_conflicts")) != null && d.isArray() && !d.isEmpty()) {
      java.util.List<dev.omnigraph.api.MergeConflict> conflicts = new java.util.ArrayList<>();
      for (JsonNode c : d) {
        conflicts.add(new dev.omnigraph.api.MergeConflict(mergeKind(c.path("kind").asText()),
            c.path("entity_kind").asText(), c.path("type_name").asText(), text(c, "entity_id").orElse(null),
            c.path("message").asText()));
      }
      return new dev.omnigraph.api.MergeConflicts(conflicts);
    }
    if ((d = error.get("change_diff_refusal")) != null && !d.isNull()) {
      String reason = d.path("reason").asText();
      for (dev.omnigraph.api.ChangeDiffRefused.Reason r : dev.omnigraph.api.ChangeDiffRefused.Reason.values()) {
        if (r.wire().equals(reason)) {
          return new dev.omnigraph.api.ChangeDiffRefused(r, d.path("graph_commit_id").asText(), text(d, "type_name"),
              message);
        }
      }
    }
    if ((d = error.get("change_feed_gap")) != null && !d.isNull()) {
      return new dev.omnigraph.api.ChangeFeedGap(d.path("first_unreadable_commit_id").asText(), message);
    }
    if ((d = error.get("recovery_required")) != null && !d.isNull()) {
      // The server's message already ends with the operation id the exception appends again.
      String op = d.path("operation_id").asText();
      String suffix = " (recovery required for operation " + op + ")";
      return new RecoveryRequired(op, message.endsWith(suffix)
          ? message.substring(0, message.length() - suffix.length()) : message);
    }
    return switch (status) {
      case 400, 413, 415 -> new InvalidRequest(message);
      case 409 -> new Conflict(message);
      // The admission limit: the same exit code (3, retry later) as a local outcome of its kind.
      case 429 -> new dev.omnigraph.api.TooManyRequests(message, 0, 1);
      default -> new RemoteError(status, message);
    };
  }

  /** An answer with no engine outcome to rebuild (404, 401, 5xx): the server's message and status. */
  static final class RemoteError extends RuntimeException {
    RemoteError(int status, String message) {
      super(message + " (HTTP " + status + ")");
    }
  }

  private static dev.omnigraph.api.MergeConflict.Kind mergeKind(String wire) {
    for (dev.omnigraph.api.MergeConflict.Kind k : dev.omnigraph.api.MergeConflict.Kind.values()) {
      if (k.wire().equals(wire)) {
        return k;
      }
    }
    throw new IllegalStateException("the server answered an unknown merge conflict kind '" + wire + "'");
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v.asText());
  }
}
