package dev.omnigraph.cli;

import dev.omnigraph.api.lease.BrokenLease;
import dev.omnigraph.api.lease.LeaseDocument;
import dev.omnigraph.api.lease.LeaseUnreadable;
import dev.omnigraph.api.lease.LeaseView;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.engine.RootContents;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code omnigraph lease show|break}: the operator's view of a graph's writer lease
 * ({@code __lease.json}, {@code docs/lease.md}). {@code show} only reads. {@code break --force}
 * deletes the lease as read, live or not; without {@code --force} it explains the risk and changes
 * nothing (exit 2).
 */
@Command(name = "lease", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph lease show --store ./g", description = "Show or break the graph's writer lease (docs/lease.md).",
    subcommands = {LeaseCommand.Show.class, LeaseCommand.Break.class})
public class LeaseCommand {

  /** Why breaking needs --force, printed when it is missing and after a live lease was broken. */
  static final String RISK = "breaking a live holder's lease lets a second writer into the graph beside it: the"
      + " single-writer boundary the lease enforces is gone until the old holder notices at its next renewal"
      + " (within its renew interval) and stops. Break only a lease whose holder is dead or stopped; a dead"
      + " holder's lease is also taken over by the next writer once it expires.";

  @Command(name = "show", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph lease show --json --store ./g", description = "Print who holds the writer lease, since when, and whether it is live.")
  static class Show implements Callable<Integer> {
    @Mixin StoreOptions graph;

    @Option(names = "--json", description = "Print the lease as JSON.")
    boolean json;

    @Override
    public Integer call() {
      StorageConfig config = graph.config(null);
      try (RootContents root = RootContents.open(config)) {
        Optional<LeaseView> view;
        try {
          view = root.lease();
        } catch (LeaseUnreadable e) {
          return unreadable(config, e);
        }
        if (json) {
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("store", config.rootUri());
          out.put("held", view.isPresent() && !view.get().expired());
          view.ifPresent(v -> describe(out, v));
          Output.json(out);
        } else if (view.isEmpty()) {
          System.out.println("no writer lease on " + config.rootUri() + ": no process holds it");
        } else {
          print(config, view.get());
        }
        return ExitCodes.OK;
      }
    }

    private int unreadable(StorageConfig config, LeaseUnreadable e) {
      if (json) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("store", config.rootUri());
        out.put("held", null);
        out.put("unreadable", e.reason());
        out.put("content", e.content());
        Output.json(out);
      } else {
        System.out.println("content of " + LeaseDocument.KEY + ":");
        System.out.println(e.content());
      }
      System.err.println("error: " + e.getMessage());
      return ExitCodes.ERROR;
    }
  }

  @Command(name = "break", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph lease break --force --store ./g", description = "Delete the writer lease so the next writer acquires it at once."
      + " Needs --force: breaking a live lease lets a second writer in.")
  static class Break implements Callable<Integer> {
    @Mixin StoreOptions graph;

    @Option(names = "--force", description = "Really delete it, live or not (see the risk in docs/lease.md).")
    boolean force;

    @Override
    public Integer call() {
      StorageConfig config = graph.config(null);
      if (!force) {
        System.err.println("error: lease break refuses without --force; nothing was changed.");
        System.err.println("Risk: " + RISK);
        System.err.println("Check the holder first: omnigraph lease show --store " + config.rootUri());
        return ExitCodes.USAGE;
      }
      try (RootContents root = RootContents.open(config)) {
        Optional<BrokenLease> broken = root.breakLease();
        if (broken.isEmpty()) {
          System.out.println("no writer lease on " + config.rootUri() + ": nothing to break");
          return ExitCodes.OK;
        }
        Optional<LeaseView> view = broken.get().view();
        if (view.isEmpty()) {
          System.out.println("broke the unreadable writer lease of " + config.rootUri() + "; it held:");
          System.out.println(broken.get().content());
        } else {
          LeaseDocument d = view.get().document();
          System.out.println("broke the writer lease of " + config.rootUri() + " held by " + holder(d)
              + (view.get().expired() ? " (expired at " + d.expiresAt() + ")" : " (it was LIVE)"));
          if (!view.get().expired()) {
            System.err.println("warning: " + RISK);
          }
        }
        return ExitCodes.OK;
      }
    }
  }

  private static String holder(LeaseDocument d) {
    return d.ownerId() + " (" + d.host() + " pid " + d.pid() + ") since " + d.acquiredAt();
  }

  private static void print(StorageConfig config, LeaseView v) {
    LeaseDocument d = v.document();
    System.out.println("writer lease of " + config.rootUri() + ": " + (v.expired() ? "EXPIRED" : "live"));
    System.out.println("  held by   " + holder(d));
    System.out.println("  renewed   " + d.renewedAt());
    System.out.println("  ttl       " + d.ttlMs() + " ms");
    Duration left = Duration.between(v.readAt(), d.expiresAt());
    System.out.println("  expires   " + d.expiresAt() + (v.expired()
        ? " (" + left.negated().toMillis() + " ms ago: the next writer takes it over)"
        : " (in " + left.toMillis() + " ms unless renewed)"));
  }

  private static void describe(Map<String, Object> out, LeaseView v) {
    LeaseDocument d = v.document();
    out.put("expired", v.expired());
    out.put("format_version", d.formatVersion());
    out.put("owner_id", d.ownerId());
    out.put("host", d.host());
    out.put("pid", d.pid());
    out.put("acquired_at", d.acquiredAt().toString());
    out.put("renewed_at", d.renewedAt().toString());
    out.put("ttl_ms", d.ttlMs());
    out.put("expires_at", d.expiresAt().toString());
    out.put("read_at", v.readAt().toString());
  }
}
