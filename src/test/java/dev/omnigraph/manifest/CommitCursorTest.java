package dev.omnigraph.manifest;

import dev.omnigraph.api.GraphCommit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omnigraph.api.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The commit-listing order and its keyset cursor, without storage. */
class CommitCursorTest {

  private static GraphCommit commit(String id, long version, long createdAt) {
    return new GraphCommit(id, Optional.empty(), Optional.empty(), Optional.empty(), createdAt, "main", version);
  }

  private static String b64(String plain) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void newestFirstIsManifestVersionThenCreatedAtThenIdAllDescending() {
    GraphCommit v9 = commit("01A", 9, 1);          // highest version wins over a later created-at
    GraphCommit v5late = commit("01B", 5, 300);
    GraphCommit v5earlyHighId = commit("01Z", 5, 200);
    GraphCommit v5earlyLowId = commit("01C", 5, 200);
    GraphCommit v1 = commit("01Y", 1, 900);
    List<GraphCommit> shuffled = new ArrayList<>(List.of(v1, v5earlyLowId, v9, v5late, v5earlyHighId));
    shuffled.sort(CommitCursor.NEWEST_FIRST);
    assertThat(shuffled).containsExactly(v9, v5late, v5earlyHighId, v5earlyLowId, v1);
  }

  @Test
  void isAfterIsStrictlyLaterInTheListingOrder() {
    GraphCommit at = commit("01M", 5, 200);
    CommitCursor cursor = CommitCursor.of(at);
    assertThat(cursor.isAfter(at)).isFalse();
    assertThat(cursor.isAfter(commit("01N", 5, 200))).isFalse(); // higher id at the same time: before
    assertThat(cursor.isAfter(commit("01L", 5, 200))).isTrue();
    assertThat(cursor.isAfter(commit("01Z", 5, 199))).isTrue();
    assertThat(cursor.isAfter(commit("01A", 5, 201))).isFalse();
    assertThat(cursor.isAfter(commit("01Z", 4, 999))).isTrue();
    assertThat(cursor.isAfter(commit("01A", 6, 0))).isFalse();
  }

  @Test
  void encodeAndDecodeRoundTripAsAnOpaqueUrlSafeToken() {
    CommitCursor c = new CommitCursor(42, 1714000000000000L, "01HZX3K5Q8W2E7R9T1Y4U6I0OP");
    String wire = c.encode();
    assertThat(wire).matches("[A-Za-z0-9_-]+");
    assertThat(CommitCursor.decode(wire)).isEqualTo(c);
    assertThat(wire).isEqualTo(b64("42:1714000000000000:01HZX3K5Q8W2E7R9T1Y4U6I0OP"));
  }

  @Test
  void aMalformedCursorIsInvalidRequestNamingTheParameter() {
    for (String bad : new String[] {"", "not base64!", "%3D%3D", b64("nope"), b64("1:2"), b64("x:2:01A"),
        b64("1:y:01A"), b64("1:2:"), b64("-1:2:01A"), b64("01:2:01A"), b64("1:2:01 A"), b64("1:2:01A\n"),
        "A".repeat(300)}) {
      assertThatThrownBy(() -> CommitCursor.decode(bad)).as(bad).isInstanceOf(InvalidRequest.class)
          .hasMessageContaining("'cursor'");
    }
  }
}
