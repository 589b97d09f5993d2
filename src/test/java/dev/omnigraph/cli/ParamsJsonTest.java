package dev.omnigraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.InvalidRequest;
import org.junit.jupiter.api.Test;

/**
 * Issue 44 item 6: {@code --params} is read as strictly as a request body's {@code params}; before,
 * {@code {"name":"L9","name":"L10"}} ran with L10, and what followed the object was dropped.
 */
class ParamsJsonTest {

  @Test
  void aKeyGivenTwiceOrContentAfterTheObjectIsRefusedInOurWords() {
    assertThatThrownBy(() -> ParamsJson.parse("{\"name\":\"L9\",\"name\":\"L10\"}"))
        .isInstanceOf(InvalidRequest.class)
        .hasMessage("--params: field 'name' appears twice in one object at column 14");
    assertThatThrownBy(() -> ParamsJson.parse("{\"a\":{\"b\":1,\"b\":2}}"))
        .isInstanceOf(InvalidRequest.class).hasMessageContaining("field 'b' appears twice in one object");
    assertThatThrownBy(() -> ParamsJson.parse("{\"name\":\"x\"} {\"name\":\"y\"}"))
        .isInstanceOf(InvalidRequest.class).hasMessageStartingWith("--params: unexpected content after the JSON value");
    assertThatThrownBy(() -> ParamsJson.parse("[".repeat(2_000)))
        .isInstanceOf(InvalidRequest.class)
        .hasMessageStartingWith("--params: nested 1001 levels deep, over the limit of 1000")
        .hasMessageNotContaining("StreamReadConstraints");
    assertThat(ParamsJson.parse("{\"name\":\"x\",\"list\":[{\"name\":1},{\"name\":2}]}").get("name").asText())
        .isEqualTo("x");
  }
}
