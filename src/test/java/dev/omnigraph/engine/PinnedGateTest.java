package dev.omnigraph.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.Forbidden;
import dev.omnigraph.engine.policy.Policy;
import dev.omnigraph.engine.policy.PolicyGate;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.api.LoadMode;
import java.io.StringReader;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Omnigraph#pinnedTo}: the view a server request uses decides against the gate it was pinned
 * to, whatever a policy reload installs on the handle meanwhile, and closing it leaves the handle open.
 */
class PinnedGateTest extends AbstractGraphFixture {

  private static final String GQ = "query add($name: String) { insert Person { name: $name } }";
  private static final Optional<String> BRUNO = Optional.of("act-bruno");

  @Override
  protected StorageConfig newRoot() throws Exception {
    return StorageConfig.local(Files.createTempDirectory("pinned-gate"));
  }

  @Override
  protected void buildTemplate(Omnigraph template) {
    template.load("main", new StringReader(person("Ada", 36)), LoadMode.MERGE, Optional.of("act-test"));
  }

  @Test
  void aPinnedViewKeepsItsGateAcrossAReloadAndClosesNothing() {
    PolicyGate a = PolicyGate.enforcing(Policy.parse(dev.omnigraph.engine.policy.E2eCases.POLICY, "e2e.yaml"));
    graph.gatedBy(a);
    Omnigraph request = graph.pinnedTo(graph.policyGate());
    graph.gatedBy(PolicyGate.OPEN); // a reload while the request runs
    assertThat(request.policyGate()).isSameAs(a);
    assertThat(graph.pinnedTo(PolicyGate.DEFAULT_DENY).pinnedTo(a).policyGate()).isSameAs(a);
    var params = new ObjectMapper().createObjectNode().put("name", "Bob");
    assertThatThrownBy(() -> request.mutate("main", GQ, "add", params, BRUNO, Optional.empty()))
        .isInstanceOf(Forbidden.class);
    request.close();
    // The handle still serves (storage and lease are its own), under the gate now installed.
    assertThat(graph.mutate("main", GQ, "add", params, BRUNO, Optional.empty()).commit()).isPresent();
  }
}
