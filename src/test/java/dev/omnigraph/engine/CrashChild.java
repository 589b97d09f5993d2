package dev.omnigraph.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.recovery.Recovery;
import dev.omnigraph.storage.StorageConfig;
import dev.omnigraph.write.LoadMode;
import dev.omnigraph.write.WriteResult;
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
 *   <li>{@code soak <branch> <prefix> <first>}: {@code add_person} in a loop with the names
 *       {@code <prefix><n>}, {@code n = first, first+1, …}, printing {@code ACK <name>} (flushed)
 *       after each returned write.
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
    int code;
    try {
      code = run(out, StorageConfig.fromEnvironment(args[0]), args[1], Arrays.copyOfRange(args, 2, args.length));
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
      for (Recovery.Outcome o : graph.openRecovery()) {
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
        case "optimize" -> {
          dev.omnigraph.maintenance.OptimizeReport r = graph.optimize(a[0]);
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
        default -> {
          out.println("unknown op " + op);
          return 2;
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
