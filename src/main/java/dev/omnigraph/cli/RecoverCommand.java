package dev.omnigraph.cli;

import dev.omnigraph.api.QuarantinedSidecar;
import dev.omnigraph.api.recovery.Outcome;
import dev.omnigraph.api.recovery.TableOutcome;
import dev.omnigraph.api.recovery.Action;
import dev.omnigraph.api.recovery.Verdict;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.RootContents;
import dev.omnigraph.api.UnreadableSidecar;
import dev.omnigraph.api.storage.StorageConfig;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code omnigraph recover}: settles every pending recovery sidecar now — the read-write open runs
 * the full sweep, then a quiesced {@link Omnigraph#recover()} settles anything left — and prints what
 * was settled. Exit 0 when nothing is left pending, 3 when recovery refuses a sidecar (it is kept),
 * 1 when a sidecar cannot be read (each one is named with the quarantine command for it).
 *
 * <p>{@code omnigraph recover --quarantine OPERATION_ID}: the exit for a sidecar recovery cannot read
 * (corrupt, empty, another format version) or refuses (a foreign commit on a table it owns, a HEAD
 * behind its pin). Prints what it holds, then moves it to {@code __recovery_quarantine/<id>.json};
 * refuses with exit 1, changing nothing, when recovery would settle the sidecar (plain
 * {@code recover} does). Settles nothing itself.
 */
@Command(name = "recover", mixinStandardHelpOptions = true, footerHeading = RootCommand.EXAMPLE,
    footer = "  omnigraph recover --store ./g", description = "Settle pending recovery sidecars (roll forward or roll back) and"
    + " print what was settled; --quarantine moves aside a sidecar recovery cannot read or refuses.")
public class RecoverCommand implements Callable<Integer> {

  @Mixin StoreOptions graph;

  @Option(names = "--json", description = "Print the outcomes as JSON.")
  boolean json;

  @Option(names = "--quarantine", paramLabel = "OPERATION_ID",
      description = "Print what the sidecar __recovery/OPERATION_ID.json holds and move it to"
          + " __recovery_quarantine/, when recovery cannot read it or refuses it (then run repair --apply);"
          + " refused when recovery would settle it. Settles nothing itself.")
  String quarantine;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  /** Content shown of a quarantined sidecar; the whole file stays in the quarantine copy. */
  static final int SHOWN_CHARS = 4000;

  @Override
  public Integer call() {
    StorageConfig config = graph.config(positional);
    if (quarantine != null) {
      return quarantine(config);
    }
    try {
      return recover(config);
    } catch (UnreadableSidecar e) {
      return unreadable(config, e);
    }
  }

  private int quarantine(StorageConfig config) {
    QuarantinedSidecar moved = RootContents.quarantineSidecar(config, quarantine, q -> {
      if (!json) {
        System.out.println("recovery sidecar " + q.key() + ": " + q.reason());
        System.out.println("content (" + q.content().length + " bytes):");
        String text = new String(q.content(), StandardCharsets.UTF_8);
        System.out.println(shown(text));
        if (text.length() > SHOWN_CHARS) {
          System.out.println("... (" + (text.length() - SHOWN_CHARS) + " more characters; the whole file is kept)");
        }
      }
    });
    if (json) {
      String text = new String(moved.content(), StandardCharsets.UTF_8);
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("store", config.rootUri());
      out.put("sidecar", moved.key());
      out.put("quarantined_to", moved.quarantineKey());
      out.put("reason", moved.reason());
      out.put("bytes", moved.content().length);
      out.put("content", text.length() > SHOWN_CHARS ? text.substring(0, SHOWN_CHARS) : text);
      out.put("content_truncated", text.length() > SHOWN_CHARS);
      Output.json(out);
    } else {
      System.out.println("quarantined: moved " + moved.key() + " to " + moved.quarantineKey()
          + "; it no longer blocks writes. Next: omnigraph repair --apply (restores any table its"
          + " unpublished effect left ahead of the published version).");
    }
    return ExitCodes.OK;
  }

  /** The first {@link #SHOWN_CHARS} characters, control characters other than newline and tab escaped. */
  static String shown(String text) {
    String head = text.length() > SHOWN_CHARS ? text.substring(0, SHOWN_CHARS) : text;
    if (head.isEmpty()) {
      return "(empty file)";
    }
    StringBuilder b = new StringBuilder(head.length());
    head.codePoints().forEach(c -> {
      if ((Character.isISOControl(c) && c != '\n' && c != '\t') || c == 0xFFFD) {
        b.append(c == 0xFFFD ? "\\ufffd" : String.format("\\u%04x", c));
      } else {
        b.appendCodePoint(c);
      }
    });
    return b.toString();
  }

  /** An unreadable sidecar blocks recovery: name every one, each with its quarantine command. */
  private static int unreadable(StorageConfig config, UnreadableSidecar first) {
    List<UnreadableSidecar> all;
    try (RootContents contents = RootContents.open(config)) {
      all = contents.unreadableSidecars();
    } catch (RuntimeException e) {
      all = List.of(first);
    }
    if (all.isEmpty()) {
      all = List.of(first);
    }
    for (UnreadableSidecar u : all) {
      System.err.println("error: recovery sidecar " + u.key() + " cannot be read: " + u.reason());
    }
    System.err.println("recovery cannot settle an unreadable sidecar and writes stay blocked while it exists;"
        + " inspect each and move it aside with:");
    for (UnreadableSidecar u : all) {
      System.err.println("  omnigraph recover --quarantine " + u.operationId() + " --store " + config.rootUri());
    }
    return ExitCodes.ERROR;
  }

  private int recover(StorageConfig config) {
    try (Omnigraph g = graph.open(config, OpenMode.READ_WRITE)) {
      List<Outcome> atOpen = g.openRecovery();
      List<Outcome> now = g.recover(graph.actor());
      List<String> pending = g.pendingRecovery();
      if (json) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("store", g.config().rootUri());
        out.put("settled_at_open", wire(atOpen));
        out.put("settled", wire(now));
        out.put("pending", pending);
        Output.json(out);
      } else {
        List<Outcome> all = new ArrayList<>(atOpen);
        all.addAll(now);
        if (all.isEmpty()) {
          System.out.println("nothing to recover");
        }
        all.forEach(o -> System.out.print(describe(o)));
        pending.forEach(p -> System.out.println("still pending: " + p));
      }
      if (!pending.isEmpty()) {
        System.err.println("error: " + pending.size() + " recovery sidecar(s) are still pending: " + pending);
        return ExitCodes.CONFLICT;
      }
    }
    return ExitCodes.OK;
  }

  /**
   * One settled sidecar for a person (docs/recovery.md: "says what it found and what it will do"): a header
   * line naming the write, what recovery found, what it did, then one line per table with its
   * version move, and the audit row written.
   */
  static String describe(Outcome o) {
    StringBuilder b = new StringBuilder();
    b.append(o.operationId()).append(' ').append(o.writerKind()).append(" on ").append(o.branch()).append('\n');
    b.append("  found: ").append(found(o.verdict())).append(" (").append(o.verdict()).append(")\n");
    b.append("  did:   ").append(did(o)).append('\n');
    for (TableOutcome t : o.tables()) {
      b.append("    ").append(t.tableKey());
      if (t.tableClass() != null) {
        b.append(' ').append(t.tableClass());
      }
      b.append(": ").append(t.action().replace('_', ' '));
      if (t.fromVersion() != t.toVersion()) {
        b.append(" v").append(t.fromVersion()).append(" -> v").append(t.toVersion());
      } else if (t.fromVersion() > 0) {
        b.append(" at v").append(t.fromVersion());
      }
      b.append('\n');
    }
    if (o.auditKind() != null) {
      b.append("  audit: ").append(o.auditKind()).append(", one row in _graph_commit_recoveries.lance\n");
    }
    return b.toString();
  }

  /** What recovery found, by verdict (docs/recovery.md's table, in words). */
  private static String found(Verdict v) {
    return switch (v) {
      case ALREADY_PUBLISHED -> "the write's commit is already published";
      case ROLLBACK_PUBLISHED -> "the write's rollback is already published";
      case ROLL_FORWARD -> "the write's effects landed and were confirmed, but were not yet published";
      case NO_EFFECT -> "the write moved no table";
      case INCOMPLETE_PHASE_B -> "the write changed tables but never confirmed its effects";
      case AUTHORITY_CHANGED -> "the write's effects were confirmed, but its branch moved on before they were published";
      case ORPHANED -> "the write's branch was deleted or re-created since";
      case FOREIGN_EFFECT -> "a table the write owns was moved by another commit";
      case INVARIANT_VIOLATION -> "a table is behind its published version";
    };
  }

  /** What recovery did about it. */
  private static String did(Outcome o) {
    if (o.action() == Action.DEFERRED) {
      return "nothing yet: a rollback waits for a quiesced recovery (this command runs one next)";
    }
    if (o.action() == Action.SKIPPED) {
      return "nothing: kept for an operator";
    }
    String kind = o.auditKind() == null ? "" : o.auditKind();
    return switch (kind) {
      case "RolledForward" -> "rolled forward: the write is published and visible; the sidecar is retired";
      case "RolledBack" -> "rolled back: the tables are restored to their published versions and the graph reads as"
          + " before the write; the sidecar is retired. Retry the write.";
      case "Discarded" -> "discarded the sidecar: the graph is as before the write. Retry the write.";
      case "OrphanDiscarded" -> "discarded the sidecar and reclaimed the refs it created";
      default -> "settled (" + (kind.isEmpty() ? o.action() : kind) + "); the sidecar is retired";
    };
  }

  /** The outcomes in the CLI's snake_case JSON. */
  private static List<Map<String, Object>> wire(List<Outcome> outcomes) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Outcome o : outcomes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("operation_id", o.operationId());
      m.put("writer_kind", o.writerKind());
      m.put("branch", o.branch());
      m.put("verdict", o.verdict().name());
      m.put("action", o.action().name());
      m.put("audit_kind", o.auditKind());
      List<Map<String, Object>> tables = new ArrayList<>();
      for (TableOutcome t : o.tables()) {
        Map<String, Object> tm = new LinkedHashMap<>();
        tm.put("table_key", t.tableKey());
        tm.put("class", t.tableClass() == null ? null : t.tableClass().name());
        tm.put("action", t.action());
        tm.put("from_version", t.fromVersion());
        tm.put("to_version", t.toVersion());
        tables.add(tm);
      }
      m.put("tables", tables);
      out.add(m);
    }
    return out;
  }
}
