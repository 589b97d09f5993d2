package dev.omnigraph.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The seeded generator of a history's steps: one-row inserts, three-row
 * loads and one-row deletes on any branch, branch create (from main, at most three branches) and
 * delete, and merges of a branch into main. What it draws depends only on its random stream and the
 * model, which is itself a function of the seed: one seed, one history.
 */
final class Workload {

  enum Kind { INSERT, LOAD, DELETE, BRANCH_CREATE, BRANCH_DELETE, MERGE }

  /**
   * One step's operation.
   *
   * @param branch the branch written (the new or deleted branch; the merge's source)
   * @param names the Person rows inserted, loaded or deleted
   */
  record Op(int step, Kind kind, String branch, List<String> names) {
    @Override
    public String toString() {
      return "step " + step + ": " + kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " " + branch
          + (names.isEmpty() ? "" : " " + names);
    }

    /** Whether the op can run on {@code model}: what a shrunk history, which lost earlier steps, checks. */
    boolean validOn(GraphModel model) {
      boolean exists = model.branches().containsKey(branch);
      return switch (kind) {
        case INSERT, LOAD -> exists && names.stream().noneMatch(n -> model.rows(branch).containsKey(n));
        case DELETE -> exists && model.rows(branch).containsKey(names.get(0));
        case BRANCH_CREATE -> !exists;
        case BRANCH_DELETE, MERGE -> exists && !branch.equals("main");
      };
    }

    /** {@code step/kind/branch/name,name}: the replay command's spelling ({@link #parse}). */
    String code() {
      return step + "/" + kind.name().toLowerCase(java.util.Locale.ROOT) + "/" + branch + "/" + String.join(",", names);
    }

    static Op parse(String code) {
      String[] f = code.split("/", -1);
      return new Op(Integer.parseInt(f[0]), Kind.valueOf(f[1].toUpperCase(java.util.Locale.ROOT)), f[2],
          f[3].isEmpty() ? List.of() : List.of(f[3].split(",")));
    }
  }

  private static final int MAX_BRANCHES = 3;

  private final SplittableRandom random;
  /** One step of every history is armed for a crash whatever else is drawn (every history must crash at least once). */
  private final int forcedCrash;

  Workload(long seed, int steps) {
    this.random = new SplittableRandom(FaultPlan.hash("workload|" + seed));
    this.forcedCrash = 2 + random.nextInt(Math.max(1, steps - 1));
  }

  Op next(int step, GraphModel model) {
    List<String> branches = List.copyOf(model.branches().keySet());
    List<String> others = branches.stream().filter(b -> !b.equals("main")).toList();
    String branch = branches.get(random.nextInt(branches.size()));
    List<Kind> kinds = new ArrayList<>();
    addTimes(kinds, Kind.INSERT, 6);
    addTimes(kinds, Kind.LOAD, 4);
    if (!model.rows(branch).isEmpty()) {
      addTimes(kinds, Kind.DELETE, 3);
    }
    if (branches.size() < MAX_BRANCHES) {
      addTimes(kinds, Kind.BRANCH_CREATE, 3);
    }
    if (!others.isEmpty()) {
      addTimes(kinds, Kind.BRANCH_DELETE, 1);
      addTimes(kinds, Kind.MERGE, 3);
    }
    Kind kind = kinds.get(random.nextInt(kinds.size()));
    String other = others.isEmpty() ? "" : others.get(random.nextInt(others.size()));
    return switch (kind) {
      case INSERT -> new Op(step, kind, branch, List.of("p" + step));
      case LOAD -> new Op(step, kind, branch, List.of("p" + step + "a", "p" + step + "b", "p" + step + "c"));
      case DELETE -> {
        List<String> names = List.copyOf(model.rows(branch).keySet());
        yield new Op(step, kind, branch, List.of(names.get(random.nextInt(names.size()))));
      }
      // Branch names are never reused in a history, so a merge base is always the model's.
      case BRANCH_CREATE -> new Op(step, kind, "b" + step, List.of());
      case BRANCH_DELETE, MERGE -> new Op(step, kind, other, List.of());
    };
  }

  /** Whether this step is armed for a crash: one step drawn at the start, and about one in six besides. */
  boolean crashes(int step) {
    boolean drawn = random.nextInt(6) == 0;
    return step > 1 && (drawn || step == forcedCrash);
  }

  private static void addTimes(List<Kind> kinds, Kind kind, int times) {
    for (int i = 0; i < times; i++) {
      kinds.add(kind);
    }
  }
}
