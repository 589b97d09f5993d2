package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.engine.ErrorKind;
import org.junit.jupiter.api.Test;

/** The concurrent-export bound, as the reference's export transport budget: 8 streams, then 413. */
class ExportStreamsTest {

  @Test
  void theNinthConcurrentStreamIs413ResourceLimitWithTheReferenceNumbersAndAReleaseFreesASlot() {
    ExportStreams streams = new ExportStreams();
    for (int i = 0; i < 8; i++) {
      streams.reserve();
    }
    ResourceLimitExceeded e = catchThrowableOfType(ResourceLimitExceeded.class, streams::reserve);
    assertThat(e).isNotNull();
    assertThat(e.resource()).isEqualTo("stream_export_transport_bytes");
    assertThat(e.limit()).isEqualTo(2_097_152);
    assertThat(e.actual()).isEqualTo(2_097_152 + 262_144);
    assertThat(ErrorKind.of(e).httpStatus()).isEqualTo(413);
    assertThat(e.getMessage()).contains("retry when one has finished").doesNotContain("commits");
    streams.release();
    streams.reserve(); // a finished stream's slot is free again
  }
}
