package dev.omnigraph.engine.gqt;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.OpenMode;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.gqt.GqtCase.Step;
import dev.omnigraph.query.CheckedQuery;
import dev.omnigraph.query.CheckedRead;
import dev.omnigraph.query.Column;
import dev.omnigraph.query.Declaration;
import dev.omnigraph.query.QueryChecker;
import dev.omnigraph.query.QueryFile;
import dev.omnigraph.query.QueryParser;
import dev.omnigraph.schema.Catalog;
import dev.omnigraph.schema.SchemaParser;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@code .gqt} cases (docs/testing.md, "Logic tests"): each case on a graph of its own,
 * {@code init} with the case's schema, the seed loaded as one commit, the indexes built when a step
 * searches, then the steps in order against one handle, stopping at the first step whose answer
 * differs from its expectation. Read-only cases (only {@code --- query} steps) with the same schema
 * and seed share one seeded graph per runner: nothing they do can change it, and on S3 the setup is
 * most of a case's time.
 *
 * <p>{@link #run} runs one case on the calling thread; {@link #runAll} runs several side by side
 * (each case still on one thread, its steps in order). Cases never share a graph they write.
 */
public final class GqtRunner implements AutoCloseable {

  /** A case's verdict. */
  public enum Status { PASSED, FAILED, UNSUPPORTED }

  /**
   * One case's outcome.
   *
   * @param message empty when passed; otherwise where and why ({@code file:line: …}, the diff)
   */
  public record Result(String file, Status status, String message, long millis) {}

  /** The actor a case's commits record unless the caller names one. */
  public static final String DEFAULT_ACTOR = "gqt";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CREATE = Pattern.compile("branch\\s+create\\s+(\\S+)(?:\\s+from\\s+(\\S+))?");
  private static final Pattern DELETE = Pattern.compile("branch\\s+delete\\s+(\\S+)");
  private static final Pattern MERGE = Pattern.compile("branch\\s+merge\\s+(\\S+)(?:\\s+into\\s+(\\S+))?");
  private static final Pattern LIST = Pattern.compile("branch\\s+list");
  /** The constructs that read an index (the reference builds indexes only for cases using one). */
  private static final Pattern SEARCHES = Pattern.compile("\\b(search|fuzzy|match_text|bm25|nearest|rrf)\\s*\\(");

  private final Function<String, StorageConfig> freshRoot;
  private final Optional<String> actor;
  /** Seeded graphs of read-only cases by schema, seed and whether indexes were built. */
  private final Map<String, Omnigraph> shared = new ConcurrentHashMap<>();
  private final AtomicInteger graphs = new AtomicInteger();

  /**
   * @param freshRoot a new, empty graph root for a label (the case's name and a counter); called
   *     once per graph the runner makes
   */
  public GqtRunner(Function<String, StorageConfig> freshRoot) {
    this(freshRoot, DEFAULT_ACTOR);
  }

  /** As {@link #GqtRunner(Function)}, every commit recording {@code actor}. */
  public GqtRunner(Function<String, StorageConfig> freshRoot, String actor) {
    this.freshRoot = freshRoot;
    this.actor = Optional.of(actor);
  }

  /** How many graphs the runner has made so far (shared ones counted once). */
  public int graphsMade() {
    return graphs.get();
  }

  /**
   * Runs {@code cases} (file name to text, in order) on {@code threads} threads; the results in the
   * same order. On an object store a case mostly waits for requests, so cases side by side finish
   * sooner than one after another.
   */
  public List<Result> runAll(List<Map.Entry<String, String>> cases, int threads) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<Result>> futures = new ArrayList<>();
      for (Map.Entry<String, String> c : cases) {
        futures.add(pool.submit(() -> run(c.getKey(), c.getValue())));
      }
      List<Result> out = new ArrayList<>();
      for (Future<Result> f : futures) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running cases", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("a case escaped the runner: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** Parses and runs one case; never throws for anything the case or the engine does. */
  public Result run(String file, String text) {
    long start = System.nanoTime();
    GqtCase c;
    try {
      c = GqtParser.parse(file, text);
    } catch (GqtFormatError.Unsupported u) {
      return new Result(file, Status.UNSUPPORTED, u.getMessage(), millis(start));
    } catch (GqtFormatError e) {
      return new Result(file, Status.FAILED, e.getMessage(), millis(start));
    }
    String failure;
    try {
      failure = c.readOnly() ? runShared(c) : runOwn(c);
    } catch (GqtFormatError e) {
      // A refusal found while running (a body of the wrong kind) does not know its file.
      failure = e.file().isEmpty() ? file + e.getMessage() : e.getMessage();
    }
    return new Result(file, failure == null ? Status.PASSED : Status.FAILED, failure == null ? "" : failure,
        millis(start));
  }

  private static long millis(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  private String runShared(GqtCase c) {
    String key = c.schema() + "\u0000" + c.seed() + "\u0000" + needsIndexes(c);
    Omnigraph g;
    try {
      // One setup per key even with cases side by side: the others wait for it.
      g = shared.computeIfAbsent(key, k -> setUp(c).handle);
    } catch (RuntimeException e) {
      return c.file() + ":" + c.seedLine() + ": setup (init, seed, indexes) failed: " + describe(e);
    }
    return steps(c, new Graph(null, g));
  }

  private String runOwn(GqtCase c) {
    Graph g;
    try {
      g = setUp(c);
    } catch (RuntimeException e) {
      return c.file() + ":" + c.seedLine() + ": setup (init, seed, indexes) failed: " + describe(e);
    }
    try {
      return steps(c, g);
    } finally {
      g.handle.close();
    }
  }

  /** A case's open graph; {@code config} is null for a shared one (never reopened). */
  private static final class Graph {
    final StorageConfig config;
    Omnigraph handle;

    Graph(StorageConfig config, Omnigraph handle) {
      this.config = config;
      this.handle = handle;
    }
  }

  private Graph setUp(GqtCase c) {
    String name = c.file().replaceAll(".*/", "").replaceAll("\\.gqt$", "");
    StorageConfig config = freshRoot.apply(name + "-" + graphs.incrementAndGet());
    Omnigraph g = Omnigraph.init(config, c.schema(), actor);
    try {
      if (!c.seed().isBlank()) {
        g.load(dev.omnigraph.api.BranchName.MAIN, new StringReader(c.seed()), LoadMode.OVERWRITE, actor);
      }
      if (needsIndexes(c)) {
        g.ensureIndices(dev.omnigraph.api.BranchName.MAIN, actor, dev.omnigraph.api.ProgressListener.NONE);
      }
    } catch (RuntimeException e) {
      g.close();
      throw e;
    }
    return new Graph(config, g);
  }

  private static boolean needsIndexes(GqtCase c) {
    return c.steps().stream().anyMatch(s -> s instanceof GqtCase.Query q && SEARCHES.matcher(q.body()).find()
        || s instanceof GqtCase.Mutate m && SEARCHES.matcher(m.body()).find());
  }

  private String steps(GqtCase c, Graph g) {
    Catalog catalog = SchemaParser.parse(c.schema());
    int n = 0;
    for (Step s : c.steps()) {
      n++;
      String failure;
      if (s instanceof GqtCase.Restart) {
        try {
          g.handle.close();
          g.handle = Omnigraph.open(g.config, OpenMode.READ_WRITE);
          failure = null;
        } catch (RuntimeException e) {
          failure = "reopen failed: " + describe(e);
        }
      } else if (s instanceof GqtCase.Query q) {
        failure = query(g.handle, catalog, q);
      } else {
        failure = mutate(g.handle, (GqtCase.Mutate) s);
      }
      if (failure != null) {
        return c.file() + ":" + s.line() + ": step " + n + " (" + label(s) + ")" + ": " + failure;
      }
    }
    return null;
  }

  private static String label(Step s) {
    if (s instanceof GqtCase.Restart) {
      return "restart";
    }
    String body = s instanceof GqtCase.Query q ? q.body() : ((GqtCase.Mutate) s).body();
    String iteration = s instanceof GqtCase.Query q ? q.iteration() : ((GqtCase.Mutate) s).iteration();
    Matcher m = Pattern.compile("query\\s+(\\w+)").matcher(body);
    String what = m.lookingAt() ? m.group(1) : body.lines().findFirst().orElse("").strip();
    return (s instanceof GqtCase.Query ? "query " : "mutate ") + what + (iteration.isEmpty() ? "" : ", " + iteration);
  }

  // --- query ----------------------------------------------------------------------------------

  private String query(Omnigraph g, Catalog catalog, GqtCase.Query q) {
    List<Map<String, Object>> rows;
    List<String> columns;
    List<String> types;
    try {
      if (LIST.matcher(q.body()).matches()) {
        columns = List.of("name");
        types = List.of("String");
        rows = new ArrayList<>();
        for (String b : g.branchList().branches().stream().sorted().toList()) {
          rows.add(Map.of("name", b));
        }
      } else {
        Declaration d = single(q.body(), q.line(), false);
        Optional<String> commit = Optional.empty();
        Optional<String> branch = Optional.of(q.branch());
        if (q.commitsBack().isPresent()) {
          List<CommitOutput> history = g.commits(dev.omnigraph.api.BranchName.existing(q.branch()),
              new CommitPage(CommitPage.MAX_LIMIT, Optional.empty()), Optional.empty()).commits();
          int back = q.commitsBack().get();
          if (back >= history.size()) {
            return "commit: " + q.branch() + "~" + back + " goes past the branch's first commit (" + history.size()
                + " commits)";
          }
          commit = Optional.of(history.get(back).graphCommitId());
          branch = Optional.empty();
        }
        ReadOutput out = g.query(branch.map(dev.omnigraph.api.BranchName::existing),
            commit.map(dev.omnigraph.api.CommitId::existing), q.body(), d.name(), params(q.params()));
        columns = out.columns();
        rows = out.rows();
        types = types(d, catalog);
      }
    } catch (GqtFormatError e) {
      throw e;
    } catch (RuntimeException e) {
      return expectedError(q.expect(), e);
    }
    if (!(q.expect() instanceof GqtCase.Rows expect)) {
      return "expected " + describe(q.expect()) + ", but the query returned " + rows.size()
          + (rows.size() == 1 ? " row" : " rows");
    }
    if (q.shape().isPresent()) {
      String bad = shape(q.shape().get(), columns, types, rows);
      if (bad != null) {
        return bad;
      }
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < expect.rows().size(); i++) {
      expected.add(GqtRows.canonical(expect.rows().get(i)));
    }
    List<String> actual = rows.stream().map(GqtRows::canonical).toList();
    String diff = GqtRows.diff(expected, actual, expect.ordered());
    return diff == null ? null : "expectation at line " + expect.line() + ": " + diff.stripTrailing();
  }

  /** The checker's type of each column (the shape a reader of the schema would write). */
  private static List<String> types(Declaration d, Catalog catalog) {
    CheckedQuery checked = QueryChecker.check(d, catalog);
    List<String> out = new ArrayList<>();
    for (Column c : ((CheckedRead) checked).columns()) {
      String t = c.type().display();
      out.add(t.endsWith("?") ? t.substring(0, t.length() - 1) : t);
    }
    return out;
  }

  private static String shape(GqtCase.Shape shape, List<String> columns, List<String> types,
      List<Map<String, Object>> rows) {
    List<GqtCase.Column> want = shape.columns();
    if (want.size() != columns.size()) {
      return "shape at line " + shape.line() + ": expected " + want.size() + " columns "
          + want.stream().map(GqtCase.Column::name).toList() + ", the query returned " + columns.size() + " "
          + columns;
    }
    for (int i = 0; i < want.size(); i++) {
      GqtCase.Column w = want.get(i);
      if (!w.name().equals(columns.get(i))) {
        return "shape line " + w.line() + ": column " + (i + 1) + " is '" + columns.get(i) + "', expected '"
            + w.name() + "'";
      }
      if (!w.type().equals(types.get(i))) {
        return "shape line " + w.line() + ": column '" + w.name() + "' is " + types.get(i) + ", expected "
            + w.type();
      }
      if (!w.nullable()) {
        for (int r = 0; r < rows.size(); r++) {
          if (rows.get(r).get(w.name()) == null) {
            return "shape line " + w.line() + ": column '" + w.name() + "' has a null cell in row " + (r + 1)
                + " (write '" + w.type() + "?' to permit it)";
          }
        }
      }
    }
    return null;
  }

  // --- mutate ---------------------------------------------------------------------------------

  private String mutate(Omnigraph g, GqtCase.Mutate m) {
    String body = m.body().strip();
    Matcher create = CREATE.matcher(body);
    Matcher delete = DELETE.matcher(body);
    Matcher merge = MERGE.matcher(body);
    boolean statement = create.matches() || delete.matches() || merge.matches();
    if (statement && (!m.branch().equals("main") || !m.params().equals("{}"))) {
      throw new GqtFormatError("", m.line(), "a branch statement names its branches itself and takes no params");
    }
    if (LIST.matcher(body).matches()) {
      throw new GqtFormatError("", m.line(), "'branch list' is a read; put it under '--- query'");
    }
    try {
      if (create.matches()) {
        g.branchCreate(create.group(1), dev.omnigraph.api.BranchName.existingOrMain(create.group(2)), actor);
        return succeeded(m.expect(), null, null);
      }
      if (delete.matches()) {
        g.branchDelete(dev.omnigraph.api.BranchName.existing(delete.group(1)), actor);
        return succeeded(m.expect(), null, null);
      }
      if (merge.matches()) {
        var out = g.branchMerge(dev.omnigraph.api.BranchName.existing(merge.group(1)), dev.omnigraph.api.BranchName.existingOrMain(merge.group(2)), false,
            actor, dev.omnigraph.api.ProgressListener.NONE);
        return succeeded(m.expect(), null, out.outcome().wire());
      }
      Declaration d = single(body, m.line(), true);
      WriteResult r = g.mutate(dev.omnigraph.api.BranchName.existing(m.branch()), body, d.name(), params(m.params()), actor, Optional.empty());
      return succeeded(m.expect(), new long[] {sum(r, "node:"), sum(r, "edge:")}, null);
    } catch (GqtFormatError e) {
      throw e;
    } catch (RuntimeException e) {
      return expectedError(m.expect(), e);
    }
  }

  private static long sum(WriteResult r, String prefix) {
    return r.affectedRows().entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /** Null when a successful write meets the expectation, else why not. */
  private static String succeeded(GqtCase.Expect expect, long[] counts, String outcome) {
    if (expect instanceof GqtCase.Ok) {
      return null;
    }
    if (expect instanceof GqtCase.Affected a) {
      if (counts == null) {
        return "a branch statement has no affected counts; expect ok or outcome";
      }
      return a.nodes() == counts[0] && a.edges() == counts[1] ? null
          : "expected affected: nodes=" + a.nodes() + " edges=" + a.edges() + " (line " + a.line() + "), got nodes="
              + counts[0] + " edges=" + counts[1];
    }
    if (expect instanceof GqtCase.Outcome o) {
      if (outcome == null) {
        return "only a branch merge has an outcome";
      }
      return o.outcome().equals(outcome) ? null
          : "expected outcome: " + o.outcome() + " (line " + o.line() + "), got " + outcome;
    }
    return "expected " + describe(expect) + ", but the step succeeded";
  }

  /** Null when {@code e} is the error the step expects, else why not. */
  private static String expectedError(GqtCase.Expect expect, RuntimeException e) {
    String message = String.valueOf(e.getMessage());
    if (expect instanceof GqtCase.Error err) {
      return message.contains(err.fragment()) ? null
          : "expected an error containing \"" + err.fragment() + "\" (line " + err.line() + "), got: " + describe(e);
    }
    return "expected " + describe(expect) + ", but the step failed: " + describe(e);
  }

  private static String describe(GqtCase.Expect e) {
    String what;
    if (e instanceof GqtCase.Rows r) {
      what = (r.ordered() ? "ordered" : "unordered") + " rows";
    } else if (e instanceof GqtCase.Affected a) {
      what = "affected: nodes=" + a.nodes() + " edges=" + a.edges();
    } else if (e instanceof GqtCase.Error x) {
      what = "error: " + x.fragment();
    } else if (e instanceof GqtCase.Outcome o) {
      what = "outcome: " + o.outcome();
    } else {
      what = "ok";
    }
    return what + " (line " + e.line() + ")";
  }

  private static String describe(RuntimeException e) {
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** The one declaration of a step's body, of the step's kind. */
  private Declaration single(String body, int line, boolean mutation) {
    QueryFile file = QueryParser.parse(body);
    if (file.declarations().size() != 1) {
      throw new GqtFormatError("", line, "a step holds exactly one declaration, found " + file.names());
    }
    Declaration d = file.declarations().get(0);
    if (d.isMutation() != mutation) {
      throw new GqtFormatError("", line, mutation ? "a read under '--- mutate'; use '--- query'"
          : "a mutation under '--- query'; use '--- mutate'");
    }
    return d;
  }

  private static JsonNode params(String text) {
    try {
      return JSON.readTree(text.isBlank() ? "{}" : text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("params were checked when the case was parsed", e);
    }
  }

  /** Closes the shared graphs. */
  @Override
  public void close() {
    shared.values().forEach(Omnigraph::close);
    shared.clear();
  }

  /** Orders results for the summary: how many of each status. */
  public static Map<Status, Integer> counts(List<Result> results) {
    Map<Status, Integer> out = new LinkedHashMap<>();
    for (Status s : Status.values()) {
      out.put(s, 0);
    }
    results.forEach(r -> out.merge(r.status(), 1, Integer::sum));
    return out;
  }
}
