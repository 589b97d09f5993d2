package dev.omnigraph.read;

import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.api.storage.StorageConfig;
import java.util.Optional;

/**
 * A read with {@code n} filters on one variable over the social fixture, and a child-JVM entry
 * point that runs it: before issue 12 the whole conjunction went into one Lance filter and 400 of
 * them overflowed the native parser's stack (SIGSEGV, the JVM gone), which only a child can survive
 * to report. The first filter drops alice, the middle one ({@code age < 41}, past the pushed 64)
 * drops eve and dave (null age: unknown, so not matching), the rest match everyone: bob and carol.
 */
final class ManyFilters {

  private ManyFilters() {}

  static String query(int n) {
    StringBuilder q = new StringBuilder("query many() {\n  match {\n    $p: Person\n    $p.name != \"alice\"\n");
    for (int i = 1; i < n; i++) {
      q.append(i == n / 2 ? "    $p.age < 41\n" : "    $p.name != \"zz" + i + "\"\n");
    }
    return q.append("  }\n  return { $p.name }\n  order { $p.name }\n}\n").toString();
  }

  /** {@code args}: root URI, filter count. Prints {@code rows=<names>} and exits 0. */
  public static void main(String[] args) {
    try (Omnigraph g = Omnigraph.open(StorageConfig.fromEnvironment(args[0]), OpenMode.READ_ONLY)) {
      ReadOutput out = g.query(Optional.empty(), Optional.empty(), query(Integer.parseInt(args[1])), "many", null);
      System.out.println("rows=" + out.rows().stream().map(r -> r.get("p.name")).toList());
    }
    System.exit(0);
  }
}
