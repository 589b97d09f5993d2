package dev.omnigraph.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.omnigraph.engine.Omnigraph;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 34: every public method of {@link Omnigraph} reaches the authorization gate, by calling its
 * private {@code authorize} or by delegating (through any chain of its own methods, lambdas
 * included) to one that does, except the methods listed in {@link #UNGATED}, each with why. A new
 * public method that forgets the gate fails here until it asks or is listed.
 */
class GateCoverageTest {

  /**
   * Public methods that never ask the gate, by signature, with why. Static methods first: no gate can
   * be installed before a handle exists.
   */
  static final Map<String, String> UNGATED = Map.ofEntries(
      Map.entry("init(StorageConfig, String, Optional)", "static: creates a root; the opener gates the handle"),
      Map.entry("open(StorageConfig, OpenMode)", "static: returns an ungated handle for the caller to gate"),
      Map.entry("open(StorageConfig, OpenMode, OptimizeSettings)", "static: as open"),
      Map.entry("open(StorageConfig, OpenMode, OptimizeSettings, LeaseSettings)", "static: as open"),
      Map.entry("init(GraphRoots, StorageConfig, String, Optional)", "static: as init, in the caller's registry"),
      Map.entry("open(GraphRoots, StorageConfig, OpenMode, OptimizeSettings, LeaseSettings)",
          "static: as open, in the caller's registry"),
      Map.entry("allowExternalBlobs(ExternalBlobPolicy)",
          "installs the graph's configured external-Blob allow list at start-up; decides no request"),
      Map.entry("gatedBy(PolicyGate)", "installs the gate"),
      Map.entry("typesInScope(String, String, boolean, Optional)", "a preview for GET /queries' listing: it "
          + "answers whether a stored query's types are in the caller's scope and decides nothing"),
      Map.entry("pinnedTo(PolicyGate)", "a view of the handle with one request's gate fixed; every call on it is gated"),
      Map.entry("policyGate()", "accessor: the installed gate"),
      Map.entry("config()", "accessor: the storage configuration"),
      Map.entry("mode()", "accessor: the open mode"),
      Map.entry("optimizeSettings()", "accessor: compaction settings"),
      Map.entry("schemaIdentity()", "accessor: the accepted schema's identity (readiness, cache keys)"),
      Map.entry("close()", "releases the handle"),
      Map.entry("onOptimize(Consumer)", "registers the service's own compaction listener"),
      Map.entry("writerLease()", "the service's lease status, read by the lease route after its read check"),
      Map.entry("refreshSchema()", "the service's own schema reload from the store"),
      Map.entry("branchExists(BranchName)", "the service's own check before it serves a branch; the route is gated"),
      Map.entry("openRecovery()", "what the open's own recovery sweep settled (the service's report)"),
      Map.entry("recover()", "the service's reconciler settling a crashed write; recover(Optional) is the gated one"),
      Map.entry("heal()", "the service's write-entry heal; no actor asked for it"),
      Map.entry("pendingRecovery()", "the service's readiness: pending sidecar keys"),
      Map.entry("recoveryAudit()", "the service's readiness and doctor: recorded recoveries"),
      Map.entry("residue()", "the local doctor view and repair's report (direct store access)"),
      Map.entry("explain(String, String, JsonNode)", "the plan of a query against the schema; reads no data"),
      Map.entry("driftCheck()", "the service's readiness drift probe; writes nothing"));

  private static JavaClass omnigraph;
  /** The handle's read half, a sealed superclass whose public methods every handle has. */
  private static JavaClass reader;
  /** The handle's root-wide administration, the sealed class between the two. */
  private static JavaClass admin;

  @BeforeAll
  static void importEngine() {
    omnigraph = importOne(Omnigraph.class);
    reader = importOne(dev.omnigraph.engine.GraphReader.class);
    admin = importOne(dev.omnigraph.engine.GraphAdmin.class);
  }

  /**
   * {@code type}'s bytecode alone: the call graph needs only its own methods, so the classes it names
   * are not imported from the classpath.
   */
  static JavaClass importOne(Class<?> type) {
    ArchConfiguration config = ArchConfiguration.get();
    boolean resolve = config.resolveMissingDependenciesFromClassPath();
    config.setResolveMissingDependenciesFromClassPath(false);
    try {
      return new ClassFileImporter().importClasses(type).get(type);
    } finally {
      config.setResolveMissingDependenciesFromClassPath(resolve);
    }
  }

  /** {@code name(SimpleType, ...)}: the allow-list key of {@code m}. */
  static String signature(JavaCodeUnit m) {
    return m.getName() + m.getRawParameterTypes().stream().map(JavaClass::getSimpleName)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  /** The code units of {@code owner} that call {@code authorize}, directly or through its own methods. */
  static Set<JavaCodeUnit> gated(JavaClass owner) {
    Set<JavaCodeUnit> reached = new HashSet<>();
    Deque<JavaCodeUnit> todo = new ArrayDeque<>();
    // authorize is declared once, in GraphReader; a subclass's entries call it as inherited.
    owner.getCodeUnits().stream().filter(u -> u.getName().equals("authorize")).forEach(todo::add);
    owner.getCodeUnits().stream().filter(u -> !u.getName().equals("authorize")
        && u.getCallsFromSelf().stream().anyMatch(c -> c.getTarget().getName().equals("authorize")))
        .forEach(u -> {
          reached.add(u);
          todo.add(u);
        });
    while (!todo.isEmpty()) {
      JavaCodeUnit callee = todo.pop();
      for (JavaCodeUnit caller : owner.getCodeUnits()) {
        boolean calls = caller.getCallsFromSelf().stream().anyMatch(c -> c.getTarget().getOwner().equals(owner)
            && c.getTarget().getName().equals(callee.getName())
            && c.getTarget().getRawParameterTypes().equals(callee.getRawParameterTypes()));
        if (calls && reached.add(caller)) {
          todo.push(caller);
        }
      }
    }
    return reached;
  }

  /** Public methods of {@code owner} that neither reach the gate nor are listed in {@code allowed}. */
  static Set<String> ungated(JavaClass owner, Set<String> allowed) {
    Set<JavaCodeUnit> gated = gated(owner);
    return owner.getMethods().stream().filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC))
        .filter(m -> !gated.contains(m)).map(GateCoverageTest::signature).filter(s -> !allowed.contains(s))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void everyPublicMethodReachesTheGateOrIsListedWithWhy() {
    Set<String> ungated = new TreeSet<>(ungated(omnigraph, UNGATED.keySet()));
    ungated.addAll(ungated(reader, UNGATED.keySet()));
    ungated.addAll(ungated(admin, UNGATED.keySet()));
    assertThat(ungated).as("public Omnigraph methods that never call authorize;"
        + " gate them, or list them in UNGATED with why").isEmpty();
  }

  @Test
  void theAllowListNamesOnlyUngatedMethodsThatExist() {
    Set<String> publicMethods = java.util.stream.Stream.of(omnigraph, reader, admin).flatMap(c -> c.getMethods().stream())
        .filter(m -> m.getModifiers().contains(JavaModifier.PUBLIC)).map(GateCoverageTest::signature)
        .collect(Collectors.toSet());
    assertThat(publicMethods).as("every listed method exists").containsAll(UNGATED.keySet());
    Set<String> gated = java.util.stream.Stream.of(omnigraph, reader, admin).flatMap(c -> gated(c).stream())
        .filter(JavaMethod.class::isInstance).map(GateCoverageTest::signature).collect(Collectors.toSet());
    assertThat(gated).as("a listed method that reaches the gate needs no listing").doesNotContainAnyElementsOf(
        UNGATED.keySet());
  }

  @Test
  void aPublicMethodThatSkipsTheGateIsCaught() {
    JavaClass fixture = importOne(Fixture.class);
    assertThat(ungated(fixture, Set.of())).containsExactly("forgot()");
    // ArchUnit attributes a lambda body's calls to the method the lambda is written in.
    assertThat(gated(fixture).stream().map(GateCoverageTest::signature).toList())
        .containsExactlyInAnyOrder("read()", "delegating()", "viaLambda()");
  }

  /** A miniature engine: gated directly, by delegation, through a lambda, and one that forgot. */
  static final class Fixture {
    private void authorize() {}

    public void read() {
      authorize();
    }

    public void delegating() {
      read();
    }

    public void viaLambda() {
      Runnable r = () -> authorize();
      r.run();
    }

    public void forgot() {
      List.of().size();
    }
  }
}
