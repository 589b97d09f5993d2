package dev.omnigraph.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.omnigraph.PackageContract;
import dev.omnigraph.arch.fixture.contract.ReachesUp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every package says in its {@code package-info.java} what it owns and which of our packages it may
 * use ({@link PackageContract}); this test holds the code to those declarations, and the declarations
 * to floors without a cycle. A new dependency is then a visible edit of a package's contract, made in
 * review, never an accident of an import.
 */
class PackageContractTest {

  private static final String ROOT = "dev.omnigraph";

  private static JavaClasses production;

  @BeforeAll
  static void importProduction() {
    production = ProductionClasses.get();
  }

  @Test
  void everyPackageDeclaresItsContract() {
    Set<String> packages = new TreeSet<>();
    for (JavaClass c : production) {
      String top = topPackage(c.getPackageName());
      if (top != null) {
        packages.add(top);
      }
    }
    Map<String, PackageContract> contracts = contracts(packages);
    assertThat(contracts.keySet()).as("packages with a package-info.java @PackageContract").isEqualTo(packages);
    for (Map.Entry<String, PackageContract> e : contracts.entrySet()) {
      assertThat(e.getValue().owns()).as(e.getKey() + " says what it owns").isNotBlank();
      assertThat(packages).as(e.getKey() + "'s mayUse names real packages").containsAll(List.of(e.getValue().mayUse()));
    }
  }

  @Test
  void classesUseOnlyThePackagesTheirContractLists() {
    Map<String, Set<String>> mayUse = new TreeMap<>();
    contracts(topPackages(production)).forEach((p, c) -> mayUse.put(p, Set.of(c.mayUse())));
    assertThat(violations(production, mayUse)).as("dependencies outside a package's contract").isEmpty();
  }

  @Test
  void theDeclaredPackagesFormFloorsWithoutACycle() {
    Map<String, PackageContract> contracts = contracts(topPackages(production));
    Map<String, Integer> floors = new TreeMap<>();
    for (String p : contracts.keySet()) {
      floor(p, contracts, floors, new ArrayList<>());
    }
    assertThat(floors).isNotEmpty();
  }

  /** The rule fires: a class in {@code storage}'s fixture that reaches up into {@code write}. */
  @Test
  void aDependencyOutsideTheContractIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(ReachesUp.class);
    // The fixture's top package is "arch"; its contract here allows nothing.
    List<String> found = violations(rogue, Map.of("arch", Set.of()));
    assertThat(found).anySatisfy(v -> assertThat(v).contains("ReachesUp").contains("dev.omnigraph.write"));
  }

  private static List<String> violations(JavaClasses classes, Map<String, Set<String>> mayUse) {
    List<String> found = new ArrayList<>();
    for (JavaClass c : classes) {
      String from = topPackage(c.getPackageName());
      Set<String> declared = from == null ? null : mayUse.get(from);
      if (declared == null) {
        continue;
      }
      Set<String> allowed = new HashSet<>(declared);
      allowed.add(from);
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String targetPackage = d.getTargetClass().getPackageName();
        if (!targetPackage.startsWith(ROOT + ".")) {
          continue; // the JDK, frameworks, and the root package (PackageContract, Versions) are open to all
        }
        String to = topPackage(targetPackage);
        if (!allowed.contains(to)) {
          found.add(from + " may not use " + to + ": " + d.getDescription());
        }
      }
    }
    return found;
  }

  /** A package's floor: one above the highest package it may use; a cycle fails with its path. */
  private static int floor(String p, Map<String, PackageContract> contracts, Map<String, Integer> floors, List<String> path) {
    Integer known = floors.get(p);
    if (known != null) {
      return known;
    }
    assertThat(path).as("a cycle in the declared package contracts: " + String.join(" -> ", path) + " -> " + p)
        .doesNotContain(p);
    path.add(p);
    int floor = 0;
    for (String used : contracts.get(p).mayUse()) {
      floor = Math.max(floor, floor(used, contracts, floors, path) + 1);
    }
    path.remove(path.size() - 1);
    floors.put(p, floor);
    return floor;
  }

  private static Set<String> topPackages(JavaClasses classes) {
    Set<String> packages = new TreeSet<>();
    for (JavaClass c : classes) {
      String top = topPackage(c.getPackageName());
      if (top != null) {
        packages.add(top);
      }
    }
    return packages;
  }

  private static Map<String, PackageContract> contracts(Set<String> packages) {
    Map<String, PackageContract> found = new HashMap<>();
    for (String p : packages) {
      Package pkg = packageInfo(ROOT + "." + p);
      PackageContract contract = pkg == null ? null : pkg.getAnnotation(PackageContract.class);
      if (contract != null) {
        found.put(p, contract);
      }
    }
    return new TreeMap<>(found);
  }

  /** Loads the package-info class, so the package's annotations are readable. */
  private static Package packageInfo(String name) {
    try {
      return Class.forName(name + ".package-info").getPackage();
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  /** {@code dev.omnigraph.query.grammar} to {@code query}; the root package itself to null. */
  private static String topPackage(String packageName) {
    if (!packageName.startsWith(ROOT + ".")) {
      return null;
    }
    String rest = packageName.substring(ROOT.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }
}
