package dev.omnigraph.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.omnigraph.arch.fixture.RogueCommitter;
import dev.omnigraph.arch.fixture.RogueLanceWriter;
import dev.omnigraph.arch.fixture.RogueRootMap;
import dev.omnigraph.arch.fixture.RogueS3Caller;
import dev.omnigraph.recovery.fixture.RogueSettler;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Enforces {@link WriterBoundaryRules} on production code, and proves each rule can fail. */
class ArchitectureTest {

  private static JavaClasses production;

  @BeforeAll
  static void importProduction() {
    production = ProductionClasses.get();
    assertThat(production.size()).as("production classes imported").isGreaterThan(5);
  }

  static List<ArchRule> rules() {
    return List.of(
        WriterBoundaryRules.ONLY_TABLE_STORE_USES_LANCE_WRITE_TYPES,
        WriterBoundaryRules.ONLY_TABLE_STORE_CALLS_LANCE_WRITE_METHODS,
        WriterBoundaryRules.ONLY_STORAGE_USES_THE_AWS_SDK,
        WriterBoundaryRules.ONLY_THE_MANIFEST_PACKAGE_TOUCHES_MANIFEST_DATASET,
        WriterBoundaryRules.STORAGE_DEPENDS_ON_NOTHING_ABOVE_IT,
        WriterBoundaryRules.ONE_RETRY_LOOP,
        WriterBoundaryRules.POLICY_DEPENDS_ONLY_ON_THE_API,
        WriterBoundaryRules.ONLY_THE_TEMPLATE_ARMS_AND_PUBLISHES,
        WriterBoundaryRules.SERVER_AND_CLI_USE_ONLY_ENGINE_AND_API,
        WriterBoundaryRules.NO_STATIC_MAP_BUT_THE_LISTED);
  }

  @ParameterizedTest
  @MethodSource("rules")
  void productionCodeKeepsTheBoundary(ArchRule rule) {
    rule.check(production);
  }

  @Test
  void aLanceCommitOutsideTheTableStoreIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueLanceWriter.class);
    EvaluationResult types = WriterBoundaryRules.ONLY_TABLE_STORE_USES_LANCE_WRITE_TYPES.evaluate(rogue);
    EvaluationResult calls = WriterBoundaryRules.ONLY_TABLE_STORE_CALLS_LANCE_WRITE_METHODS.evaluate(rogue);
    assertThat(types.hasViolation()).isTrue();
    assertThat(calls.hasViolation()).isTrue();
    assertThat(calls.getFailureReport().getDetails())
        .anySatisfy(d -> assertThat(d).contains("createBranch"))
        .anySatisfy(d -> assertThat(d).contains("restore"));
  }

  @Test
  void aCliClassReachingBelowTheEngineIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(
        dev.omnigraph.cli.archfixture.RogueCliImport.class);
    EvaluationResult result = WriterBoundaryRules.SERVER_AND_CLI_USE_ONLY_ENGINE_AND_API.evaluate(rogue);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(d -> assertThat(d).contains("dev.omnigraph.table.ManifestDataset"))
        .noneSatisfy(d -> assertThat(d).contains("dev.omnigraph.api."))
        .noneSatisfy(d -> assertThat(d).contains("dev.omnigraph.util."));
  }

  @Test
  void anAwsSdkCallOutsideStorageIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueS3Caller.class);
    assertThat(WriterBoundaryRules.ONLY_STORAGE_USES_THE_AWS_SDK.evaluate(rogue).hasViolation()).isTrue();
  }

  @Test
  void aWriterArmingAndPublishingBesideTheTemplateIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueCommitter.class);
    EvaluationResult result = WriterBoundaryRules.ONLY_THE_TEMPLATE_ARMS_AND_PUBLISHES.evaluate(rogue);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(d -> assertThat(d).contains("arm"))
        .anySatisfy(d -> assertThat(d).contains("publish"))
        .anySatisfy(d -> assertThat(d).contains("retire"));
  }

  @Test
  void aRecoveryClassSettlingBesideTheSettleTemplateIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueSettler.class);
    EvaluationResult result = WriterBoundaryRules.ONLY_THE_TEMPLATE_ARMS_AND_PUBLISHES.evaluate(rogue);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anySatisfy(d -> assertThat(d).contains("update"))
        .anySatisfy(d -> assertThat(d).contains("publish"))
        .anySatisfy(d -> assertThat(d).contains("delete"));
  }

  @Test
  void aStaticMapKeyedByARootIsCaught() {
    JavaClasses rogue = new ClassFileImporter().importClasses(RogueRootMap.class);
    EvaluationResult result = WriterBoundaryRules.NO_STATIC_MAP_BUT_THE_LISTED.evaluate(rogue);
    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails()).anySatisfy(d -> assertThat(d).contains("BY_ROOT"));
  }
}
