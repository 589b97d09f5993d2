package dev.omnigraph.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.lease.LeaseSettings;
import dev.omnigraph.api.maintenance.OptimizeSettings;
import dev.omnigraph.sim.GraphModel.Rows;
import dev.omnigraph.sim.Workload.Op;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.testing.RootTemplates;
import dev.omnigraph.util.Micros;
import dev.omnigraph.util.Ulid;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One seeded history: a fresh graph on a {@link SimStore} (the simulated S3 or the
 * failpoint tier), {@code steps} operations drawn by {@link Workload} under the scenario's faults,
 * and after every step the checker:
 *
 * <ul>
 *   <li>an acknowledged write is visible, each of its rows exactly once;
 *   <li>a failed or in-doubt write is, after {@code recover} (or, after a crash, after reopening the
 *       graph with a new handle), fully visible or not at all, on every branch;
 *   <li>no sidecar is left pending;
 *   <li>every commit read twice holds the same rows, and a read at a seeded earlier commit equals
 *       the model there;
 *   <li>at the end, every branch equals the model and {@code repair} finds no drift.
 * </ul>
 *
 * The check after an ordinary step is incremental: it reads the branches the step wrote and those
 * whose head moved (one manifest read each), and makes no read at an earlier commit. After a crash
 * and reopen and at the end every branch is read and an earlier commit too ({@link #checkOrThrow}).
 *
 * A violation throws {@link Failure}, naming (scenario, seed, step), its {@link Violation} and the
 * one-line replay. A history can also run a given plan ({@link Step}s, e.g. a shrunk one): an op the
 * model no longer allows (its branch or row went with a dropped step) is skipped, and every kept step
 * keeps its trace step number, so it meets the faults it met in the full history.
 */
final class History {

  /** What the checker found; "the same failure" for the shrinker means the same kind. */
  enum Violation {
    PENDING_SIDECAR, ACKED_NOT_VISIBLE, PARTLY_VISIBLE, DUPLICATE_ROW, COMMIT_CHANGED, SNAPSHOT_MISMATCH,
    REPAIR_DRIFT,
    /** Opening, recovering, reading or repairing threw: the graph could not be brought back. */
    UNRECOVERABLE
  }

  /**
   * One step of a plan: the operation, whether the scenario's faults are on while it runs, whether it
   * is armed for a crash.
   */
  record Step(Op op, boolean faults, boolean crash) {
    /** {@code <op code>/<f><c>}: faults on, crash armed (see {@link Op#code}). */
    String code() {
      return op.code() + "/" + (faults ? "f" : "") + (crash ? "c" : "");
    }

    static Step parse(String code) {
      int last = code.lastIndexOf('/');
      String flags = code.substring(last + 1);
      return new Step(Op.parse(code.substring(0, last)), flags.contains("f"), flags.contains("c"));
    }
  }

  /** A violated invariant, with everything needed to replay it. */
  static final class Failure extends AssertionError {
    final Scenario scenario;
    final long seed;
    final int step;
    final Violation violation;
    /** The steps that ran, up to and including the failing one: the input of the shrinker. */
    final List<Step> plan;

    Failure(Scenario scenario, long seed, int step, Violation violation, String detail, List<Step> plan,
        Map<Integer, String> outcomes, Throwable cause) {
      super("simulation failed at (" + scenario.name() + ", " + seed + ", step " + step + "): " + violation + ": "
          + detail + "\n  history (" + plan.size() + " steps): " + String.join("; ", plan.stream()
              .map(s -> s.op() + (s.crash() ? " {crash armed}" : "") + (s.faults() ? "" : " {no faults}")
                  + (outcomes.containsKey(s.op().step()) ? " [" + outcomes.get(s.op().step()) + "]" : "")).toList())
          + "\n  replay: " + replayCommand(scenario, seed, plan), cause);
      this.scenario = scenario;
      this.seed = seed;
      this.step = step;
      this.violation = violation;
      this.plan = List.copyOf(plan);
    }
  }

  /**
   * What a history did; the nanos say where its time went: making the store, root and first handle;
   * the operations; recovery and reopening; the checks and the final repair; closing.
   */
  record Result(int operations, int acknowledged, int failed, int crashes, int requests, String traceHash,
      Map<FaultPlan.Fault, Integer> faults, List<String> trace, long setupNanos, long opNanos, long settleNanos,
      long checkNanos, long closeNanos, CheckSplit checkSplit) {
    @Override
    public String toString() {
      return operations + " operations (" + acknowledged + " acknowledged, " + failed + " failed or in doubt), "
          + crashes + " crashes, " + requests + " requests, faults " + faults + ", trace " + traceHash;
    }
  }

  /**
   * Where a history's setup and check time went: building the JVM's template (the first history
   * only), copying it, opening the first handle; the head reads (branch list and one manifest read
   * per branch), the branch reads, the read at an earlier commit, the pending-sidecar probes and the
   * final {@code repair}.
   */
  record CheckSplit(long templateNanos, long copyNanos, long openNanos, long headNanos, long branchReadNanos,
      long commitReadNanos, long sidecarNanos, long repairNanos) {
    static final CheckSplit NONE = new CheckSplit(0, 0, 0, 0, 0, 0, 0, 0);

    CheckSplit plus(CheckSplit o) {
      return new CheckSplit(templateNanos + o.templateNanos, copyNanos + o.copyNanos, openNanos + o.openNanos,
          headNanos + o.headNanos, branchReadNanos + o.branchReadNanos, commitReadNanos + o.commitReadNanos,
          sidecarNanos + o.sidecarNanos, repairNanos + o.repairNanos);
    }
  }

  static final String SCHEMA = """
      node Person {
        name: String @key
        age: I32?
      }
      """;
  private static final String GQ = """
      query add($name: String, $age: I32) {
        insert Person { name: $name, age: $age }
      }
      query forget($name: String) {
        delete Person where name = $name
      }
      """;
  private static final String READ = """
      query people() {
        match { $p: Person }
        return { $p.name, $p.age }
      }
      """;
  /** Every lineage time of a run comes from here: a fixed start, one millisecond per reading. */
  private static final long EPOCH_MICROS = Micros.of(Instant.parse("2026-01-01T00:00:00Z"));
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Scenario scenario;
  private final long seed;
  private final int steps;
  /** The plan to run, or null: draw {@code steps} steps from the workload. */
  private final List<Step> given;
  private final List<Step> ran = new ArrayList<>();
  /** Per step, how it ended when not acknowledged: the exception's type, "crash". */
  private final Map<Integer, String> outcomes = new TreeMap<>();
  private final GraphModel model = new GraphModel();
  /** Each branch's head (manifest version) when the checker last read it: what an incremental check compares. */
  private final Map<String, Long> heads = new TreeMap<>();
  /** Picks the earlier commit each check reads at; apart from the workload's stream, so checks never change the history. */
  private final SplittableRandom reads;
  private int step;
  private long openNanos;
  private long headNanos;
  private long branchReadNanos;
  private long commitReadNanos;
  private long sidecarNanos;
  private long repairNanos;

  History(Scenario scenario, long seed, int steps) {
    this(scenario, seed, steps, null);
  }

  /** Runs {@code plan} instead of drawing the steps (a replayed or shrunk history). */
  History(Scenario scenario, long seed, List<Step> plan) {
    this(scenario, seed, plan.size(), List.copyOf(plan));
  }

  private History(Scenario scenario, long seed, int steps, List<Step> given) {
    this.scenario = scenario;
    this.seed = seed;
    this.steps = steps;
    this.given = given;
    this.reads = new SplittableRandom(FaultPlan.hash("reads|" + seed));
  }

  /** The one-line replay of a drawn history. */
  static String replayCommand(Scenario scenario, long seed, int steps) {
    return "./mvnw -B -o test -Dtest='SimulationTest#replay' -Dsim.scenario=" + scenario.name() + " -Dsim.seed="
        + seed + " -Dsim.steps=" + steps;
  }

  /** The one-line replay of exactly {@code plan} (a shrunk history's, or the steps up to a failure). */
  static String replayCommand(Scenario scenario, long seed, List<Step> plan) {
    return "./mvnw -B -o test -Dtest='SimulationTest#replay' -Dsim.scenario=" + scenario.name() + " -Dsim.seed="
        + seed + " -Dsim.plan='" + String.join(";", plan.stream().map(Step::code).toList()) + "'";
  }

  /** Parses {@link #replayCommand(Scenario, long, List)}'s {@code sim.plan}. */
  static List<Step> parsePlan(String text) {
    return java.util.Arrays.stream(text.split(";")).map(Step::parse).toList();
  }

  Result run() throws Exception {
    // The graph is initialised once per JVM and copied per history (on both tiers): init is not what
    // a history tests. Built before the seeded clock and ids are installed, so every history sees the same.
    AtomicLong clock = new AtomicLong(EPOCH_MICROS);
    Workload workload = new Workload(seed, steps);
    int acked = 0;
    int failed = 0;
    int crashes = 0;
    long started = System.nanoTime();
    long setupNanos = 0;
    long closeNanos = 0;
    long opNanos = 0;
    long settleNanos = 0;
    long checkNanos = 0;
    RootTemplates.Builder init = root -> Omnigraph.init(root, SCHEMA, Optional.empty()).close();
    if (scenario.local()) {
      LocalSim.prepareTemplate(init);
    } else {
      SimS3.prepareTemplate(init);
    }
    long templateNanos = System.nanoTime() - started;
    try (SimStore sim = SimStore.open(scenario, seed)) {
      long c0 = System.nanoTime();
      StorageConfig config = sim.initialised();
      long copyNanos = System.nanoTime() - c0;
      try (AutoCloseable ids = Ulid.install(new Ulid.Generator(() -> clock.get() / 1000,
              new SplittableRandom(FaultPlan.hash("ids|" + seed))));
          AutoCloseable time = Micros.install(() -> clock.addAndGet(1000))) {
        sim.faults(false);
        long o0 = System.nanoTime();
        Omnigraph g = open(config);
        setupNanos = System.nanoTime() - started;
        openNanos = System.nanoTime() - o0;
        try {
          int drawn = 0;
          for (int i = 0; given == null ? drawn < steps : i < given.size(); i++) {
            Step planned;
            if (given == null) {
              drawn++;
              Op op = workload.next(drawn, model);
              planned = new Step(op, true, workload.crashes(drawn));
            } else {
              planned = given.get(i);
              if (!planned.op().validOn(model)) {
                continue; // its branch or row went with a step a shrink dropped
              }
            }
            Op op = planned.op();
            step = op.step();
            ran.add(planned);
            GraphModel after = model.copy();
            apply(op, after);
            long t0 = System.nanoTime();
            // The operation is trace step 2n, the recovery and the checks after it 2n+1.
            sim.step(2 * step);
            sim.faults(planned.faults());
            if (planned.crash()) {
              sim.armCrash();
            }
            boolean ok;
            try {
              run(g, op);
              ok = true;
            } catch (Exception e) {
              // Lance's errors reach us as checked IOExceptions too: every failure is "not acknowledged".
              ok = false;
              outcomes.put(step, e.getClass().getSimpleName());
            }
            // A published write's sidecar delete runs in the background after the answer; it is part of
            // this step, so the step ends when it has (otherwise the next phase races it).
            dev.omnigraph.engine.GraphRoots.shared().awaitSidecarRetirements(config.rootUri());
            if (planned.crash() && !sim.crashed()) {
              sim.crashNow(); // killed after its answer: nothing more of it reaches the store
            }
            sim.faults(false);
            sim.step(2 * step + 1);
            long t1 = System.nanoTime();
            boolean reopened = false;
            try {
              if (sim.crashed()) {
                reopened = true;
                crashes++;
                outcomes.merge(step, "crash", (a, b) -> a + ", " + b);
                try {
                  g.close();
                } catch (RuntimeException dying) {
                  // The process is gone: whatever its close would have written never happens.
                }
                sim.restart();
                g = open(config);
              } else if (!ok && !g.pendingRecovery().isEmpty()) {
                g.recover();
              }
            } catch (RuntimeException e) {
              throw fail(Violation.UNRECOVERABLE, "recovery after " + op + " threw " + e, e);
            }
            long t2 = System.nanoTime();
            if (ok) {
              acked++;
            } else {
              failed++;
            }
            // After a crash and reopen every branch is read again. A recovery in the same process
            // needs no more than the incremental check: what it rolled moved a head, which that reads.
            check(g, op, ok, after, reopened);
            opNanos += t1 - t0;
            settleNanos += t2 - t1;
            checkNanos += System.nanoTime() - t2;
          }
          long t3 = System.nanoTime();
          step = ran.isEmpty() ? 0 : ran.get(ran.size() - 1).op().step();
          checkAtEnd(g);
          long r0 = System.nanoTime();
          var report = g.repair(false);
          repairNanos += System.nanoTime() - r0;
          if (!report.clean()) {
            throw fail(Violation.REPAIR_DRIFT, "repair finds drift: " + report, null);
          }
          checkNanos += System.nanoTime() - t3;
        } finally {
          closeNanos = System.nanoTime();
          try {
            g.close();
          } catch (RuntimeException e) {
            // closing after a failure: the failure is what the report needs
          }
        }
      }
      Result r = new Result(ran.size(), acked, failed, crashes, sim.requests(), sim.traceHash(), sim.faultCounts(),
          sim.trace(), setupNanos, opNanos, settleNanos, checkNanos, 0, null);
      sim.close();
      return new Result(r.operations(), acked, failed, crashes, r.requests(), r.traceHash(), r.faults(), r.trace(),
          setupNanos, opNanos, settleNanos, checkNanos, System.nanoTime() - closeNanos,
          new CheckSplit(templateNanos, copyNanos, openNanos, headNanos, branchReadNanos, commitReadNanos, sidecarNanos, repairNanos));
    }
  }

  /**
   * Shrinks a failed history ({@link Shrinker}): drops steps, then turns a kept step's faults off or
   * unarms its crash, as long as the rerun fails with the same {@link Violation}.
   */
  static Shrinker.Shrunk<Step> shrink(Failure failure, int maxTries) {
    return Shrinker.shrink(failure.plan, s -> {
      List<Step> simpler = new ArrayList<>();
      if (s.crash()) {
        simpler.add(new Step(s.op(), s.faults(), false));
      }
      if (s.faults()) {
        simpler.add(new Step(s.op(), false, s.crash()));
      }
      return simpler;
    }, plan -> {
      Failure again = failureOf(failure.scenario, failure.seed, plan);
      return again != null && again.violation == failure.violation;
    }, maxTries);
  }

  /** How running exactly {@code plan} fails, or null when it passes. */
  static Failure failureOf(Scenario scenario, long seed, List<Step> plan) {
    try {
      new History(scenario, seed, plan).run();
      return null;
    } catch (Failure f) {
      return f;
    } catch (Exception e) {
      throw new IllegalStateException("a shrink candidate's run broke outside the checker", e);
    }
  }

  private static Omnigraph open(StorageConfig config) {
    // No background optimize, and a lease that never needs renewing within a run: no request of a
    // run comes from a timer.
    return Omnigraph.open(config, OpenMode.READ_WRITE, OptimizeSettings.disabled(),
        new LeaseSettings(Duration.ofHours(1), Duration.ofMinutes(30)));
  }

  private void run(Omnigraph g, Op op) throws Exception {
    switch (op.kind()) {
      case INSERT -> g.mutate(op.branch(), GQ, "add", params("name", op.names().get(0), "age", op.step()),
          Optional.empty(), Optional.empty());
      case DELETE -> g.mutate(op.branch(), GQ, "forget", params("name", op.names().get(0)),
          Optional.empty(), Optional.empty());
      case LOAD -> {
        StringBuilder ndjson = new StringBuilder();
        for (String n : op.names()) {
          ndjson.append("{\"type\":\"Person\",\"data\":{\"name\":\"").append(n).append("\",\"age\":")
              .append(op.step()).append("}}\n");
        }
        g.load(op.branch(), new StringReader(ndjson.toString()), LoadMode.APPEND, Optional.empty());
      }
      case BRANCH_CREATE -> g.branchCreate(op.branch(), "main", Optional.empty());
      case BRANCH_DELETE -> g.branchDelete(op.branch(), Optional.empty());
      case MERGE -> g.branchMerge(op.branch(), "main", false, Optional.empty());
    }
  }

  /** The model after {@code op} lands. */
  private static void apply(Op op, GraphModel m) {
    switch (op.kind()) {
      case INSERT, LOAD -> op.names().forEach(n -> m.rows(op.branch()).put(n, op.step()));
      case DELETE -> m.rows(op.branch()).remove(op.names().get(0));
      case BRANCH_CREATE -> m.create(op.branch(), "main");
      case BRANCH_DELETE -> m.delete(op.branch());
      case MERGE -> m.mergedInto(op.branch(), m.merged(op.branch()));
    }
  }

  private void check(Omnigraph g, Op op, boolean acked, GraphModel after, boolean full) {
    try {
      checkOrThrow(g, op, acked, after, full);
    } catch (Failure f) {
      throw f;
    } catch (RuntimeException e) {
      throw fail(Violation.UNRECOVERABLE, "checking after " + op + " threw " + e, e);
    }
  }

  /**
   * The check after a step. {@code full}: every branch is read (after a crash and reopen, at the
   * end). Otherwise only what the step could have changed: the branches it names and every branch
   * whose head (its manifest version, one manifest read) moved since it was last read. That is
   * sound because a published commit never changes (a commit id is a manifest version, immutable in
   * Lance): a branch whose head did not move holds the rows it was read with, which the model holds
   * too (a check ends with the model equal to what it read). Each full check re-reads those heads
   * and would report {@link Violation#COMMIT_CHANGED} if one did change.
   */
  private void checkOrThrow(Omnigraph g, Op op, boolean acked, GraphModel after, boolean full) {
    recoveredAtOnce(g);
    Map<String, Rows> seen = readBranches(g, full);
    if (seen.equals(after.branches())) {
      model.become(after);
    } else if (acked) {
      throw fail(Violation.ACKED_NOT_VISIBLE, "acknowledged " + op + " not visible as modelled: expected "
          + after.branches() + ", read " + seen, null);
    } else if (!seen.equals(model.branches())) {
      throw fail(Violation.PARTLY_VISIBLE, "failed " + op + " partly visible: before " + model.branches()
          + ", after would be " + after.branches() + ", read " + seen, null);
    }
  }

  /** The full check closing a history: every branch read again equals the model. */
  private void checkAtEnd(Omnigraph g) {
    try {
      recoveredAtOnce(g);
      Map<String, Rows> seen = readBranches(g, true);
      if (!seen.equals(model.branches())) {
        throw fail(Violation.ACKED_NOT_VISIBLE, "at the end of the history the graph is not the model: expected "
            + model.branches() + ", read " + seen, null);
      }
      // A read at a named commit costs about as much as four branch reads (the commit is looked up in
      // the lineage), so a history makes one, here: a commit never changes, so whatever a crash or a
      // recovery did to one still shows at the end, when every commit the history saw is a candidate.
      readAnEarlierCommit(g);
    } catch (Failure f) {
      throw f;
    } catch (RuntimeException e) {
      throw fail(Violation.UNRECOVERABLE, "the final check threw " + e, e);
    }
  }

  private void recoveredAtOnce(Omnigraph g) {
    long t0 = System.nanoTime();
    boolean pending = !g.pendingRecovery().isEmpty();
    sidecarNanos += System.nanoTime() - t0;
    if (pending) {
      // By design a write may answer done and keep its sidecar (its retire failed after the publish):
      // the next barrier or open retires it. Recovery must converge at once, faults off.
      g.recover();
      if (!g.pendingRecovery().isEmpty()) {
        throw fail(Violation.PENDING_SIDECAR, "sidecars still pending after recovery: " + g.pendingRecovery(), null);
      }
    }
  }

  /**
   * Every branch's rows: read for all branches when {@code full}, otherwise only for those whose head
   * moved since their last read (or that the model does not hold); the model's rows for the rest
   * (see {@link #checkOrThrow}).
   */
  private Map<String, Rows> readBranches(Omnigraph g, boolean full) {
    Map<String, Rows> seen = new TreeMap<>();
    Map<String, Long> now = new TreeMap<>();
    long start = System.nanoTime();
    long reading = 0;
    for (String b : g.branchList().branches()) {
      long head = g.snapshot(b).graphManifestVersion();
      long t1 = System.nanoTime();
      now.put(b, head);
      Rows known = model.rows(b);
      if (full || known == null || !Long.valueOf(head).equals(heads.get(b))) {
        seen.put(b, readBranch(g, b));
        reading += System.nanoTime() - t1;
      } else {
        seen.put(b, known);
      }
    }
    branchReadNanos += reading;
    headNanos += System.nanoTime() - start - reading;
    heads.clear();
    heads.putAll(now);
    return seen;
  }

  private Rows readBranch(Omnigraph g, String b) {
    ReadOutput out = g.query(Optional.of(dev.omnigraph.api.BranchName.existing(b)), Optional.empty(), READ, "people", JSON.createObjectNode());
    Rows rows = rows(out, "branch " + b);
    Optional<Rows> before = model.remember(b, out.graphCommitId(), rows);
    if (before.isPresent()) {
      throw fail(Violation.COMMIT_CHANGED, "commit " + out.graphCommitId() + " of " + b + " held " + before.get()
          + ", now reads " + rows, null);
    }
    return rows;
  }

  /** A read at a seeded earlier commit (of a live branch) equals the model there. */
  private void readAnEarlierCommit(Omnigraph g) {
    long t0 = System.nanoTime();
    try {
      readOneEarlierCommit(g);
    } finally {
      commitReadNanos += System.nanoTime() - t0;
    }
  }

  private void readOneEarlierCommit(Omnigraph g) {
    List<String> commits = model.liveCommits();
    if (!commits.isEmpty()) {
      String c = commits.get(reads.nextInt(commits.size()));
      Rows expected = model.atCommit(c).orElseThrow();
      Rows read = rows(g.query(Optional.empty(), Optional.of(dev.omnigraph.api.CommitId.existing(c)), READ, "people", JSON.createObjectNode()),
          "commit " + c);
      if (!read.equals(expected)) {
        throw fail(Violation.SNAPSHOT_MISMATCH, "read at commit " + c + " is " + read + ", the model there "
            + expected, null);
      }
    }
  }

  private Rows rows(ReadOutput out, String where) {
    Rows rows = new Rows();
    for (Map<String, Object> r : out.rows()) {
      String name = String.valueOf(r.get("p.name"));
      Object age = r.get("p.age");
      if (rows.put(name, age == null ? null : ((Number) age).intValue()) != null) {
        throw fail(Violation.DUPLICATE_ROW, where + ": " + name + " visible twice", null);
      }
    }
    return rows;
  }

  private Failure fail(Violation violation, String detail, Throwable cause) {
    return new Failure(scenario, seed, step, violation, detail, ran, outcomes, cause);
  }

  private static JsonNode params(Object... kv) {
    ObjectNode p = JSON.createObjectNode();
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i + 1] instanceof Integer n) {
        p.put((String) kv[i], n);
      } else {
        p.put((String) kv[i], (String) kv[i + 1]);
      }
    }
    return p;
  }
}
