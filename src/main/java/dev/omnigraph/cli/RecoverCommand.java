package dev.omnigraph.cli;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.recovery.Recovery;
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
 * was settled. Exit 0 when nothing is left pending, 3 when recovery refuses a sidecar (it is kept).
 */
@Command(name = "recover", description = "Settle pending recovery sidecars (roll forward or roll back) and"
    + " print what was settled.")
public class RecoverCommand implements Callable<Integer> {

  @Mixin GraphOptions graph;

  @Option(names = "--json", description = "Print the outcomes as JSON.")
  boolean json;

  @Parameters(index = "0", arity = "0..1", paramLabel = "URI", description = "Graph root (or --store).")
  String positional;

  @Override
  public Integer call() {
    try (Omnigraph g = Omnigraph.open(graph.config(positional), OpenMode.READ_WRITE)) {
      List<Recovery.Outcome> atOpen = g.openRecovery();
      List<Recovery.Outcome> now = g.recover();
      List<String> pending = g.pendingRecovery();
      if (json) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("store", g.config().rootUri());
        out.put("settled_at_open", wire(atOpen));
        out.put("settled", wire(now));
        out.put("pending", pending);
        Output.json(out);
      } else {
        List<Recovery.Outcome> all = new ArrayList<>(atOpen);
        all.addAll(now);
        if (all.isEmpty()) {
          System.out.println("nothing to recover");
        }
        all.forEach(o -> System.out.printf("%s %s on %s: %s (%s)%n", o.operationId(), o.writerKind(), o.branch(),
            o.auditKind() == null ? o.action() : o.auditKind(), o.verdict()));
        pending.forEach(p -> System.out.println("still pending: " + p));
      }
      if (!pending.isEmpty()) {
        System.err.println("error: " + pending.size() + " recovery sidecar(s) are still pending: " + pending);
        return ExitCodes.CONFLICT;
      }
    }
    return ExitCodes.OK;
  }

  /** The outcomes in the CLI's snake_case JSON. */
  private static List<Map<String, Object>> wire(List<Recovery.Outcome> outcomes) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Recovery.Outcome o : outcomes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("operation_id", o.operationId());
      m.put("writer_kind", o.writerKind());
      m.put("branch", o.branch());
      m.put("verdict", o.verdict().name());
      m.put("action", o.action().name());
      m.put("audit_kind", o.auditKind());
      List<Map<String, Object>> tables = new ArrayList<>();
      for (Recovery.TableOutcome t : o.tables()) {
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
