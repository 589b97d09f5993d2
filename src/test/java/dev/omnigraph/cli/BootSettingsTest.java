package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BootSettingsTest {

  private static Map<String, String> settle(String... args) {
    Map<String, String> props = new HashMap<>();
    BootSettings.apply(args, props::put);
    return props;
  }

  @Test
  void everyCommandButServeDisablesTheHttpListener() {
    assertThat(settle("version")).containsEntry("quarkus.http.host-enabled", "false");
    assertThat(settle()).containsEntry("quarkus.http.host-enabled", "false");
    assertThat(settle("doctor", "--port", "9")).doesNotContainKey("quarkus.http.port");
  }

  @Test
  void serveAppliesHostPortAndStoreBeforeBoot() {
    Map<String, String> props = settle("serve", "--host", "0.0.0.0", "--port=9001", "--store", "s3://b/g");
    assertThat(props)
        .containsEntry("quarkus.http.host", "0.0.0.0")
        .containsEntry("quarkus.http.port", "9001")
        .containsEntry("omnigraph.storage.uri", "s3://b/g")
        .containsEntry("omnigraph.storage.example", "false")
        .doesNotContainKey("quarkus.http.host-enabled");
    assertThat(settle("serve", "--port", "9001")).doesNotContainKey("omnigraph.storage.example");
  }
}
