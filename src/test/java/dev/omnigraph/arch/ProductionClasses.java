package dev.omnigraph.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The production classes, imported once per test JVM: the import is most of an ArchUnit test's time. */
final class ProductionClasses {

  private static JavaClasses imported;

  private ProductionClasses() {}

  static synchronized JavaClasses get() {
    if (imported == null) {
      imported = new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.omnigraph");
    }
    return imported;
  }
}
