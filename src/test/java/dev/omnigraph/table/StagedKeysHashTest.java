package dev.omnigraph.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/** {@link StagedKeys#hash}: an id hashes alike as a String and as the UTF-8 bytes of an Arrow vector. */
class StagedKeysHashTest {

  @Test
  void arrowBytesHashAsTheirStringForAsciiAndOtherIds() {
    List<String> ids = List.of("", "p1", "alice", "h\u00e9llo", "\u65e5\u672c", "emoji-\uD83D\uDE00", "x'\\\"");
    try (BufferAllocator allocator = new RootAllocator();
        VarCharVector v = new VarCharVector("id", allocator)) {
      v.allocateNew();
      for (int i = 0; i < ids.size(); i++) {
        v.setSafe(i, ids.get(i).getBytes(StandardCharsets.UTF_8));
      }
      v.setValueCount(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        long start = v.getOffsetBuffer().getInt((long) i * 4);
        long end = v.getOffsetBuffer().getInt((long) (i + 1) * 4);
        assertThat(StagedKeys.hash(v.getDataBuffer(), start, end)).as(ids.get(i))
            .isEqualTo(StagedKeys.hash(ids.get(i)));
      }
    }
    assertThat(StagedKeys.hash("p1")).isNotEqualTo(StagedKeys.hash("p2"));
  }
}
