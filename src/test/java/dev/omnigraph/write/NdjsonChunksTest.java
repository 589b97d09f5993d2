package dev.omnigraph.write;

import dev.omnigraph.api.NdjsonChunk;
import dev.omnigraph.api.LoadMode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How {@code load --split} cuts its input: rows per chunk, blank lines, resuming, and line numbers of the whole input. */
class NdjsonChunksTest {

  private static List<String> cut(String text, long resumeFrom, int maxRows) throws Exception {
    NdjsonChunks chunks = new NdjsonChunks(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)),
        resumeFrom, maxRows, Long.MAX_VALUE);
    List<String> out = new ArrayList<>();
    for (Optional<NdjsonChunk> c = chunks.next(); c.isPresent(); c = chunks.next()) {
      out.add(c.get().firstLine() + "-" + c.get().lastLine() + " " + c.get().rows() + " "
          + new String(c.get().bytes(), StandardCharsets.UTF_8).replace("\n", "|"));
    }
    return out;
  }

  @Test
  void chunksCountRowsNotBlankLinesAndKeepTheWholeInputsLineNumbers() throws Exception {
    assertThat(cut("a\n\nb\nc\n \t\nd", 1, 2)).containsExactly("1-3 2 a||b|", "4-6 2 c| \t|d");
    assertThat(cut("a\nb\nc\n\n\n", 1, 2)).containsExactly("1-2 2 a|b|", "3-5 1 c|||");
    assertThat(cut("a\nb\nc\nd\n", 3, 2)).containsExactly("3-4 2 c|d|");
    assertThat(cut("a\nb\n", 3, 2)).isEmpty();
    assertThat(cut("", 1, 2)).isEmpty();
  }

  @Test
  void anInvalidByteFailsTheChunkThatHoldsItNamingItsLineInTheWholeInput() throws Exception {
    ByteArrayOutputStream in = new ByteArrayOutputStream();
    in.writeBytes("{\"type\":\"Person\",\"data\":{\"name\":\"a\"}}\n\n{\"type\":\"Person\",\"data\":{\"name\":\"b".getBytes(StandardCharsets.UTF_8));
    in.write(0xff);
    in.writeBytes("\"}}\n".getBytes(StandardCharsets.UTF_8));
    NdjsonChunks chunks = new NdjsonChunks(new ByteArrayInputStream(in.toByteArray()), 2, 10, Long.MAX_VALUE);
    NdjsonChunk chunk = chunks.next().orElseThrow();
    assertThat(chunk.firstLine()).isEqualTo(2);
    assertThatThrownBy(() -> NdjsonReader.read(NdjsonChunks.reader(chunk), chunk.firstLine(),
        dev.omnigraph.schema.SchemaParser.parse("node Person { name: String @key }"), LoadMode.APPEND))
        .isInstanceOf(LoadInputError.class).hasMessageStartingWith("line 3: invalid UTF-8 at column 35");
  }
}
