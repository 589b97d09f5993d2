package dev.omnigraph.write;

import dev.omnigraph.api.NdjsonChunk;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.Optional;

/**
 * Cuts an NDJSON input into chunks that each fit one load commit ({@code omnigraph load --split},
 * docs/write-path.md, "Inputs over the bound"): at most {@link WriteLimits#MAX_KEYED_ROWS} rows, so no table of a chunk can pass the
 * keyed-plan bound, and at most {@link WriteLimits#MAX_KEYED_BYTES} bytes of input text. The input
 * is read as it is cut: only the chunk being filled is held, never the whole input.
 *
 * <p>Lines are cut as bytes at {@code '\n'} (which no other UTF-8 sequence contains) and decoded when
 * the chunk is loaded, so an invalid byte fails the chunk that holds it, naming its line of the
 * whole input. Lines before {@code resumeFrom} are skipped unread (not decoded, not parsed) but
 * counted, so line numbers stay those of the whole input.
 */
public final class NdjsonChunks {

  /** The chunk's text as {@code Omnigraph.load} reads it: strict UTF-8, errors naming the whole input's line. */
  static Reader reader(NdjsonChunk chunk) {
    return new java.io.BufferedReader(NdjsonInput.strictUtf8(new ByteArrayInputStream(chunk.bytes()), chunk.firstLine()));
  }

  private final InputStream in;
  private final long resumeFrom;
  private final int maxRows;
  private final long maxBytes;
  /** Lines read so far (the last one's number). */
  private long line;
  private boolean eof;

  /** Chunks of {@code in} from line {@code resumeFrom} (1: the whole input), within the write bounds. */
  public NdjsonChunks(InputStream in, long resumeFrom) {
    this(in, resumeFrom, WriteLimits.MAX_KEYED_ROWS, WriteLimits.MAX_KEYED_BYTES);
  }

  NdjsonChunks(InputStream in, long resumeFrom, int maxRows, long maxBytes) {
    if (resumeFrom < 1) {
      throw new IllegalArgumentException("resumeFrom is a 1-based line number, got " + resumeFrom);
    }
    this.in = new BufferedInputStream(in, 64 * 1024);
    this.resumeFrom = resumeFrom;
    this.maxRows = maxRows;
    this.maxBytes = maxBytes;
  }

  /** The next chunk holding at least one row; empty at the end of the input. */
  public Optional<NdjsonChunk> next() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    long first = 0;
    int rows = 0;
    while (rows < maxRows && bytes.size() < maxBytes && !eof) {
      ByteArrayOutputStream text = line + 1 < resumeFrom ? null : bytes;
      int start = bytes.size();
      boolean blank = readLine(text);
      if (eof && text != null && bytes.size() == start) {
        break; // no line at all after the last '\n'
      }
      if (text == null) {
        continue;
      }
      if (first == 0) {
        first = line;
      }
      if (!blank) {
        rows++;
      }
    }
    return rows == 0 ? Optional.empty() : Optional.of(new NdjsonChunk(first, line, rows, bytes.toByteArray()));
  }

  /**
   * Reads one line (through its {@code '\n'}) into {@code out}, or past it when {@code out} is null;
   * whether it was blank (as NdjsonReader skips it). Sets {@link #eof} at the end of the input.
   */
  private boolean readLine(ByteArrayOutputStream out) throws IOException {
    boolean blank = true;
    boolean any = false;
    long length = 0;
    int b;
    while ((b = in.read()) >= 0) {
      any = true;
      if (++length > WriteLimits.MAX_NDJSON_LINE_BYTES + 2 && out != null) {
        // The reader's own per-line bound (its terminator aside), here so one huge line is refused
        // before it fills a chunk: the rest of the line is not read.
        throw new dev.omnigraph.api.ResourceLimitExceeded(WriteLimits.NDJSON_LINE_RESOURCE,
            WriteLimits.MAX_NDJSON_LINE_BYTES, length, "refused at line " + (line + 1)
                + ": one NDJSON record is at most " + WriteLimits.MAX_NDJSON_LINE_BYTES
                + " bytes (UTF-8); the rest of the line was not read");
      }
      if (out != null) {
        out.write(b);
      }
      if (b == '\n') {
        break;
      }
      if (b != ' ' && b != '\t' && b != '\r') {
        blank = false;
      }
    }
    if (b < 0) {
      eof = true;
    }
    if (any) {
      line++;
    }
    return blank;
  }
}
