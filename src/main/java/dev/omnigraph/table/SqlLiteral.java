package dev.omnigraph.table;

import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

/**
 * The one audited place that turns values into text inside a Lance filter (Lance parses filters
 * with DataFusion's SQL parser under its own dialect). Every value that reaches a filter string goes
 * through a method here; nothing else in the code base concatenates user data into SQL.
 *
 * <p>Facts about lance-core 7.0.0's filter parser, each pinned by {@code SqlLiteralTest} against a
 * real dataset:
 *
 * <ul>
 *   <li>String literals are single-quoted and {@code ''} is the only escape. A backslash is an
 *       ordinary character ({@code 'a\b'} is the three characters a, \, b; {@code '\'} is one
 *       backslash), and {@code \'} does not escape a quote.
 *   <li>Characters outside the Basic Multilingual Plane, and U+0000, cannot appear in the filter
 *       text at all: the JNI bridge hands the string over in Java's "modified UTF-8" (surrogate
 *       pairs encoded separately, NUL as two bytes), which the Rust side rejects as invalid UTF-8.
 *       {@link #quote} therefore spells those characters as {@code chr(codepoint)} concatenated with
 *       the quoted runs around them; DataFusion folds the expression into one constant.
 *   <li>Column names must be quoted with backticks: a double-quoted name is silently parsed as a
 *       <em>string literal</em> (so {@code "age" = 'x'} compares two constants), and backtick names
 *       are case-sensitive while bare names are not.
 *   <li>Integer literals that do not fit a signed 64-bit integer are parsed as Float64 and rejected
 *       against a UInt64 column; {@link #number} spells them as {@code arrow_cast('…', 'UInt64')}.
 *       Lance converts a plain numeric literal to the compared column's type ({@code f32 = 0.1}
 *       compares with {@code 0.1f}); a literal that does not fit (1.5 or 3000000000 against Int32)
 *       makes the scan fail rather than match nothing.
 *   <li>{@code LIKE} accepts no escape character other than backslash ({@code ESCAPE '!'} fails at
 *       execution); backslash is also its default. {@link #likePrefix} and {@link #likeSubstring}
 *       escape {@code \ % _} with it and state {@code ESCAPE '\'} explicitly.
 *   <li>{@code DATE 'YYYY-MM-DD'} and {@code TIMESTAMP 'YYYY-MM-DDTHH:MM:SS.sssZ'} compare
 *       correctly with Date32 and Timestamp(ms, "UTC") columns; dates and instants outside years
 *       0001–9999 are spelled as exact casts of their epoch count instead.
 * </ul>
 */
public final class SqlLiteral {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private SqlLiteral() {}

  /**
   * A string constant: {@code 'text'} with {@code '} doubled. A value containing U+0000 or a
   * character outside the BMP comes back as a parenthesised concatenation
   * {@code ('a' || chr(128512) || 'b')}, which is usable wherever a literal is (comparison, IN list,
   * LIKE pattern).
   *
   * @throws IllegalArgumentException if {@code value} contains an unpaired surrogate (it has no
   *     UTF-8 spelling, so it can equal no stored string)
   * @throws NullPointerException if {@code value} is null (use {@code IS NULL})
   */
  public static String quote(String value) {
    StringBuilder out = new StringBuilder();
    StringBuilder run = new StringBuilder();
    int parts = 0;
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (Character.isSurrogate(value.charAt(i)) && !Character.isSupplementaryCodePoint(cp)) {
        throw new IllegalArgumentException("unpaired surrogate at index " + i + " of a filter value");
      }
      if (cp == 0 || Character.isSupplementaryCodePoint(cp)) {
        // Not representable in the modified UTF-8 the JNI bridge uses (see class comment).
        if (run.length() > 0 || parts == 0) {
          parts = appendPart(out, parts, "'" + run + "'");
          run.setLength(0);
        }
        parts = appendPart(out, parts, "chr(" + cp + ")");
      } else if (cp == '\'') {
        run.append("''");
      } else {
        run.appendCodePoint(cp);
      }
      i += Character.charCount(cp);
    }
    if (parts == 0) {
      return "'" + run + "'";
    }
    if (run.length() > 0) {
      parts = appendPart(out, parts, "'" + run + "'");
    }
    return "(" + out + ")";
  }

  private static int appendPart(StringBuilder out, int parts, String part) {
    if (parts > 0) {
      out.append(" || ");
    }
    out.append(part);
    return parts + 1;
  }

  /**
   * A column reference: {@code `name`}. Only names matching {@code [A-Za-z_][A-Za-z0-9_]*} are
   * accepted, which is every name the schema language can declare plus Lance's {@code _rowid}-style
   * metadata columns; a backtick can therefore never appear inside.
   *
   * @throws IllegalArgumentException for any other name
   */
  public static String identifier(String name) {
    if (name == null || !IDENTIFIER.matcher(name).matches()) {
      throw new IllegalArgumentException("not a valid column name for a filter: " + name);
    }
    return "`" + name + "`";
  }

  /** {@code TRUE} or {@code FALSE}. */
  public static String bool(boolean value) {
    return value ? "TRUE" : "FALSE";
  }

  /**
   * A numeric constant. Integers print in decimal; {@link Long#MIN_VALUE} as
   * {@code (-9223372036854775807 - 1)} because its magnitude alone does not fit Int64. A
   * {@link BigInteger} may range over [{@code Long.MIN_VALUE}, 2^64 − 1]: values above
   * {@code Long.MAX_VALUE} (UInt64 only) print as {@code arrow_cast('…', 'UInt64')}. Floats print
   * in Java's shortest round-trip form of their own width, so {@code 0.1f} prints {@code 0.1}
   * (which Lance converts back to exactly {@code 0.1f} for a Float32 column).
   *
   * @throws IllegalArgumentException for NaN, an infinity, an out-of-range BigInteger, or a Number
   *     type other than Integer, Long, BigInteger, Float, Double
   */
  public static String number(Number value) {
    if (value instanceof Integer || value instanceof Long) {
      long l = value.longValue();
      return l == Long.MIN_VALUE ? "(-9223372036854775807 - 1)" : Long.toString(l);
    }
    if (value instanceof BigInteger big) {
      if (big.bitLength() < 64) {
        return number(big.longValue());
      }
      if (big.signum() < 0 || big.compareTo(U64_MAX) > 0) {
        throw new IllegalArgumentException("integer " + big + " fits neither Int64 nor UInt64");
      }
      return "arrow_cast('" + big + "', 'UInt64')";
    }
    if (value instanceof Float f) {
      if (f.isNaN() || f.isInfinite()) {
        throw new IllegalArgumentException("non-finite float " + f + " has no SQL literal");
      }
      return Float.toString(f);
    }
    if (value instanceof Double d) {
      if (d.isNaN() || d.isInfinite()) {
        throw new IllegalArgumentException("non-finite double " + d + " has no SQL literal");
      }
      return Double.toString(d);
    }
    throw new IllegalArgumentException("unsupported number type " + (value == null ? null : value.getClass().getName()));
  }

  /**
   * A Date32 constant: {@code DATE 'YYYY-MM-DD'} for years 0001–9999, otherwise
   * {@code CAST(<epoch days> AS DATE)}.
   */
  public static String date(LocalDate value) {
    int year = value.getYear();
    if (year >= 1 && year <= 9999) {
      return "DATE '" + value + "'";
    }
    return "CAST(" + value.toEpochDay() + " AS DATE)";
  }

  /**
   * A Timestamp(ms, "UTC") constant: {@code TIMESTAMP 'YYYY-MM-DDTHH:MM:SS.sssZ'} for years
   * 0001–9999, otherwise an exact {@code arrow_cast} of the epoch milliseconds.
   *
   * @throws IllegalArgumentException if {@code value} has a sub-millisecond part (the columns store
   *     milliseconds, so such a constant could never be equal to a stored value) or does not fit
   *     epoch milliseconds
   */
  public static String timestamp(Instant value) {
    if (value.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException("timestamp " + value + " has a sub-millisecond part");
    }
    long millis;
    try {
      millis = value.toEpochMilli();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("timestamp " + value + " does not fit epoch milliseconds", e);
    }
    int year = value.atZone(ZoneOffset.UTC).getYear();
    if (year >= 1 && year <= 9999) {
      return "TIMESTAMP '" + TIMESTAMP.format(value) + "'";
    }
    return "arrow_cast(" + number(millis) + ", 'Timestamp(Millisecond, Some(\"UTC\"))')";
  }

  /**
   * The literal for any value type {@link Filter} accepts: String, Boolean, Integer, Long,
   * BigInteger, Float, Double, LocalDate, Instant.
   *
   * @throws IllegalArgumentException for null or any other type, or a value the typed method
   *     rejects
   */
  public static String literal(Object value) {
    if (value instanceof String s) {
      return quote(s);
    }
    if (value instanceof Boolean b) {
      return bool(b);
    }
    if (value instanceof Number n) {
      return number(n);
    }
    if (value instanceof LocalDate d) {
      return date(d);
    }
    if (value instanceof Instant t) {
      return timestamp(t);
    }
    throw new IllegalArgumentException("no filter literal for "
        + (value == null ? "null (use isNull)" : value.getClass().getName()));
  }

  /**
   * {@code LIKE} pattern text matching exactly the strings that start with {@code prefix}: the
   * pattern characters {@code \ % _} are escaped with backslash, then {@code %} is appended. The
   * result is a quoted pattern to be followed by {@code ESCAPE '\'} (see {@link #likeEscapeClause}).
   */
  public static String likePrefix(String prefix) {
    return quote(escapeLike(prefix) + "%");
  }

  /** {@code LIKE} pattern matching exactly the strings that contain {@code part}. */
  public static String likeSubstring(String part) {
    return quote("%" + escapeLike(part) + "%");
  }

  /** The explicit escape clause to follow every pattern from {@link #likePrefix}/{@link #likeSubstring}. */
  public static String likeEscapeClause() {
    return "ESCAPE '\\'";
  }

  /** Escapes LIKE's wildcards and its escape character (backslash, the only one Lance accepts). */
  static String escapeLike(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' || c == '%' || c == '_') {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }
}
