package dev.omnigraph.engine;

import dev.omnigraph.api.NdjsonChunk;
import dev.omnigraph.write.NdjsonChunks;
import dev.omnigraph.write.NdjsonInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.Optional;

/**
 * The front ends' door to the NDJSON input of a load (an HTTP body, a file, stdin): decoding it as
 * strict UTF-8 for {@link Omnigraph#load}, and cutting it into chunks within the write bounds for
 * {@code load --split}. The decoding and the bounds stay in the write path.
 */
public final class LoadInput {

  private LoadInput() {}

  /**
   * A reader that decodes {@code bytes} as strict UTF-8; reading past a malformed sequence throws
   * {@code write.LoadInputError} naming its line.
   */
  public static Reader strictUtf8(InputStream bytes) {
    return NdjsonInput.strictUtf8(bytes);
  }

  /** Chunks of {@code in} from line {@code resumeFrom} (1: the whole input), within the write bounds. */
  public static Chunks chunks(InputStream in, long resumeFrom) {
    return new Chunks(new NdjsonChunks(in, resumeFrom));
  }

  /** The chunks of one input, read one at a time. */
  public static final class Chunks {
    private final NdjsonChunks source;

    private Chunks(NdjsonChunks source) {
      this.source = source;
    }

    /** The next chunk holding at least one row; empty at the end of the input. */
    public Optional<NdjsonChunk> next() throws IOException {
      return source.next();
    }
  }
}
