package dev.omnigraph.util;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.DataInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;

/**
 * The one strict JSON reading every input shares (HTTP bodies, NDJSON loads, CLI parameters): a key
 * given twice in one object is refused ({@link DuplicateKey}) instead of the last value silently
 * winning, and every reader limit is refused with its kind, limit and actual value
 * ({@link LimitExceeded}), so a failure is described in our words from its type and fields
 * ({@link #reason}) and never by passing on the JSON library's message, which names its Java setting
 * ({@code StreamReadConstraints.getMaxNestingDepth()}) and its internals.
 */
public final class StrictJson {

  /** Objects and arrays open at once. */
  public static final int MAX_DEPTH = 1000;
  /** Characters of one number. */
  public static final int MAX_NUMBER_LENGTH = 1000;
  /** Characters of one field name. */
  public static final int MAX_NAME_LENGTH = 50_000;
  /** Characters of one string, unless a caller bounds strings otherwise (the body limit does for HTTP). */
  public static final int MAX_STRING_LENGTH = 20_000_000;
  /** The magnitude of a number's exponent once it is read as an exact decimal. */
  public static final int MAX_NUMBER_SCALE = 100_000;

  private StrictJson() {}

  /** Which reader limit a value passed. */
  public enum Limit {
    NESTING_DEPTH("nesting depth", "levels"),
    NUMBER_LENGTH("a number", "characters"),
    NUMBER_SCALE("a number's exponent", "in magnitude"),
    STRING_LENGTH("a string", "characters"),
    NAME_LENGTH("a field name", "characters"),
    DOCUMENT_LENGTH("the document", "bytes"),
    TOKEN_COUNT("the document", "tokens");

    private final String what;
    private final String unit;

    Limit(String what, String unit) {
      this.what = what;
      this.unit = unit;
    }
  }

  /** A value past one of the reader's limits. */
  public static final class LimitExceeded extends StreamConstraintsException {

    private static final long serialVersionUID = 1L;
    private final Limit limit;
    private final long max;
    private final long actual;

    LimitExceeded(Limit limit, long max, long actual) {
      this(limit, max, actual, null);
    }

    private LimitExceeded(Limit limit, long max, long actual, JsonLocation at) {
      super(limit.what + " is over the limit of " + max + " " + limit.unit + " (" + actual + ")", at);
      this.limit = limit;
      this.max = max;
      this.actual = actual;
    }

    /** The same refusal, placed: the limit checks run where the input's position is not known. */
    LimitExceeded at(JsonLocation where) {
      return getLocation() != null || where == null ? this : new LimitExceeded(limit, max, actual, where);
    }

    public Limit limit() {
      return limit;
    }

    public long max() {
      return max;
    }

    public long actual() {
      return actual;
    }
  }

  /** A key given twice in one object; the location is the second one's. */
  public static final class DuplicateKey extends JsonParseException {

    private static final long serialVersionUID = 1L;
    private final String name;

    DuplicateKey(JsonParser parser, String name, JsonLocation at) {
      super(parser, "field '" + name + "' appears twice in one object", at);
      this.name = name;
    }

    public String name() {
      return name;
    }
  }

  /**
   * What is wrong with JSON that {@code failure} refused, in our words, without its position (the
   * caller says where: a body's line and column, an NDJSON line).
   */
  public static String reason(JsonProcessingException failure) {
    if (failure instanceof DuplicateKey d) {
      return "field '" + d.name() + "' appears twice in one object";
    }
    if (failure instanceof LimitExceeded l) {
      return l.limit == Limit.NESTING_DEPTH
          ? "nested " + l.actual + " levels deep, over the limit of " + l.max
          : l.limit.what + " is " + l.actual + " " + l.limit.unit + ", over the limit of " + l.max;
    }
    if (failure instanceof JsonEOFException) {
      return "the JSON ends before it is complete (an object, array or string is left open)";
    }
    if (failure instanceof InputCoercionException) {
      return "a number is out of range";
    }
    return "not valid JSON";
  }

  /** The reader limits of this class, with a string bound of {@code maxStringLength} characters. */
  public static StreamReadConstraints constraints(int maxStringLength) {
    return new Constraints(MAX_DEPTH, maxStringLength, MAX_NAME_LENGTH);
  }

  /**
   * A factory like {@code base} (its features and codec) whose parsers refuse duplicate keys and
   * report limits typed, with {@code constraints} ({@link #constraints}).
   */
  public static JsonFactory factory(JsonFactory base, StreamReadConstraints constraints) {
    Factory f = new Factory(base);
    f.setStreamReadConstraints(constraints);
    // Ours replaces it: Jackson's own check would refuse first, with an exception only its text tells apart.
    f.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    return f;
  }

  /** A plain strict factory: for NDJSON lines and CLI parameters. */
  public static JsonFactory factory() {
    return factory(new JsonFactory(), constraints(MAX_STRING_LENGTH));
  }

  /** Jackson's checks, raising {@link LimitExceeded} instead of an exception that only its message tells apart. */
  private static final class Constraints extends StreamReadConstraints {

    private static final long serialVersionUID = 1L;

    Constraints(int maxDepth, int maxStringLength, int maxNameLength) {
      super(maxDepth, DEFAULT_MAX_DOC_LEN, MAX_NUMBER_LENGTH, maxStringLength, maxNameLength, DEFAULT_MAX_TOKEN_COUNT);
    }

    @Override
    public void validateNestingDepth(int depth) throws StreamConstraintsException {
      if (depth > _maxNestingDepth) {
        throw new LimitExceeded(Limit.NESTING_DEPTH, _maxNestingDepth, depth);
      }
    }

    @Override
    public void validateDocumentLength(long length) throws StreamConstraintsException {
      if (_maxDocLen > 0 && length > _maxDocLen) {
        throw new LimitExceeded(Limit.DOCUMENT_LENGTH, _maxDocLen, length);
      }
    }

    @Override
    public void validateTokenCount(long count) throws StreamConstraintsException {
      if (_maxTokenCount > 0 && count > _maxTokenCount) {
        throw new LimitExceeded(Limit.TOKEN_COUNT, _maxTokenCount, count);
      }
    }

    @Override
    public void validateFPLength(int length) throws StreamConstraintsException {
      validateIntegerLength(length);
    }

    @Override
    public void validateIntegerLength(int length) throws StreamConstraintsException {
      if (length > _maxNumLen) {
        throw new LimitExceeded(Limit.NUMBER_LENGTH, _maxNumLen, length);
      }
    }

    @Override
    public void validateStringLength(int length) throws StreamConstraintsException {
      if (length > _maxStringLen) {
        throw new LimitExceeded(Limit.STRING_LENGTH, _maxStringLen, length);
      }
    }

    @Override
    public void validateNameLength(int length) throws StreamConstraintsException {
      if (length > _maxNameLen) {
        throw new LimitExceeded(Limit.NAME_LENGTH, _maxNameLen, length);
      }
    }

    @Override
    public void validateBigIntegerScale(int scale) throws StreamConstraintsException {
      if (Math.abs(scale) > MAX_NUMBER_SCALE) {
        throw new LimitExceeded(Limit.NUMBER_SCALE, MAX_NUMBER_SCALE, Math.abs((long) scale));
      }
    }
  }

  /** Every parser it makes is wrapped in a {@link DuplicateChecking} one. */
  private static final class Factory extends JsonFactory {

    private static final long serialVersionUID = 1L;

    Factory(JsonFactory base) {
      super(base, base.getCodec());
    }

    @Override
    public JsonFactory copy() {
      Factory f = new Factory(this);
      f.setStreamReadConstraints(streamReadConstraints());
      return f;
    }

    @Override
    protected JsonParser _createParser(InputStream in, IOContext ctxt) throws IOException {
      return new DuplicateChecking(super._createParser(in, ctxt));
    }

    @Override
    protected JsonParser _createParser(Reader r, IOContext ctxt) throws IOException {
      return new DuplicateChecking(super._createParser(r, ctxt));
    }

    @Override
    protected JsonParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable)
        throws IOException {
      return new DuplicateChecking(super._createParser(data, offset, len, ctxt, recyclable));
    }

    @Override
    protected JsonParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
      return new DuplicateChecking(super._createParser(data, offset, len, ctxt));
    }

    @Override
    protected JsonParser _createParser(DataInput input, IOContext ctxt) throws IOException {
      return new DuplicateChecking(super._createParser(input, ctxt));
    }
  }

  /**
   * Tracks the keys of each open object. Every token passes {@link #nextToken}: the other
   * {@code next…} methods of {@link JsonParser} are built on it, and the two the delegate would
   * forward past it ({@code nextValue}, {@code skipChildren}) are rebuilt on it here.
   */
  private static final class DuplicateChecking extends JsonParserDelegate {

    /** An open array's entry: it has no keys. */
    private static final Set<String> ARRAY = Set.of();
    private final Deque<Set<String>> open = new ArrayDeque<>();

    DuplicateChecking(JsonParser d) {
      super(d);
    }

    @Override
    public JsonToken nextToken() throws IOException {
      JsonToken t;
      try {
        t = delegate.nextToken();
      } catch (LimitExceeded e) {
        throw e.at(delegate.currentLocation());
      }
      if (t == null) {
        return null;
      }
      switch (t) {
        case START_OBJECT -> open.push(new HashSet<>());
        case START_ARRAY -> open.push(ARRAY);
        case END_OBJECT, END_ARRAY -> open.poll();
        case FIELD_NAME -> {
          String name = delegate.currentName();
          Set<String> keys = open.peek();
          if (keys != null && keys != ARRAY && !keys.add(name)) {
            throw new DuplicateKey(this, name, delegate.currentTokenLocation());
          }
        }
        default -> { }
      }
      return t;
    }

    @Override
    public String getText() throws IOException {
      try {
        return delegate.getText();
      } catch (LimitExceeded e) {
        throw e.at(delegate.currentLocation());
      }
    }

    @Override
    public String getValueAsString() throws IOException {
      try {
        return delegate.getValueAsString();
      } catch (LimitExceeded e) {
        throw e.at(delegate.currentLocation());
      }
    }

    @Override
    public String getValueAsString(String defaultValue) throws IOException {
      try {
        return delegate.getValueAsString(defaultValue);
      } catch (LimitExceeded e) {
        throw e.at(delegate.currentLocation());
      }
    }

    @Override
    public JsonToken nextValue() throws IOException {
      JsonToken t = nextToken();
      return t == JsonToken.FIELD_NAME ? nextToken() : t;
    }

    @Override
    public JsonParser skipChildren() throws IOException {
      JsonToken t = currentToken();
      if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
        return this;
      }
      int depth = 1;
      while (depth > 0) {
        t = nextToken();
        if (t == null) {
          return this;
        }
        if (t.isStructStart()) {
          depth++;
        } else if (t.isStructEnd()) {
          depth--;
        }
      }
      return this;
    }
  }
}
