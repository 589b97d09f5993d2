package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.policy.PolicyAction;
import dev.omnigraph.engine.policy.PolicyGate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Authorization#reload}: by content, once per change, a refused file keeps the policy in force. */
class PolicyReloadTest {

  @TempDir Path dir;

  private static boolean mayChangeMain(PolicyGate gate) {
    return gate.decide(Optional.of("act-bruno"), PolicyAction.CHANGE, Optional.of("main"), Optional.empty()).allowed();
  }

  /** As a ConfigMap update: the data directory is replaced and the file is a symlink through it. */
  private void configMapUpdate(Path data, String policy) throws Exception {
    Path next = Files.createDirectories(dir.resolve("..data_next"));
    Files.writeString(next.resolve("policy.yaml"), policy);
    Path link = dir.resolve("..data_tmp");
    Files.deleteIfExists(link);
    Files.createSymbolicLink(link, next.getFileName());
    Files.move(link, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  @Test
  void aChangedFileAppliesOnceAndABrokenOneKeepsThePolicyInForce() throws Exception {
    Path first = Files.createDirectories(dir.resolve("..data_1"));
    Files.writeString(first.resolve("policy.yaml"), AuthorizationProfile.LIVE_A);
    Path data = Files.createSymbolicLink(dir.resolve("..data"), first.getFileName());
    Path file = Files.createSymbolicLink(dir.resolve("policy.yaml"), Path.of("..data/policy.yaml"));
    Authorization auth = new Authorization(Optional.empty(), Map.of("live", file), true);
    Authorization.Gates pinned = auth.current();
    assertThat(mayChangeMain(auth.forGraph("live"))).isFalse();
    assertThat(auth.reload()).isEmpty(); // nothing changed, nothing parsed again

    configMapUpdate(data, AuthorizationProfile.LIVE_B);
    List<Authorization.Reload> applied = auth.reload();
    assertThat(applied).hasSize(1);
    assertThat(applied.get(0).applied()).isTrue();
    assertThat(applied.get(0).source().key()).isEqualTo("omnigraph.graphs.live.policy-file");
    assertThat(mayChangeMain(auth.forGraph("live"))).isTrue();
    // A request that pinned the snapshot before the reload still decides against A.
    assertThat(mayChangeMain(pinned.forGraph("live"))).isFalse();
    assertThat(auth.reload()).isEmpty();

    configMapUpdate(data, AuthorizationProfile.LIVE_B.replaceFirst("branch_scope", "branch_scpoe"));
    List<Authorization.Reload> refused = auth.reload();
    assertThat(refused).hasSize(1);
    assertThat(refused.get(0).applied()).isFalse();
    assertThat(refused.get(0).refusal().orElseThrow()).isEqualTo("policy " + file + ":6: rule 'team-read': unknown key"
        + " 'branch_scpoe' (allowed: actions, actors, branch_scope, queries, target_branch_scope, types)");
    assertThat(mayChangeMain(auth.forGraph("live"))).isTrue(); // B stays
    assertThat(auth.reload()).isEmpty(); // reported once per change of the bytes

    Files.delete(dir.resolve("..data"));
    assertThat(auth.reload()).singleElement().satisfies(r -> assertThat(r.refusal().orElseThrow())
        .startsWith("policy " + file + ": cannot be read: java.nio.file.NoSuchFileException"));
    assertThat(mayChangeMain(auth.forGraph("live"))).isTrue();

    Path back = Files.createDirectories(dir.resolve("..data_3"));
    Files.writeString(back.resolve("policy.yaml"), AuthorizationProfile.LIVE_A);
    Files.createSymbolicLink(dir.resolve("..data"), back.getFileName());
    assertThat(auth.reload()).singleElement().satisfies(r -> assertThat(r.applied()).isTrue());
    assertThat(mayChangeMain(auth.forGraph("live"))).isFalse();
    assertThat(auth.describe(List.of("live"))).isEqualTo("authorization: server DefaultDeny (tokens, no policy: only"
        + " read); graph live PolicyEnabled (" + file + ", 2 actors, 2 rules)");
  }
}
