package dev.omnigraph.maintenance;

import dev.omnigraph.api.maintenance.OptimizeSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.table.TableStats;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The documented settings keys, defaults and thresholds (docs/maintenance.md, "optimize"). */
class OptimizeSettingsTest {

  @Test
  void defaultsAndOverrides() {
    OptimizeSettings d = OptimizeSettings.from(k -> null);
    assertThat(d).isEqualTo(OptimizeSettings.defaults());
    assertThat(d.autoEnabled()).isTrue();
    assertThat(d.fragmentThreshold()).isEqualTo(32);
    assertThat(d.deletionThreshold()).isEqualTo(16);
    assertThat(d.background()).isFalse();
    Map<String, String> conf = Map.of("omnigraph.optimize.auto.enabled", "false",
        "omnigraph.optimize.fragment-threshold", "8", "omnigraph.optimize.deletion-threshold", "2",
        "omnigraph.optimize.auto.background", "true");
    assertThat(OptimizeSettings.from(conf::get)).isEqualTo(new OptimizeSettings(false, 8, 2, true));
    assertThatThrownBy(() -> OptimizeSettings.from(Map.of("omnigraph.optimize.fragment-threshold", "many")::get))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fragment-threshold");
    assertThatThrownBy(() -> new OptimizeSettings(true, 0, 1, false)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void dueStrictlyPastEitherThreshold() {
    OptimizeSettings s = new OptimizeSettings(true, 4, 2, false);
    assertThat(Optimize.due(s, new TableStats(1, 4, 2, 10, 2))).isFalse();
    assertThat(Optimize.due(s, new TableStats(1, 5, 0, 10, 0))).isTrue();
    assertThat(Optimize.due(s, new TableStats(1, 3, 3, 10, 3))).isTrue();
  }
}
