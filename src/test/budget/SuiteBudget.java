import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The test suite's time budget (issue 19). A single-file program ({@code java SuiteBudget.java ...}),
 * so it needs no compiled test classes and runs after a failed build too.
 *
 * <pre>
 *   java src/test/budget/SuiteBudget.java &lt;target dir&gt; start    # before surefire: notes the start time, empties test-tmp
 *   java src/test/budget/SuiteBudget.java &lt;target dir&gt; check    # after surefire: report, then the budget
 *   java src/test/budget/SuiteBudget.java &lt;target dir&gt; report   # the report only (.ci/run, always)
 * </pre>
 *
 * <p>The report lists the 15 slowest test classes from {@code surefire-reports/TEST-*.xml} and
 * {@code failsafe-reports/TEST-*.xml} (each testsuite's {@code time} attribute) and the totals. The
 * check fails (exit 1) when the surefire run took longer than the budget
 * ({@code -Domnigraph.suite.budget.seconds}, 1200 = 20 minutes): the wall time from {@code start}
 * to {@code check} when {@code start} ran, else the sum of the class times. With parallel forks
 * the sum of class times exceeds the wall time; the wall time is what CI waits for.
 * {@code -Domnigraph.suite.budget.override=<reason>} turns a failure into a warning.
 *
 * <p>{@code start} also gives the run an empty {@code <target dir>/test-tmp}, the test JVMs'
 * {@code java.io.tmpdir} (the pom's {@code test.tmpdir}): the scratch the previous run left there goes,
 * and the directory must exist before a test creates a temp file in it.
 */
public class SuiteBudget {

  private static final Pattern SUITE = Pattern.compile("<testsuite\\b[^>]*>");
  private static final Pattern NAME = Pattern.compile("\\sname=\"([^\"]*)\"");
  private static final Pattern TIME = Pattern.compile("\\stime=\"([^\"]*)\"");
  private static final Pattern TESTS = Pattern.compile("\\stests=\"([^\"]*)\"");

  record Suite(String kind, String name, double seconds, int tests) {}

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: SuiteBudget <target dir> start|check|report");
      System.exit(2);
    }
    Path target = Path.of(args[0]);
    Path startFile = target.resolve("suite-budget").resolve("surefire-start");
    switch (args[1]) {
      case "start" -> {
        Files.createDirectories(startFile.getParent());
        Files.writeString(startFile, Long.toString(System.currentTimeMillis()));
        Path scratch = target.resolve("test-tmp");
        // Written out, not TestFiles.deleteTree: this single-file program runs without the test classes.
        if (Files.isDirectory(scratch)) {
          try (Stream<Path> files = Files.walk(scratch)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
          }
        }
        Files.createDirectories(scratch);
      }
      case "report" -> report(target);
      case "check" -> System.exit(check(target, startFile));
      default -> {
        System.err.println("unknown command " + args[1]);
        System.exit(2);
      }
    }
  }

  static List<Suite> suites(Path dir, String kind) throws IOException {
    List<Suite> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.getFileName().toString().startsWith("TEST-")
          && p.getFileName().toString().endsWith(".xml")).sorted()::iterator) {
        String head = readHead(f);
        Matcher m = SUITE.matcher(head);
        if (!m.find()) {
          continue;
        }
        String tag = m.group();
        Matcher name = NAME.matcher(tag);
        Matcher time = TIME.matcher(tag);
        Matcher tests = TESTS.matcher(tag);
        if (name.find() && time.find()) {
          double seconds;
          try {
            seconds = Double.parseDouble(time.group(1).replace(",", ""));
          } catch (NumberFormatException e) {
            continue;
          }
          out.add(new Suite(kind, name.group(1), seconds, tests.find() ? Integer.parseInt(tests.group(1)) : 0));
        }
      }
    }
    return out;
  }

  /** The start of a report file: the testsuite element comes before any test case. */
  private static String readHead(Path f) throws IOException {
    try (var in = Files.newInputStream(f)) {
      return new String(in.readNBytes(64 * 1024), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  private static double sum(List<Suite> suites) {
    return suites.stream().mapToDouble(Suite::seconds).sum();
  }

  /** Prints the report; returns the surefire sum of class times. */
  static double report(Path target) throws IOException {
    List<Suite> surefire = suites(target.resolve("surefire-reports"), "surefire");
    List<Suite> failsafe = suites(target.resolve("failsafe-reports"), "failsafe");
    List<Suite> all = new ArrayList<>(surefire);
    all.addAll(failsafe);
    if (all.isEmpty()) {
      System.out.println("suite-budget: no test reports under " + target);
      return 0;
    }
    all.sort(Comparator.comparingDouble(Suite::seconds).reversed());
    System.out.println("suite-budget: the 15 slowest test classes");
    for (Suite s : all.subList(0, Math.min(15, all.size()))) {
      System.out.printf(Locale.ROOT, "  %8.1f s  %-8s %4d tests  %s%n", s.seconds(), s.kind(), s.tests(), s.name());
    }
    System.out.printf(Locale.ROOT, "suite-budget: surefire %d classes, %d tests, %.1f s summed over classes%n",
        surefire.size(), surefire.stream().mapToInt(Suite::tests).sum(), sum(surefire));
    System.out.printf(Locale.ROOT, "suite-budget: failsafe %d classes, %d tests, %.1f s summed over classes%n",
        failsafe.size(), failsafe.stream().mapToInt(Suite::tests).sum(), sum(failsafe));
    return sum(surefire);
  }

  static int check(Path target, Path startFile) throws IOException {
    double summed = report(target);
    long budget = Long.parseLong(System.getProperty("omnigraph.suite.budget.seconds", "1200").trim());
    String override = System.getProperty("omnigraph.suite.budget.override", "").trim();
    double measured;
    String what;
    if (Files.isRegularFile(startFile)) {
      measured = (System.currentTimeMillis() - Long.parseLong(Files.readString(startFile).trim())) / 1000.0;
      what = "surefire wall time";
    } else {
      measured = summed;
      what = "surefire time summed over classes";
    }
    System.out.printf(Locale.ROOT, "suite-budget: %s %.1f s, budget %d s%n", what, measured, budget);
    if (measured <= budget) {
      return 0;
    }
    if (!override.isEmpty()) {
      System.out.printf(Locale.ROOT, "suite-budget: WARNING over budget by %.1f s, overridden: %s%n",
          measured - budget, override);
      return 0;
    }
    System.out.printf(Locale.ROOT, "suite-budget: FAILED the %s is %.1f s over the %d s budget. Make the slow classes "
        + "above faster, or rerun with -Domnigraph.suite.budget.override=<reason>.%n", what, measured - budget, budget);
    return 1;
  }
}
