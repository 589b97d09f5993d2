package dev.omnigraph.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadBudgetExceeded.Budget;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.Test;

/** How each read budget is answered: status from ErrorKind, the budget named in resource_limit. */
class ReadBudgetErrorTest {

  @Test
  void aTimeoutIs408AndARowOrByteBudgetIs413WithTheBudgetNamed() {
    Response timeout = ErrorMapper.response(new ReadBudgetExceeded(Budget.TIMEOUT_MS, 30_000, 30_004));
    assertThat(timeout.getStatus()).isEqualTo(408);
    ErrorOutput body = (ErrorOutput) timeout.getEntity();
    assertThat(body.code()).isEqualTo("bad_request");
    assertThat(body.resourceLimit()).isEqualTo(new ErrorOutput.ResourceLimitOutput("timeout_ms", 30_000, 30_004));
    assertThat(body.error()).isEqualTo("read budget exceeded: timeout_ms reached 30004, limit 30000"
        + " (omnigraph.read.timeout-ms); narrow the query or raise the limit");

    Response bytes = ErrorMapper.response(new ReadBudgetExceeded(Budget.INTERMEDIATE_BYTES, 1_000, 1_040));
    assertThat(bytes.getStatus()).isEqualTo(413);
    assertThat(((ErrorOutput) bytes.getEntity()).resourceLimit())
        .isEqualTo(new ErrorOutput.ResourceLimitOutput("intermediate_bytes", 1_000, 1_040));
  }
}
