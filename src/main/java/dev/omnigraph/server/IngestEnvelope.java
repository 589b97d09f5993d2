package dev.omnigraph.server;

import dev.omnigraph.engine.LoadInput;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.util.StrictJson;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The body of {@code POST /load} and {@code /ingest} ({@link Requests.IngestRequest}), read without
 * holding its {@code data} string: bound by Jackson, that string (up to the 32 MiB load limit) was
 * materialised whole, and then held again by the load, so one 64 MiB body grew the server by 41 MiB
 * (docs/http-api.md). The body streams through {@link DataDiversion}, which copies the top-level
 * {@code data} string's content, checked but undecoded, to a {@link Spool} (memory up to 1 MiB,
 * then a temporary file) and shows Jackson an empty string in its place, padded with spaces to the
 * same length. So everything else is bound exactly as before, by the service's strict mapper: a key
 * given twice, a wrong type (400 naming the field), unknown fields (ignored, as Quarkus's default),
 * trailing content; and every line and column Jackson reports is the body's own. The spool is kept
 * because the fields may come in any order: {@code branch} and {@code mode} may follow the data
 * they govern. {@link #data} decodes the escapes as the load reads ({@link JsonStringEscapes}).
 */
final class IngestEnvelope implements AutoCloseable {

  private final Requests.IngestRequest request;
  private final Spool spool;

  private IngestEnvelope(Requests.IngestRequest request, Spool spool) {
    this.request = request;
    this.spool = spool;
  }

  /**
   * Reads {@code body} with {@code mapper} (the service's) over the strict factory. Fields other than
   * {@code data} are held whole, so they are bounded by the JSON body limit.
   *
   * @throws InvalidRequest without a body, or without {@code data}
   * @throws com.fasterxml.jackson.core.JsonProcessingException the body is not the envelope (400)
   */
  static IngestEnvelope read(ObjectMapper mapper, InputStream body) throws IOException {
    ObjectReader reader = StrictBodies.mapper(mapper).readerFor(Requests.IngestRequest.class)
        .with(StrictJson.factory(mapper.getFactory(), StrictJson.constraints((int) BodyLimits.JSON_LIMIT)));
    DataDiversion diversion = new DataDiversion(body);
    try (JsonParser parser = reader.createParser(diversion)) {
      if (parser.nextToken() == null) {
        throw new InvalidRequest("a JSON request body is required");
      }
      Requests.IngestRequest r = reader.readValue(parser);
      // As FAIL_ON_TRAILING_TOKENS (StrictJsonBodies) does for a body bound from its stream.
      if (parser.nextToken() != null) {
        throw MismatchedInputException.from(parser, Requests.IngestRequest.class,
            "trailing content after the body's object");
      }
      if (r == null) {
        throw new InvalidRequest("a JSON request body is required");
      }
      if (r.data() == null) {
        throw new InvalidRequest("'data' (the NDJSON records, one per line) is required");
      }
      return new IngestEnvelope(r, diversion.spool);
    } catch (IOException | RuntimeException e) {
      if (diversion.spool != null) {
        diversion.spool.close();
      }
      throw e;
    }
  }

  Requests.IngestRequest request() {
    return request;
  }

  /** The NDJSON text of {@code data}, decoded as it is read. */
  Reader data() throws IOException {
    if (spool == null) {
      // Not diverted (a body Jackson read as UTF-16 or UTF-32): Jackson bound the string itself.
      return new StringReader(request.data());
    }
    // The spool was checked as UTF-8 and as a string's content, so neither decoder can refuse it.
    return JsonStringEscapes.decoding(LoadInput.strictUtf8(spool.open()));
  }

  /** Deletes the spool's file, if it has one. */
  @Override
  public void close() throws IOException {
    if (spool != null) {
      spool.close();
    }
  }

  /** Where a diverted string's content goes: memory up to {@link #IN_MEMORY} bytes, then a temporary file. */
  private static final class Spool {

    private static final int IN_MEMORY = (int) BodyLimits.JSON_LIMIT;
    private ByteArrayOutputStream memory = new ByteArrayOutputStream();
    private Path file;
    private OutputStream out;

    void write(byte[] b, int off, int len) throws IOException {
      if (out == null && memory.size() + len > IN_MEMORY) {
        file = Files.createTempFile("omnigraph-load-", ".data");
        out = new BufferedOutputStream(Files.newOutputStream(file));
        memory.writeTo(out);
        memory = null;
      }
      if (out != null) {
        out.write(b, off, len);
      } else {
        memory.write(b, off, len);
      }
    }

    InputStream open() throws IOException {
      if (out == null) {
        return new ByteArrayInputStream(memory.toByteArray());
      }
      out.close();
      return new BufferedInputStream(Files.newInputStream(file));
    }

    void close() throws IOException {
      if (out != null) {
        out.close();
      }
      if (file != null) {
        Files.deleteIfExists(file);
      }
    }
  }

  /**
   * The body as Jackson is shown it: the same bytes, except that the content of the first
   * {@code data} string of the top-level object goes to the {@link #spool} and comes out as spaces
   * after the closing quote, so {@code "data":"…"} reads {@code "data":""   …}. It follows only
   * enough of the JSON grammar to find that string (nesting, strings, the top-level key and value
   * positions) and leaves every other judgement to Jackson, which sees every other byte; what it
   * diverts it checks itself: UTF-8 (RFC 3629) and the string grammar ({@link JsonStringEscapes}),
   * refusing as Jackson would, with the body's line and column.
   */
  private static final class DataDiversion extends InputStream {

    private enum At { KEY_NEXT, IN_KEY, AFTER_KEY, VALUE_NEXT, IN_VALUE }

    private static final byte[] DATA = "data".getBytes(StandardCharsets.US_ASCII);
    /** Longer than any spelling of {@code data} ({@code \}{@code u0064} four times is 24 bytes). */
    private static final int KEY_CAPTURE = 32;

    private final InputStream in;
    private final byte[] buf = new byte[8192];
    private int pos;
    private int len;
    private boolean eof;
    /** Bytes of the body consumed before {@code buf[0]}: with {@link #lineStart}, the column. */
    private long consumed;
    private long line = 1;
    private long lineStart;

    private int depth;
    private boolean rootIsObject;
    private boolean rootClosed;
    private boolean inString;
    private boolean escaped;
    private At at = At.KEY_NEXT;
    private final byte[] key = new byte[KEY_CAPTURE];
    private int keyLength;
    private boolean keyIsData;

    private Spool spool;
    private JsonStringEscapes escapes;
    private boolean diverting;
    private long divertedLength;
    private boolean closingQuote;
    private long padding;
    private int utf8Needed;
    private int utf8Low = 0x80;
    private int utf8High = 0xBF;

    DataDiversion(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] out, int off, int max) throws IOException {
      if (max == 0) {
        return 0;
      }
      int n = 0;
      while (n < max) {
        if (closingQuote) {
          out[off + n++] = '"';
          closingQuote = false;
        } else if (padding > 0) {
          int k = (int) Math.min(padding, max - n);
          Arrays.fill(out, off + n, off + n + k, (byte) ' ');
          padding -= k;
          n += k;
        } else if (pos == len && (n > 0 || !fill())) {
          // Never block for more while holding output; at the end, what is held (or the end).
          break;
        } else if (diverting) {
          divert();
        } else {
          byte b = buf[pos++];
          scan(b);
          out[off + n++] = b;
        }
      }
      return n == 0 ? -1 : n;
    }

    private boolean fill() throws IOException {
      if (eof) {
        return false;
      }
      consumed += len;
      pos = 0;
      len = 0;
      int r = in.read(buf, 0, buf.length);
      if (r < 0) {
        eof = true;
        return false;
      }
      len = r;
      return r > 0 || fill();
    }

    /** Follows one byte Jackson will see. */
    private void scan(byte b) {
      if (b == '\n') {
        line++;
        lineStart = consumed + pos;
      }
      if (inString) {
        if (escaped) {
          escaped = false;
        } else if (b == '\\') {
          escaped = true;
        } else if (b == '"') {
          inString = false;
          if (at == At.IN_KEY) {
            keyIsData = isData();
            at = At.AFTER_KEY;
          }
          return;
        }
        if (at == At.IN_KEY) {
          if (keyLength < KEY_CAPTURE) {
            key[keyLength] = b;
          }
          keyLength++;
        }
        return;
      }
      boolean topLevel = depth == 1 && rootIsObject && !rootClosed;
      switch (b) {
        case '"' -> {
          if (topLevel && at == At.KEY_NEXT) {
            at = At.IN_KEY;
            keyLength = 0;
            inString = true;
          } else if (topLevel && at == At.VALUE_NEXT && keyIsData && spool == null) {
            at = At.IN_VALUE;
            spool = new Spool();
            escapes = new JsonStringEscapes();
            diverting = true;
          } else {
            if (topLevel && at == At.VALUE_NEXT) {
              at = At.IN_VALUE;
            }
            inString = true;
          }
        }
        case '{', '[' -> {
          if (depth == 0 && !rootClosed) {
            rootIsObject = b == '{';
            at = At.KEY_NEXT;
          } else if (topLevel) {
            at = At.IN_VALUE;
          }
          depth++;
        }
        case '}', ']' -> {
          depth--;
          // Only the body's own object: anything after it is trailing content, Jackson's to refuse.
          rootClosed |= depth == 0;
        }
        case ',' -> {
          if (topLevel) {
            at = At.KEY_NEXT;
          }
        }
        case ':' -> {
          if (topLevel && at == At.AFTER_KEY) {
            at = At.VALUE_NEXT;
          }
        }
        case ' ', '\t', '\n', '\r' -> { }
        default -> {
          if (topLevel && at == At.VALUE_NEXT) {
            at = At.IN_VALUE;
          }
        }
      }
    }

    /** Whether the key just read spells {@code data}, escapes decoded (Jackson decodes them too). */
    private boolean isData() {
      if (keyLength > KEY_CAPTURE) {
        return false;
      }
      JsonStringEscapes keyEscapes = new JsonStringEscapes();
      int matched = 0;
      for (int i = 0; i < keyLength; i++) {
        int c = keyEscapes.accept(key[i] & 0xFF);
        if (c == JsonStringEscapes.PENDING) {
          continue;
        }
        if (c < 0 || matched == DATA.length || c != DATA[matched]) {
          return false; // Jackson judges an invalid key; it is not data either way
        }
        matched++;
      }
      return matched == DATA.length && !keyEscapes.inEscape();
    }

    /** Moves the diverted string's content in {@code buf} to the spool, up to its closing quote. */
    private void divert() throws IOException {
      int start = pos;
      while (pos < len) {
        int unit = buf[pos] & 0xFF;
        if (!utf8(unit)) {
          throw refused("invalid UTF-8 in a string");
        }
        int c = escapes.accept(unit);
        if (c == JsonStringEscapes.INVALID) {
          throw refused(escapes.problem());
        }
        if (c == JsonStringEscapes.END) {
          spool.write(buf, start, pos - start);
          divertedLength += pos - start;
          pos++;
          diverting = false;
          closingQuote = true;
          padding = divertedLength;
          return;
        }
        pos++;
      }
      spool.write(buf, start, pos - start);
      divertedLength += pos - start;
    }

    /** One more byte of well-formed UTF-8 (RFC 3629 section 4: no overlong forms, no surrogates, at most U+10FFFF). */
    private boolean utf8(int b) {
      if (utf8Needed > 0) {
        if (b < utf8Low || b > utf8High) {
          return false;
        }
        utf8Needed--;
        utf8Low = 0x80;
        utf8High = 0xBF;
        return true;
      }
      if (b < 0x80) {
        return true;
      }
      if (b >= 0xC2 && b <= 0xDF) {
        utf8Needed = 1;
      } else if (b >= 0xE0 && b <= 0xEF) {
        utf8Needed = 2;
        utf8Low = b == 0xE0 ? 0xA0 : 0x80;
        utf8High = b == 0xED ? 0x9F : 0xBF;
      } else if (b >= 0xF0 && b <= 0xF4) {
        utf8Needed = 3;
        utf8Low = b == 0xF0 ? 0x90 : 0x80;
        utf8High = b == 0xF4 ? 0x8F : 0xBF;
      } else {
        return false;
      }
      return true;
    }

    /** A refusal of the byte at {@code pos}, placed as Jackson places its own (1-based byte column). */
    private JsonParseException refused(String why) {
      long offset = consumed + pos;
      return new JsonParseException(null, "malformed JSON: " + why,
          new JsonLocation(ContentReference.unknown(), offset, -1, (int) line, (int) (offset - lineStart + 1)));
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
