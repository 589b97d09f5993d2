package dev.omnigraph.engine;

import dev.omnigraph.api.recovery.Outcome;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * A child JVM for the crash tests: opens the graph at a root read-write (which runs the full
 * recovery sweep) and performs one operation, normally until a failpoint enabled through
 * {@code -Domnigraph.failpoints=<name>=exit} halts it with exit code 137, or until the parent kills
 * it.
 *
 * <p>Usage: {@code CrashChild <rootUri> <op> <args…>}
 * <ul>
 *   <li>{@code open}: only the read-write open (and its recovery sweep), then close;
 *   <li>{@code load <branch> <ndjson line>…}: one append load of the given lines;
 *   <li>{@code mutate <branch> <name> <params json>}: one mutation of {@code graphs/people.gq};
 *   <li>{@code optimize <branch>}: one explicit {@code Omnigraph.optimize} of the branch;
 *   <li>{@code ensure <branch>}: one {@code Omnigraph.ensureIndices} of the branch;
 *   <li>{@code revert <branch> <commit>}: one {@code Omnigraph.revert} of the branch to the commit;
 *   <li>{@code soak <branch> <prefix> <first>}: {@code add_person} in a loop with the names
 *       {@code <prefix><n>}, {@code n = first, first+1, …}, printing {@code ACK <name>} (flushed)
 *       after each returned write;
 *   <li>{@code soak2 <branch> <prefix>}: two writer threads at once until killed: one runs
 *       {@code add_person} with the names {@code <prefix>m<n>} and prints {@code ACK m <name>}, the
 *       other appends 20-row loads {@code <prefix>l<batch>-<i>} and prints {@code ACK l <batch>};
 *       a write refused with a conflict (no effect) is retried with the same names, so each
 *       writer's visible writes stay a prefix of its order.
 * </ul>
 * The graph's connection settings come from the environment ({@link StorageConfig#fromEnvironment}:
 * {@code AWS_ENDPOINT}, {@code AWS_REGION}, {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY},
 * {@code AWS_ALLOW_HTTP}), the same variables Lance's branch creation reads from the process
 * environment; a local root ignores them. Exit codes: 0 done, 2 usage, 3 failed.
 */
public final class CrashChild {

  /** The actor of every write the child makes. */
  public static final String ACTOR = "act-crash";

  private CrashChild() {}

  public static void main(String[] args) {
    PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
        StandardCharsets.UTF_8);
    if (args.length < 2) {
      out.println("usage: CrashChild <rootUri> open|load|mutate|soak <args…>");
      System.exit(2);
    }
    // The parent passes the failpoint to halt at as -Domnigraph.failpoints=<name>=exit: the shipped code
    // has no such switch, only this test main reads it.
    dev.omnigraph.util.FailpointControl.enableSpec(System.getProperty("omnigraph.failpoints"));
    int code;
    try {
      StorageConfig config = StorageConfig.fromEnvironment(args[0]);
      code = args[1].equals("warmup") ? warmup(out, config)
          : run(out, config, args[1], Arrays.copyOfRange(args, 2, args.length));
    } catch (Throwable t) {
      out.println("FAILED " + t);
      t.printStackTrace(out);
      code = 3;
    }
    out.flush();
    // Lance may leave non-daemon threads behind; the outcome is decided.
    System.exit(code);
  }

  private static int run(PrintStream out, StorageConfig config, String op, String[] a) throws IOException {
    ObjectMapper json = new ObjectMapper();
    try (Omnigraph graph = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      for (Outcome o : graph.openRecovery()) {
        out.println("RECOVERED " + o.operationId() + " " + o.auditKind());
      }
      out.println("OPEN");
      switch (op) {
        case "open" -> {
          return 0;
        }
        case "load" -> {
          String ndjson = String.join("\n", Arrays.copyOfRange(a, 1, a.length));
          WriteResult r = graph.load(a[0], new StringReader(ndjson), LoadMode.APPEND, Optional.of(ACTOR));
          out.println("DONE " + r.commitId().orElse("-"));
          return 0;
        }
        case "mutate" -> {
          WriteResult r = graph.mutate(a[0], gq(), a[1], json.readTree(a[2]), Optional.of(ACTOR), Optional.empty());
          out.println("DONE " + r.commitId().orElse("-"));
          return 0;
        }
        case "merge" -> {
          dev.omnigraph.api.BranchMergeOutput r = graph.branchMerge(a[0], a[1], false, Optional.of(ACTOR));
          out.println("DONE " + r.outcome().wire() + " " + r.commitId());
          return 0;
        }
        case "schema" -> {
          String desired = java.nio.file.Files.readString(java.nio.file.Path.of(a[0]));
          dev.omnigraph.api.SchemaApplyOutput r = graph.schemaApply(desired, Boolean.parseBoolean(a[1]),
              Optional.of(ACTOR));
          out.println("DONE " + r.graphCommitId());
          return 0;
        }
        case "ensure" -> {
          dev.omnigraph.api.EnsureIndicesOutput r = graph.ensureIndices(a[0], Optional.of(ACTOR));
          out.println("DONE " + r.graphCommitId());
          return 0;
        }
        case "revert" -> {
          dev.omnigraph.api.RevertOutput r = graph.revert(a[0], a[1], Optional.of(ACTOR), Optional.empty());
          out.println("DONE " + r.graphCommitId());
          return 0;
        }
        case "optimize" -> {
          dev.omnigraph.api.maintenance.OptimizeReport r = graph.optimize(a[0]);
          out.println("DONE " + r.commitId().orElse("-"));
          return 0;
        }
        case "soak" -> {
          String source = gq();
          String branch = a[0];
          String prefix = a[1];
          for (long n = Long.parseLong(a[2]); ; n++) {
            String name = soakName(prefix, n);
            graph.mutate(branch, source, "add_person", json.createObjectNode().put("name", name), Optional.of(ACTOR),
                Optional.empty());
            out.println("ACK " + name);
            out.flush();
          }
        }
        case "soak2" -> {
          return soak2(out, graph, a[0], a[1]);
        }
        case "hold" -> {
          return hold(out, graph, a[0]);
        }
        default -> {
          out.println("unknown op " + op);
          return 2;
        }
      }
    }
  }

  /**
   * {@code warmup}: creates the graph at the (empty) root and runs each kind of operation the crash
   * tests give a child once, then exits normally: the run that dumps the children's shared class
   * archive ({@code dev.omnigraph.testing.ChildJvm#launch}), so it should load what they load.
   */
  private static int warmup(PrintStream out, StorageConfig config) throws IOException {
    ObjectMapper json = new ObjectMapper();
    String source = gq();
    String schema;
    try (InputStream in = CrashChild.class.getResourceAsStream("/graphs/people.pg")) {
      schema = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Optional<String> actor = Optional.of(ACTOR);
    try (Omnigraph g = Omnigraph.init(config, schema, actor)) {
      out.println("INIT");
    }
    try (Omnigraph graph = Omnigraph.open(config, OpenMode.READ_WRITE)) {
      graph.openRecovery();
      graph.load("main", new StringReader(String.join("\n",
          "{\"type\":\"Person\",\"data\":{\"name\":\"ann\",\"age\":30}}",
          "{\"type\":\"Company\",\"data\":{\"name\":\"initech\"}}",
          "{\"edge\":\"WorksAt\",\"from\":\"ann\",\"to\":\"initech\",\"data\":{\"role\":\"ops\"}}")),
          LoadMode.APPEND, actor);
      graph.mutate("main", source, "add_pair", json.readTree("{\"a\":\"cat\",\"b\":\"dan\",\"since\":2024}"),
          actor, Optional.empty());
      // Before the branch: a schema apply needs a graph with main only.
      graph.schemaApply(schema.replace("  founded: Date?\n", "  founded: Date?\n  city: String?\n"), true, actor);
      graph.branchCreate("src", "main", actor);
      graph.mutate("src", source, "add_person", json.createObjectNode().put("name", "eve"), actor, Optional.empty());
      graph.branchMerge("src", "main", false, actor);
      graph.ensureIndices("main", actor);
      graph.optimize("main");
    }
    // The S3 children's client classes (AWS SDK, S3StorageAdapter) up to their first request,
    // against a port nothing listens on: the warm-up needs no S3 server.
    StorageConfig s3 = StorageConfig.fromEnvironment("s3://cds-warmup/g", java.util.Map.of(
        "AWS_ENDPOINT", "http://127.0.0.1:9", "AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "warmup",
        "AWS_SECRET_ACCESS_KEY", "warmup", "AWS_ALLOW_HTTP", "true"));
    try (Omnigraph graph = Omnigraph.open(s3, OpenMode.READ_WRITE)) {
      out.println("UNEXPECTED open of " + s3.rootUri());
    } catch (RuntimeException expected) {
      out.println("S3 " + expected.getClass().getSimpleName());
    }
    out.println("DONE warmup");
    return 0;
  }

  /**
   * {@code hold <branch>}: keeps the read-write handle (and so the writer lease) open and runs the
   * commands the parent writes to stdin, one per line: {@code mutate <name>} runs {@code add_person}
   * and prints {@code ACK <name>}, or {@code REFUSED <exception class> <message>} when the write
   * failed; {@code pair <a> <b>} runs {@code add_pair} (two people and their edge, one commit); {@code close} (or the end of stdin) closes the handle and ends.
   */
  private static int hold(PrintStream out, Omnigraph graph, String branch) throws IOException {
    ObjectMapper json = new ObjectMapper();
    String source = gq();
    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    for (String line; (line = in.readLine()) != null; ) {
      String[] cmd = line.trim().split(" ", 2);
      if (cmd[0].equals("close")) {
        break;
      }
      if (cmd[0].equals("pair")) {
        // add_pair: two people and the edge between them, one commit
        String[] names = cmd[1].split(" ");
        graph.mutate(branch, source, "add_pair", json.createObjectNode().put("a", names[0]).put("b", names[1]),
            Optional.of(ACTOR), Optional.empty());
        out.println("ACK " + cmd[1]);
        continue;
      }
      if (cmd[0].equals("mutate")) {
        try {
          graph.mutate(branch, source, "add_person", json.createObjectNode().put("name", cmd[1]),
              Optional.of(ACTOR), Optional.empty());
          out.println("ACK " + cmd[1]);
        } catch (RuntimeException e) {
          out.println("REFUSED " + e.getClass().getName() + " " + e.getMessage());
        }
      }
    }
    return 0;
  }

  /** Rows per load of the two-writer soak. */
  static final int SOAK2_LOAD_ROWS = 20;

  /** The two-writer soak's {@code n}-th mutation name. */
  static String soak2MutationName(String prefix, long n) {
    return prefix + "m" + String.format("%06d", n);
  }

  /** The {@code i}-th row name of the two-writer soak's {@code batch}-th load. */
  static String soak2LoadName(String prefix, long batch, int i) {
    return prefix + "l" + String.format("%06d-%02d", batch, i);
  }

  private static int soak2(PrintStream out, Omnigraph graph, String branch, String prefix) throws IOException {
    String source = gq();
    ObjectMapper json = new ObjectMapper();
    java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
    Thread mutations = new Thread(() -> {
      for (long n = 0; failed.get() == null; n++) {
        String name = soak2MutationName(prefix, n);
        retryConflicts(out, () -> graph.mutate(branch, source, "add_person", json.createObjectNode().put("name", name),
            Optional.of(ACTOR), Optional.empty()));
        synchronized (out) {
          out.println("ACK m " + name);
          out.flush();
        }
      }
    }, "soak2-mutations");
    Thread loads = new Thread(() -> {
      for (long batch = 0; failed.get() == null; batch++) {
        StringBuilder ndjson = new StringBuilder();
        for (int i = 0; i < SOAK2_LOAD_ROWS; i++) {
          ndjson.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(soak2LoadName(prefix, batch, i))
              .append("\"}}\n");
        }
        long b = batch;
        retryConflicts(out, () -> graph.load(branch, new StringReader(ndjson.toString()), LoadMode.APPEND,
            Optional.of(ACTOR)));
        synchronized (out) {
          out.println("ACK l " + b);
          out.flush();
        }
      }
    }, "soak2-loads");
    Thread.UncaughtExceptionHandler onFailure = (t, e) -> {
      failed.compareAndSet(null, e);
      synchronized (out) {
        out.println("FAILED " + t.getName() + " " + e);
        e.printStackTrace(out);
        out.flush();
      }
    };
    mutations.setUncaughtExceptionHandler(onFailure);
    loads.setUncaughtExceptionHandler(onFailure);
    mutations.start();
    loads.start();
    try {
      mutations.join();
      loads.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return 3;
  }

  /** Repeats a write refused with a conflict (nothing landed); anything else propagates. */
  private static void retryConflicts(PrintStream out, java.util.function.Supplier<?> write) {
    while (true) {
      try {
        write.get();
        return;
      } catch (dev.omnigraph.api.ReadSetChanged | dev.omnigraph.api.Conflict e) {
        synchronized (out) {
          out.println("RETRY " + Thread.currentThread().getName() + " " + e.getClass().getSimpleName());
        }
      }
    }
  }

  /** The soak's {@code n}-th name: zero-padded so names sort in write order. */
  static String soakName(String prefix, long n) {
    return prefix + String.format("%06d", n);
  }

  private static String gq() throws IOException {
    try (InputStream in = CrashChild.class.getResourceAsStream("/graphs/people.gq")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
