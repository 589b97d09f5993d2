package dev.omnigraph.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Turns the bytes of an NDJSON load (an HTTP body, a file, stdin) into the {@link Reader} that
 * {@code Omnigraph.load} takes. NDJSON is UTF-8; a byte sequence that is not UTF-8 is refused with a
 * {@link LoadInputError} naming its line, never replaced by U+FFFD (which would store data the client
 * did not send, and which the JSON routes refuse for the same bytes).
 */
public final class NdjsonInput {

  private NdjsonInput() {}

  /**
   * A reader that decodes {@code bytes} as strict UTF-8. Reading past a malformed sequence throws
   * {@link LoadInputError} (unchecked, so it passes through {@code BufferedReader} unchanged). The
   * line is counted here, at the byte, because a buffering reader above decodes ahead of the lines
   * it has returned.
   */
  public static Reader strictUtf8(InputStream bytes) {
    return new StrictUtf8Reader(bytes, 1);
  }

  /**
   * As {@link #strictUtf8(InputStream)}, for bytes that start at line {@code firstLine} of a larger
   * input (a chunk of {@code load --split}): errors name the line of the whole input.
   */
  static Reader strictUtf8(InputStream bytes, long firstLine) {
    return new StrictUtf8Reader(bytes, firstLine);
  }

  private static final class StrictUtf8Reader extends Reader {

    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(8192).flip();
    /** Line feeds decoded so far: the 1-based line being decoded is this + 1. */
    private long newlines;
    /** Characters decoded on that line so far. */
    private long column;
    private boolean eof;
    private boolean flushed;

    StrictUtf8Reader(InputStream in, long firstLine) {
      this.in = in;
      this.newlines = firstLine - 1;
    }

    @Override
    public int read(char[] buf, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (flushed) {
        return -1; // a caller may read again after the end (the decoder refuses use after flush)
      }
      CharBuffer out = CharBuffer.wrap(buf, off, len);
      while (true) {
        CoderResult r = decoder.decode(bytes, out, eof);
        if (r.isError()) {
          count(buf, off, out.position());
          throw new LoadInputError(newlines + 1, "invalid UTF-8 at column " + (column + 1) + " ("
              + r.length() + " malformed byte" + (r.length() == 1 ? "" : "s") + "); NDJSON input must be UTF-8");
        }
        if (r.isOverflow() || out.position() > off) {
          break;
        }
        if (eof) {
          if (!flushed) {
            decoder.flush(out);
            flushed = true;
          }
          break;
        }
        fill();
      }
      int produced = out.position() - off;
      count(buf, off, out.position());
      return produced == 0 && eof ? -1 : produced;
    }

    private void fill() throws IOException {
      bytes.compact();
      int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
      if (n < 0) {
        eof = true;
      } else {
        bytes.position(bytes.position() + n);
      }
      bytes.flip();
    }

    private void count(char[] buf, int from, int to) {
      for (int i = from; i < to; i++) {
        if (buf[i] == '\n') {
          newlines++;
          column = 0;
        } else {
          column++;
        }
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
