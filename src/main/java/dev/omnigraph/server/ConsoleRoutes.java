package dev.omnigraph.server;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The web console (docs/console.md) is static files under {@code META-INF/resources/ui/}, served
 * at {@code /ui/} with the policy headers of application.properties. Its pages load their scripts
 * by relative paths, so the bare {@code /ui} is sent to {@code /ui/} (an exact-path regex: a plain
 * route for "/ui" would also match "/ui/" and loop).
 */
@ApplicationScoped
class ConsoleRoutes {

  void route(@Observes Router router) {
    router.routeWithRegex("^/ui$").handler(rc -> rc.response().setStatusCode(302).putHeader("Location", "/ui/").end());
  }
}
