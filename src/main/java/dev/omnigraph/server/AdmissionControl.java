package dev.omnigraph.server;

import dev.omnigraph.api.TooManyRequests;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Per-actor admission control (docs/authorization.md; the reference's admission cap): an actor may have at
 * most {@code omnigraph.admission.max-concurrent-per-actor} (default {@value #DEFAULT_LIMIT}) requests
 * to {@code /graphs} in flight, or its own {@code omnigraph.admission.actors.<actor>}; 0 is unlimited.
 * One more is refused before anything runs: 429 {@code too_many_requests} with
 * {@code Retry-After: 1}. The actor is the matched token's ({@link AuthFilter} runs first); without
 * tokens (Open) every request is anonymous and they share one bucket under the default limit. Health,
 * metrics and OpenAPI are not under {@code /graphs} and are never limited.
 *
 * <p>A request holds its permit until its response has ended, streamed or not, or failed, or its
 * connection closed: Vert.x's end handler of the request, called once for each of those. Rejections
 * are counted by {@code omnigraph.admission.rejections}, labelled by actor class only
 * ({@code anonymous}, {@code default_limit}, {@code own_limit}), never by actor id.
 */
@ApplicationScoped
class AdmissionControl {

  private static final Logger LOG = Logger.getLogger(AdmissionControl.class);
  static final String MAX = "omnigraph.admission.max-concurrent-per-actor";
  static final String ACTORS = "omnigraph.admission.actors";
  static final int DEFAULT_LIMIT = 32;
  static final String REJECTIONS = "omnigraph.admission.rejections";
  /** Seconds a refused caller waits: a request in flight usually ends well within it. */
  static final long RETRY_AFTER_SECONDS = 1;
  /** The bucket of requests without an actor (no tokens configured); not a valid token actor id. */
  private static final String ANONYMOUS = " anonymous";

  /** The limits from configuration. */
  record Limits(int perActor, SortedMap<String, Integer> actors) {

    /**
     * @throws IllegalStateException naming a key whose value is not a whole number of 0 or more
     */
    static Limits from(OmnigraphConfig.Admission admission) {
      SortedMap<String, Integer> actors = new TreeMap<>();
      admission.actors().forEach((actor, v) -> actors.put(actor, parse(ACTORS + "." + actor, v)));
      return new Limits(admission.maxConcurrentPerActor().map(v -> parse(MAX, v)).orElse(DEFAULT_LIMIT), actors);
    }

    private static int parse(String key, String value) {
      try {
        int n = Integer.parseInt(value.strip());
        if (n >= 0) {
          return n;
        }
      } catch (NumberFormatException e) {
        // the message below says what is expected
      }
      throw new IllegalStateException("configuration key " + key + " must be a whole number of concurrent requests,"
          + " 0 or more (0: unlimited); got '" + value + "'");
    }

    /** The limit of {@code actor} (empty: anonymous); 0 is unlimited. */
    int of(Optional<String> actor) {
      return actor.map(a -> actors.getOrDefault(a, perActor)).orElse(perActor);
    }

    /** The bounded metrics label of {@code actor}. */
    String actorClass(Optional<String> actor) {
      return actor.isEmpty() ? "anonymous" : actors.containsKey(actor.get()) ? "own_limit" : "default_limit";
    }
  }

  private final Limits limits;
  /** Requests in flight per actor; one entry per actor that sent one (actors are the configured tokens'). */
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

  @Inject RequestActor actor;
  @Inject MeterRegistry registry;

  @Inject
  AdmissionControl(OmnigraphConfig config) {
    this.limits = Limits.from(config.admission());
  }

  /** Validates the configuration at start (a bad value fails startup naming its key) and logs the limits. */
  void onStart(@Observes StartupEvent event) {
    LOG.infof("admission: at most %s requests in flight per actor%s", limits.perActor() == 0 ? "unlimited"
        : Integer.toString(limits.perActor()), limits.actors().isEmpty() ? "" : "; own limits: " + limits.actors());
  }

  /** After {@link AuthFilter} (which sets the actor or answers 401). */
  @ServerRequestFilter(priority = Priorities.USER + 100)
  void admit(ContainerRequestContext request, RoutingContext http) {
    String path = request.getUriInfo().getPath();
    if (!(path.equals("/graphs") || path.startsWith("/graphs/"))) {
      return;
    }
    Optional<String> who = actor.get();
    int limit = limits.of(who);
    if (limit == 0) {
      return;
    }
    AtomicInteger count = inFlight.computeIfAbsent(who.orElse(ANONYMOUS), k -> new AtomicInteger());
    if (count.incrementAndGet() > limit) {
      count.decrementAndGet();
      Counter.builder(REJECTIONS).description("Requests refused by per-actor admission control (429)")
          .tag("actor_class", limits.actorClass(who)).register(registry).increment();
      throw new TooManyRequests(who.map(a -> "actor '" + a + "'").orElse("anonymous requests") + " already "
          + (who.isPresent() ? "has " : "have ") + limit + " requests in flight (its admission limit); retry after "
          + RETRY_AFTER_SECONDS + " s", limit, RETRY_AFTER_SECONDS);
    }
    AtomicBoolean released = new AtomicBoolean();
    // Ended, failed or closed: Vert.x calls the end handlers once for any of these; the flag makes
    // the release idempotent should a future version call them again.
    http.addEndHandler(done -> {
      if (released.compareAndSet(false, true)) {
        count.decrementAndGet();
      }
    });
  }

  /** Requests in flight of {@code actor} now (empty: anonymous). */
  int inFlight(Optional<String> who) {
    AtomicInteger n = inFlight.get(who.orElse(ANONYMOUS));
    return n == null ? 0 : n.get();
  }
}
