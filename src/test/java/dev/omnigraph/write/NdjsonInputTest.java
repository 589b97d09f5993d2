package dev.omnigraph.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class NdjsonInputTest {

  private static Reader of(byte[] bytes) {
    return NdjsonInput.strictUtf8(new ByteArrayInputStream(bytes));
  }

  @Test
  void aBodyWithoutAFinalLineFeedReadsToTheEndAndStaysAtTheEnd() throws IOException {
    byte[] body = "{\"a\":1}\n{\"b\":\"é\"}".getBytes(StandardCharsets.UTF_8);
    try (BufferedReader r = new BufferedReader(of(body))) {
      assertThat(r.lines().toList()).isEqualTo(List.of("{\"a\":1}", "{\"b\":\"é\"}"));
      assertThat(r.readLine()).isNull();
      assertThat(r.read()).isEqualTo(-1);
    }
    try (Reader r = of(body)) {
      char[] buf = new char[64];
      int n = r.read(buf, 0, buf.length);
      assertThat(new String(buf, 0, n)).isEqualTo("{\"a\":1}\n{\"b\":\"é\"}");
      assertThat(r.read(buf, 0, buf.length)).isEqualTo(-1);
      assertThat(r.read(buf, 0, buf.length)).isEqualTo(-1);
    }
  }

  @Test
  void anEmptyBodyIsAtTheEndAtOnce() throws IOException {
    try (Reader r = of(new byte[0])) {
      assertThat(r.read()).isEqualTo(-1);
      assertThat(r.read()).isEqualTo(-1);
    }
  }

  @Test
  void invalidUtf8NamesItsLine() {
    byte[] body = {'{', '}', '\n', '{', '"', 'x', '"', ':', '"', (byte) 0xC3, '"', '}'};
    assertThatThrownBy(() -> {
      try (BufferedReader r = new BufferedReader(of(body))) {
        r.lines().toList();
      }
    }).isInstanceOf(LoadInputError.class).hasMessageContaining("line 2");
  }
}
