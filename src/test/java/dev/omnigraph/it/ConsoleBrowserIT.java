package dev.omnigraph.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console (docs/console.md) in real headless Chromium, driven through chromedriver, against
 * the packaged service started as the README says ({@code bin/omnigraph serve}, embedded default:
 * the example graph), with two bearer tokens and a policy: {@value #WRITER} may do everything,
 * {@value #READER} only read. The methods run in order on one service, one browser and one graph,
 * each building on what the one before wrote, signed in as the writer unless they say otherwise;
 * each saves a screenshot under {@code target/console-screenshots/}.
 *
 * <p>Runs when the {@code browser} Maven profile is active (on by itself where
 * {@code /usr/bin/chromedriver} exists; {@code .ci/run} installs Debian's chromium and
 * chromium-driver); otherwise every method is skipped with the reason.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserIT {

  private static final Path BASEDIR = Path.of(System.getProperty("omnigraph.it.basedir", "."));
  private static final Path SHOTS = BASEDIR.resolve("target/console-screenshots");
  private static final String CHROMIUM = System.getProperty("omnigraph.it.chromium", "/usr/bin/chromium");
  private static final String CHROMEDRIVER = System.getProperty("omnigraph.it.chromedriver", "/usr/bin/chromedriver");
  /** Markup that would run if the console ever inserted graph data as HTML. */
  private static final String XSS_SCRIPT = "<script>window.__pwned = 1</script>";
  private static final String XSS_IMG = "<img src=x onerror=\"window.__pwned = 2\">";
  static final String WRITER = "console-writer";
  static final String READER = "console-reader";
  /** The writer may do everything on every branch; the reader only read; both list the graphs. */
  private static final String POLICY = """
      version: 1
      groups:
        writers: [console-writer]
        everyone: [console-writer, console-reader]
      protected_branches: [main]
      rules:
        - id: writer-does-everything
          allow:
            actors: { group: writers }
            actions: [read, export, change, schema_apply, branch_create, branch_delete, branch_merge, invoke_query, admin]
        - id: everyone-reads
          allow: { actors: { group: everyone }, actions: [read], branch_scope: any }
        - id: everyone-lists-graphs
          allow: { actors: { group: everyone }, actions: [graph_list] }
      """;

  private Path dir;
  private Process serve;
  private ChromeDriver browser;
  private WebDriverWait wait;
  private String base;

  @BeforeAll
  void start() throws Exception {
    Assumptions.assumeTrue(Boolean.getBoolean("omnigraph.it.browser"),
        "console browser tests skipped: the 'browser' profile is off (no " + CHROMEDRIVER
            + "; apt-get install chromium chromium-driver, or run with -Pbrowser)");
    Assumptions.assumeTrue(new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute(),
        "console browser tests skipped: " + CHROMIUM + " or " + CHROMEDRIVER + " is missing");
    dir = Files.createTempDirectory("console-it-");
    Files.createDirectories(SHOTS);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    base = "http://127.0.0.1:" + port;
    Path log = dir.resolve("serve.log");
    // The tokens and the policy in config/application.properties of the working directory, where an
    // operator (or a mounted ConfigMap) puts them.
    Path policy = Files.writeString(dir.resolve("policy.yaml"), POLICY);
    Files.createDirectories(dir.resolve("config"));
    Files.writeString(dir.resolve("config/application.properties"), "omnigraph.auth.tokens." + WRITER + "="
        + sha256(token(WRITER)) + "\nomnigraph.auth.tokens." + READER + "=" + sha256(token(READER))
        + "\nomnigraph.policy.file=" + policy + "\n");
    serve = new ProcessBuilder(BASEDIR.resolve("bin/omnigraph").toString(), "serve", "--port", Integer.toString(port))
        .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    awaitReady(log);

    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    // As root on a machine with a closed network: no sandbox, no background connections.
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1400,1000", "--user-data-dir=" + dir.resolve("chrome"));
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    options.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(30));
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (serve != null) {
      serve.destroy();
      if (!serve.waitFor(20, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
  }

  @Test
  @Order(1)
  void uiOnTheEmbeddedDefaultShowsTheExampleGraph() throws Exception {
    browser.get(base + "/ui");
    assertThat(browser.getCurrentUrl()).isEqualTo(base + "/ui/");
    wait.until(d -> d.findElement(By.id("actor")).getText().equals("not signed in"));
    signIn(WRITER);
    assertThat(text("#actor")).isEqualTo("signed in as " + WRITER);
    // The default query (every Knows pair) runs on open and is drawn: alice -> bob -> carol.
    WebElement graph = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#result-graph[data-node-count]")));
    assertThat(graph.getAttribute("data-node-count")).isEqualTo("3");
    assertThat(graph.getAttribute("data-edge-count")).isEqualTo("2");
    assertThat(text("#query-outcome")).contains("2 rows");
    shot("query-graph");
  }

  @Test
  @Order(2)
  void aQueryShowsItsRows() throws Exception {
    List<List<String>> rows = runQuery(PEOPLE, null);
    assertThat(rows).containsExactly(List.of("alice", "30"), List.of("bob", "25"), List.of("carol", "30"));
    shot("query-table");
  }

  @Test
  @Order(3)
  void anUploadedNdjsonFileBecomesTheNewestCommitInTheHistory() throws Exception {
    Path ndjson = dir.resolve("people.ndjson");
    Files.writeString(ndjson, "{\"type\":\"Person\",\"data\":{\"name\":\"dave\",\"age\":41}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":" + json(XSS_SCRIPT) + ",\"age\":7}}\n"
        + "{\"type\":\"Person\",\"data\":{\"name\":" + json(XSS_IMG) + ",\"age\":8}}\n"
        + "{\"edge\":\"Knows\",\"from\":\"carol\",\"to\":\"dave\"}\n");
    String commit = upload(ndjson);
    assertThat(text("#load-percent")).isEqualTo("100%");
    assertThat(browser.findElement(By.id("load-progress")).getAttribute("value")).isEqualTo("100");
    shot("write-load");

    browser.findElement(By.id("see-history")).click();
    WebElement dag = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#dag[data-node-count]")));
    List<WebElement> rows = wait.until(d -> {
      List<WebElement> r = d.findElements(By.cssSelector("#commit-list tbody tr"));
      return r.isEmpty() ? null : r;
    });
    // Newest first: the upload's commit heads the list, and every listed commit is drawn.
    assertThat(rows.get(0).getAttribute("data-commit")).isEqualTo(commit);
    assertThat(dag.getAttribute("data-node-count")).isEqualTo(Integer.toString(rows.size()));
    assertThat(rows).hasSize(3);
    rows.get(0).click();
    wait.until(d -> d.findElement(By.id("commit-detail")).getText().contains("Person"));
    wait.until(d -> !d.findElements(By.cssSelector("#commit-detail table")).isEmpty()
        && d.findElements(By.cssSelector("#commit-detail table")).size() == 2);
    assertThat(text("#commit-detail")).contains(commit).contains("insert").contains("dave");
    shot("history");
  }

  @Test
  @Order(4)
  void anOlderCommitShowsTheOlderRows() throws Exception {
    // The commit before the upload, chosen in the history and queried there (time travel).
    browser.get(base + "/ui/#history");
    List<WebElement> rows = wait.until(d -> {
      List<WebElement> r = d.findElements(By.cssSelector("#commit-list tbody tr"));
      return r.size() < 2 ? null : r;
    });
    String older = rows.get(1).getAttribute("data-commit");
    rows.get(1).click();
    wait.until(ExpectedConditions.elementToBeClickable(By.id("query-at-commit"))).click();
    wait.until(d -> new Select(d.findElement(By.id("query-at"))).getFirstSelectedOption().getAttribute("value").equals(older));
    List<List<String>> then = runQuery(PEOPLE, null);
    assertThat(then).extracting(r -> r.get(0)).containsExactly("alice", "bob", "carol");
    shot("query-older-commit");

    new Select(browser.findElement(By.id("query-at"))).selectByValue("");
    List<List<String>> now = runQuery(PEOPLE, null);
    assertThat(now).extracting(r -> r.get(0)).containsExactly(XSS_IMG, XSS_SCRIPT, "alice", "bob", "carol", "dave");
  }

  @Test
  @Order(5)
  void aTwoHopResultIsDrawnAsAGraphWithClickableNodes() throws Exception {
    setEditor("query-text", "query two_hops() {\n  match {\n    $a: Person\n    $a knows $b\n    $b knows $c\n  }\n"
        + "  return { $a, $b, $c }\n}\n");
    browser.findElement(By.id("run-query")).click();
    WebElement graph = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#result-graph[data-node-count]")));
    // alice -> bob -> carol and bob -> carol -> dave: four people, three Knows edges.
    assertThat(graph.getAttribute("data-node-count")).isEqualTo("4");
    assertThat(graph.getAttribute("data-edge-count")).isEqualTo("3");
    // A real click on dave where cytoscape drew him shows his properties.
    clickNode(graph, "dave");
    shot("query-two-hops-clicked");
    wait.until(d -> d.findElement(By.id("node-props")).getText().contains("41"));
    assertThat(text("#node-props")).contains("dave").contains("age").contains("41");
    shot("query-two-hops");
  }

  @Test
  @Order(6)
  void aDuplicateIdIsShownAsAKeyConflict() throws Exception {
    Path ndjson = dir.resolve("dup.ndjson");
    Files.writeString(ndjson, "{\"type\":\"Person\",\"data\":{\"name\":\"alice\"}}\n");
    browser.get(base + "/ui/#write");
    browser.findElement(By.id("load-file")).sendKeys(ndjson.toString());
    browser.findElement(By.id("run-load")).click();
    WebElement outcome = wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#load-outcome .outcome[data-kind='key-conflict']")));
    assertThat(outcome.getText()).contains("Key conflict (409)").contains("Person").contains("\"alice\"")
        .contains("Nothing was written");
    shot("write-key-conflict");
  }

  @Test
  @Order(7)
  void markupInTheGraphIsShownAsText() throws Exception {
    runQuery(PEOPLE, null);
    List<String> cells = browser.findElements(By.cssSelector("#results td")).stream().map(WebElement::getText)
        .collect(Collectors.toList());
    assertThat(cells).contains(XSS_SCRIPT, XSS_IMG);
    assertThat(browser.findElements(By.cssSelector("#results script, #results img"))).isEmpty();
    assertThat(((JavascriptExecutor) browser).executeScript("return window.__pwned === undefined")).isEqualTo(true);
  }

  @Test
  @Order(8)
  void aQueryErrorPointsAtItsLineAndColumn() throws Exception {
    setEditor("query-text", "query broken() {\n  match {\n    $p: Persn\n  }\n  return { $p }\n}\n");
    browser.findElement(By.id("run-query")).click();
    WebElement outcome = wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#query-outcome .outcome[data-kind='bad-request']")));
    assertThat(outcome.getText()).contains("Error at line 3, column").contains("Persn");
    assertThat(browser.findElements(By.cssSelector(".editor .tk-error"))).isNotEmpty();
    shot("query-error");
  }

  @Test
  @Order(9)
  void aConditionalMutationOnAStaleHeadIsShownAsAPreconditionFailure() throws Exception {
    browser.get(base + "/ui/#write");
    WebElement expected = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("expected-head")));
    wait.until(d -> !expected.getAttribute("value").isEmpty());
    browser.findElement(By.id("if-head")).click();
    setEditor("mutation-params", "{\"value\": \"erin\"}");
    browser.findElement(By.id("run-mutation")).click();
    WebElement ok = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#mutation-outcome .outcome.ok")));
    assertThat(ok.getText()).contains("1 node and 0 edges affected");
    String seen = expected.getAttribute("value");
    // Someone else writes (an upload from the same page), so the head the user saw is stale.
    Path other = dir.resolve("frank.ndjson");
    Files.writeString(other, "{\"type\":\"Person\",\"data\":{\"name\":\"frank\"}}\n");
    browser.findElement(By.id("load-file")).sendKeys(other.toString());
    browser.findElement(By.id("run-load")).click();
    WebElement loaded = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#load-outcome .outcome.ok")));
    String head = loaded.findElement(By.tagName("strong")).getText().replaceAll(".* ", "");
    setEditor("mutation-params", "{\"value\": \"gina\"}");
    browser.findElement(By.id("run-mutation")).click();
    WebElement refused = wait.until(ExpectedConditions.presenceOfElementLocated(
        By.cssSelector("#mutation-outcome .outcome[data-kind='precondition']")));
    assertThat(refused.getText()).contains("(412)").contains("Nothing was written").contains(seen).contains(head);
    shot("write-precondition");
  }

  @Test
  @Order(10)
  void everyTypedOutcomeHasItsWords() {
    browser.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    @SuppressWarnings("unchecked")
    List<String> shown = (List<String>) ((JavascriptExecutor) browser).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "import('/ui/js/outcome.js').then(m => done(["
            + " {status: 409, body: {error: 'e', code: 'conflict', read_set_conflict: {member: 'node:Person', expected: 3, actual: 4}}},"
            + " {status: 413, body: {error: 'e', code: 'bad_request', resource_limit: {resource: 'rows', limit: 8192, actual: 9000}}},"
            + " {status: 408, body: {error: 'e', code: 'bad_request', resource_limit: {resource: 'timeout_ms', limit: 10, actual: 11}}},"
            + " {status: 503, body: {error: 'e', recovery_required: {operation_id: 'op-7'}}},"
            + " {status: 503, body: {error: 'the object store did not answer', code: 'internal'}, retryAfter: '2'},"
            + " {status: 401, body: {error: 'missing bearer token', code: 'unauthorized'}},"
            + "].map(e => { const d = m.describe(e); return d.kind + ' | ' + d.title + ' | ' + d.advice; })));");
    assertThat(shown).hasSize(6);
    assertThat(shown.get(0)).startsWith("read-set-changed | ").contains("node:Person: expected 3, now 4");
    assertThat(shown.get(1)).startsWith("resource-limit | Too large (413): rows limit 8192, got 9000");
    assertThat(shown.get(2)).startsWith("resource-limit | Too large (408): timeout_ms").contains("time budget");
    assertThat(shown.get(3)).startsWith("recovery | Writes wait for recovery (503)").contains("op-7");
    assertThat(shown.get(4)).startsWith("unavailable | Service unavailable (503)").contains("Retry after 2 s");
    assertThat(shown.get(5)).startsWith("unauthorized | Not authorized (401)");
  }

  @Test
  @Order(11)
  void healthShowsReadinessTheLeaseAndTheWriteMetrics() throws Exception {
    browser.get(base + "/ui/#health");
    wait.until(d -> d.findElements(By.id("metrics")).size() == 1);
    String health = text("#health");
    assertThat(health).contains("Readiness: UP").contains("default").contains("up");
    assertThat(text("#lease")).contains("writer").contains("pid");
    // Three loads and a mutation landed; a load met a key conflict, a mutation a stale head.
    assertThat(text("#metrics")).containsPattern("writes\\s+5").containsPattern("conflicts\\s+2");
    shot("health");
    // No policy violation other than the inline <style> cytoscape tries to inject (its rule is in
    // console.css), and no script error, on any page the tests visited.
    List<String> problems = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue()).map(LogEntry::getMessage)
        .filter(m -> !(m.contains("Content Security Policy") && m.contains("style-src")))
        .filter(m -> !m.contains("the server responded with a status of"))
        .collect(Collectors.toList());
    assertThat(problems).isEmpty();
  }

  @Test
  @Order(12)
  void aNodeWhoseKeyLooksLikeAnEdgeIdHidesNoEdge() throws Exception {
    // Issue 44 item 8: node and edge ids once shared one namespace ("Type:key" for a node,
    // "source|Edge|target" for an edge), so this person's id was exactly the id of the real
    // alice -> bob edge and cytoscape dropped the edge as a duplicate.
    String lookalike = "alice|Knows|Person:bob";
    Path ndjson = dir.resolve("lookalike.ndjson");
    Files.writeString(ndjson, "{\"type\":\"Person\",\"data\":{\"name\":" + json(lookalike) + "}}\n"
        + "{\"edge\":\"Knows\",\"from\":" + json(lookalike) + ",\"to\":\"carol\"}\n");
    browser.get(base + "/ui/#write");
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("load-file"))).sendKeys(ndjson.toString());
    browser.findElement(By.id("run-load")).click();
    wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#load-outcome .outcome.ok")));

    browser.get(base + "/ui/#query");
    WebElement graph = drawQuery("query pairs() {\n  match {\n    $a: Person\n    $a knows $b\n  }\n  return { $a, $b }\n}\n");
    // Knows: alice -> bob, bob -> carol, carol -> dave, lookalike -> carol: five people, four edges.
    assertThat(graph.getAttribute("data-node-count")).isEqualTo("5");
    assertThat(graph.getAttribute("data-edge-count")).isEqualTo("4");
    @SuppressWarnings("unchecked")
    List<String> drawn = (List<String>) ((JavascriptExecutor) browser).executeScript(
        "const cy = document.querySelector('#result-graph').cy;"
            + " return cy.edges().map(e => e.source().data('entityId') + ' -> ' + e.target().data('entityId')).sort();");
    assertThat(drawn).containsExactly("alice -> bob", lookalike + " -> carol", "bob -> carol", "carol -> dave");
    shot("query-lookalike-node");
  }

  /**
   * Issue 45: with about 20 commits the history drawing was fitted into a fixed box, shrinking the
   * commits until their labels overlapped. Now each commit keeps a readable row and the box scrolls.
   */
  @Test
  @Order(13)
  void aLongHistoryKeepsEveryLabelReadableAndApart() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/load/ndjson?branch=main"))
          .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + token(WRITER))
          .POST(HttpRequest.BodyPublishers.ofString("{\"type\":\"Person\",\"data\":{\"name\":\"h" + i + "\"}}\n"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }
    browser.get(base + "/ui/#history");
    browser.navigate().refresh();
    WebElement dag = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#dag[data-node-count]")));
    assertThat(Integer.parseInt(dag.getAttribute("data-node-count"))).isGreaterThanOrEqualTo(24);
    @SuppressWarnings("unchecked")
    java.util.Map<String, Object> layout = (java.util.Map<String, Object>) ((JavascriptExecutor) browser).executeScript(
        "const cy = document.querySelector('#dag').cy;"
            + " const boxes = cy.nodes().map(n => n.renderedBoundingBox({ includeLabels: true }));"
            + " let overlaps = 0;"
            + " for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {"
            + "   const a = boxes[i], b = boxes[j];"
            + "   if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps++; }"
            + " return { overlaps: overlaps, zoom: cy.zoom() };");
    assertThat(((Number) layout.get("overlaps")).intValue()).as("overlapping commit labels").isZero();
    assertThat(((Number) layout.get("zoom")).doubleValue()).as("label scale").isGreaterThanOrEqualTo(0.9);
    shot("history-long");
  }

  /**
   * Issue 34: the header names the signed-in actor, and the write controls the caller may not use
   * are disabled, each saying which action it lacks; the same page as the writer has them enabled.
   */
  @Test
  @Order(14)
  void aReaderSeesItsActorAndDisabledWriteControls() throws Exception {
    browser.get(base + "/ui/#write");
    signIn(READER);
    assertThat(text("#actor")).isEqualTo("signed in as " + READER);
    for (String id : List.of("run-mutation", "run-load")) {
      WebElement control = browser.findElement(By.id(id));
      assertThat(control.isEnabled()).as(id).isFalse();
      assertThat(control.getAttribute("title")).as(id).isEqualTo("Not allowed: needs the 'change' permission on branch main");
    }
    shot("write-read-only");

    signIn(WRITER);
    assertThat(text("#actor")).isEqualTo("signed in as " + WRITER);
    for (String id : List.of("run-mutation", "run-load")) {
      WebElement control = browser.findElement(By.id(id));
      assertThat(control.isEnabled()).as(id).isTrue();
      assertThat(control.getAttribute("title")).as(id).isNullOrEmpty();
    }
  }

  /**
   * Issue 36: a node's Blob property is a panel of its own (docs/console.md, "Blob cells"): its
   * size, a text preview (one ranged GET), an image preview, a download of the whole cell as a file,
   * and an upload that replaces the bytes (PUT with If-Match of the ETag shown).
   */
  @Test
  @Order(15)
  void aBlobCellShowsItsSizePreviewsDownloadsAndUploads() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    HttpResponse<String> schema = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/schema"))
        .header("Authorization", "Bearer " + token(WRITER)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(schema.statusCode()).as(schema.body()).isEqualTo(200);
    String source = mapper.readTree(schema.body()).get("schema_source").asText()
        + "\nnode Doc {\n  slug: String @key\n  body: Blob?\n}\n";
    HttpResponse<String> applied = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/schema/apply"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token(WRITER))
        .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(java.util.Map.of("schema_source", source))))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
    byte[] text = "hello, blob\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] png = png(48, 32);
    java.util.Base64.Encoder b64 = java.util.Base64.getEncoder();
    HttpResponse<String> loaded = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/load/ndjson?branch=main"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + token(WRITER))
        .POST(HttpRequest.BodyPublishers.ofString(
            "{\"type\":\"Doc\",\"data\":{\"slug\":\"readme\",\"body\":\"base64:" + b64.encodeToString(text) + "\"}}\n"
                + "{\"type\":\"Doc\",\"data\":{\"slug\":\"logo\",\"body\":\"base64:" + b64.encodeToString(png) + "\"}}\n"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);

    // The page reads the schema once: opened again, it knows Doc and its Blob property.
    browser.get(base + "/ui/#query");
    browser.navigate().refresh();
    wait.until(d -> ("signed in as " + WRITER).equals(d.findElement(By.id("actor")).getText()));
    WebElement graph = drawQuery("query docs() {\n  match {\n    $d: Doc\n  }\n  return { $d }\n}\n");
    assertThat(graph.getAttribute("data-node-count")).isEqualTo("2");

    // Text: the size, the content type the bytes look like, the first bytes as text.
    clickNode(graph, "readme");
    String panel = "#node-props .blob[data-property='body'] ";
    wait.until(d -> d.findElements(By.cssSelector(panel + ".blob-text")).size() == 1
        && d.findElement(By.cssSelector("#node-props h3")).getText().contains("readme"));
    assertThat(text(panel + ".blob-size")).isEqualTo(text.length + " bytes");
    assertThat(text(panel + ".blob-type")).isEqualTo("application/octet-stream (looks like text)");
    assertThat(text(panel + ".blob-text")).isEqualTo("hello, blob");
    shot("blob-text");

    // Download: the whole cell, saved by the browser under the console's file name.
    Path downloads = Files.createDirectories(dir.resolve("downloads"));
    browser.executeCdpCommand("Browser.setDownloadBehavior",
        java.util.Map.of("behavior", "allow", "downloadPath", downloads.toString()));
    browser.findElement(By.cssSelector(panel + ".blob-download")).click();
    Path saved = downloads.resolve("Doc-readme-body");
    wait.until(d -> Files.exists(saved));
    assertThat(Files.readAllBytes(saved)).isEqualTo(text);

    // Upload: the chosen file replaces the bytes, and the panel reads the new cell.
    String etag = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/blob?entity=node&type=Doc&id=readme"
        + "&property=body&branch=main")).method("HEAD", HttpRequest.BodyPublishers.noBody())
        .header("Authorization", "Bearer " + token(WRITER)).build(), HttpResponse.BodyHandlers.discarding())
        .headers().firstValue("ETag").orElseThrow();
    byte[] replaced = "replaced from the console\n".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Path file = Files.write(dir.resolve("replacement.txt"), replaced);
    browser.findElement(By.cssSelector(panel + ".blob-file")).sendKeys(file.toString());
    browser.findElement(By.cssSelector(panel + ".blob-upload")).click();
    // The panel is drawn again after the PUT: what was found a moment ago may be gone.
    new WebDriverWait(browser, Duration.ofSeconds(30)).ignoring(StaleElementReferenceException.class).until(d -> d.findElements(By.cssSelector(panel + ".blob-text")).size() == 1
        && d.findElement(By.cssSelector(panel + ".blob-text")).getText().equals("replaced from the console"));
    assertThat(text(panel + ".blob-size")).isEqualTo(replaced.length + " bytes");
    HttpResponse<byte[]> now = http.send(HttpRequest.newBuilder(URI.create(base + "/graphs/default/blob?entity=node"
        + "&type=Doc&id=readme&property=body&branch=main")).header("Authorization", "Bearer " + token(WRITER)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(now.statusCode()).isEqualTo(200);
    assertThat(now.body()).isEqualTo(replaced);
    assertThat(now.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
    shot("blob-uploaded");

    // Image: previewed whole from a blob: URL, decoded by the browser at its size.
    clickNode(graph, "logo");
    wait.until(d -> d.findElements(By.cssSelector(panel + "img.blob-image")).size() == 1
        && d.findElement(By.cssSelector("#node-props h3")).getText().contains("logo"));
    assertThat(text(panel + ".blob-size")).isEqualTo(png.length + " bytes");
    assertThat(text(panel + ".blob-type")).isEqualTo("application/octet-stream (looks like image/png)");
    WebElement img = browser.findElement(By.cssSelector(panel + "img.blob-image"));
    assertThat(img.getAttribute("src")).startsWith("blob:");
    wait.until(d -> Boolean.TRUE.equals(((JavascriptExecutor) d).executeScript(
        "return arguments[0].complete && arguments[0].naturalWidth > 0", img)));
    assertThat(((JavascriptExecutor) browser).executeScript(
        "return arguments[0].naturalWidth + 'x' + arguments[0].naturalHeight", img)).isEqualTo("48x32");
    shot("blob-image");
  }

  /** A red PNG of that size, made here so that the preview has real image bytes to decode. */
  private static byte[] png(int width, int height) throws IOException {
    java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(width, height,
        java.awt.image.BufferedImage.TYPE_INT_RGB);
    for (int x = 0; x < width; x++) {
      for (int y = 0; y < height; y++) {
        image.setRGB(x, y, 0xd62728);
      }
    }
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    javax.imageio.ImageIO.write(image, "png", out);
    return out.toByteArray();
  }

  /** Runs {@code query} in the query view and returns its drawing (the previous one removed first). */
  private WebElement drawQuery(String query) {
    setEditor("query-text", query);
    String cleared = (String) ((JavascriptExecutor) browser).executeScript(
        "const g = document.querySelector('#result-graph'); if (g) g.remove(); return 'cleared'");
    assertThat(cleared).isEqualTo("cleared");
    browser.findElement(By.id("run-query")).click();
    return wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#result-graph[data-node-count]")));
  }

  /** A real click where cytoscape drew the node with {@code entityId} in {@code graph}. */
  private void clickNode(WebElement graph, String entityId) {
    @SuppressWarnings("unchecked")
    java.util.Map<String, Number> at = (java.util.Map<String, Number>) ((JavascriptExecutor) browser).executeScript(
        "const c = arguments[0]; c.scrollIntoView({block: 'center'});"
            + " const p = c.cy.nodes().filter(n => n.data('entityId') === arguments[1])[0].renderedPosition();"
            + " return {x: p.x - c.clientWidth / 2, y: p.y - c.clientHeight / 2};", graph, entityId);
    new org.openqa.selenium.interactions.Actions(browser)
        .moveToElement(graph, at.get("x").intValue(), at.get("y").intValue()).click().perform();
  }

  private static String token(String actor) {
    return actor + "-token";
  }

  private static String sha256(String token) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(token.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  /**
   * Uses {@code actor}'s token in the header's form, then waits until the page has asked the server
   * who that is: the view is drawn again for the new caller in the same step.
   */
  private void signIn(String actor) {
    WebElement field = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("token")));
    field.sendKeys(token(actor));
    browser.findElement(By.id("token-save")).click();
    wait.until(d -> actor.equals(d.findElement(By.id("actor")).getAttribute("data-actor")));
  }

  private static final String PEOPLE = "query people() {\n  match {\n    $p: Person\n  }\n"
      + "  return { $p.name, $p.age }\n  order { $p.name }\n}\n";

  /** Runs the query text (at the run-at choice shown) and returns the table's rows as text. */
  private List<List<String>> runQuery(String query, String ignored) {
    if (!browser.getCurrentUrl().endsWith("#query") && !browser.getCurrentUrl().endsWith("/ui/")) {
      browser.get(base + "/ui/#query");
    }
    WebElement area = wait.until(ExpectedConditions.presenceOfElementLocated(By.id("query-text")));
    setEditor("query-text", query);
    String before = (String) ((JavascriptExecutor) browser).executeScript(
        "const o = document.querySelector('#query-outcome'); o.replaceChildren(); return 'cleared'");
    assertThat(before).isEqualTo("cleared");
    browser.findElement(By.id("run-query")).click();
    wait.until(d -> !d.findElements(By.cssSelector("#query-outcome .outcome")).isEmpty());
    assertThat(browser.findElements(By.cssSelector("#query-outcome .outcome.ok"))).as(text("#query-outcome")).isNotEmpty();
    return browser.findElements(By.cssSelector("#results tbody tr")).stream()
        .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).collect(Collectors.toList()))
        .collect(Collectors.toList());
  }

  private String upload(Path file) {
    browser.get(base + "/ui/#write");
    wait.until(ExpectedConditions.presenceOfElementLocated(By.id("load-file"))).sendKeys(file.toString());
    browser.findElement(By.id("run-load")).click();
    WebElement ok = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#load-outcome .outcome.ok")));
    String title = ok.findElement(By.tagName("strong")).getText();
    assertThat(title).startsWith("Loaded 4 entities in commit ");
    return title.substring(title.lastIndexOf(' ') + 1);
  }

  private void setEditor(String id, String value) {
    WebElement area = wait.until(ExpectedConditions.presenceOfElementLocated(By.id(id)));
    ((JavascriptExecutor) browser).executeScript(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", area, value);
  }

  private String text(String css) {
    return browser.findElement(By.cssSelector(css)).getText();
  }

  private void shot(String name) throws IOException {
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(SHOTS.resolve(name + ".png"), png);
  }

  private static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private void awaitReady(Path log) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      assertThat(serve.isAlive()).as("serve exited early: %s", Files.readString(log)).isTrue();
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready"))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // still starting
      }
      Thread.sleep(250);
    }
    throw new AssertionError("the service did not become ready: " + Files.readString(log));
  }
}
