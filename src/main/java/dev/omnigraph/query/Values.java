package dev.omnigraph.query;

import dev.omnigraph.schema.ScalarKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * The one mapping from query values to Java values, shared by literals ({@link QueryChecker}) and
 * JSON parameters ({@link Params}) so that an executor sees the same types whichever way a value came
 * in. See {@link Value.Literal} for the table.
 */
final class Values {

  private Values() {}

  /** A value that does not fit its type; the caller adds where it came from. */
  static final class Misfit extends Exception {
    private static final long serialVersionUID = 1L;

    Misfit(String reason) {
      super(reason, null, false, false);
    }
  }

  private static final BigInteger U32_MAX = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
  private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  /**
   * An integer for an integer kind: Integer for I32, Long for I64 and U32, and for U64 a Long up to
   * 2^63-1 and a BigInteger above it (the reference's logic tests: the full U64 range, compared and written by
   * value, never wrapped into a negative Long).
   */
  static Object integer(BigInteger v, ScalarKind kind) throws Misfit {
    BigInteger min;
    BigInteger max;
    switch (kind) {
      case I32 -> {
        min = BigInteger.valueOf(Integer.MIN_VALUE);
        max = BigInteger.valueOf(Integer.MAX_VALUE);
      }
      case I64 -> {
        min = BigInteger.valueOf(Long.MIN_VALUE);
        max = BigInteger.valueOf(Long.MAX_VALUE);
      }
      case U32 -> {
        min = BigInteger.ZERO;
        max = U32_MAX;
      }
      case U64 -> {
        min = BigInteger.ZERO;
        max = U64_MAX;
      }
      default -> throw new IllegalArgumentException(kind + " is not an integer kind");
    }
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw new Misfit(v + " is out of range for " + kind.spelling() + " (" + min + " to " + max + ")");
    }
    if (kind == ScalarKind.I32) {
      return v.intValue();
    }
    return v.bitLength() < 64 ? (Object) v.longValue() : v;
  }

  /** A finite floating value: Float for F32 (refusing what would overflow it), Double for F64. */
  static Object floating(BigDecimal v, ScalarKind kind) throws Misfit {
    double d = v.doubleValue();
    if (Double.isInfinite(d)) {
      throw new Misfit(v.toPlainString() + " is out of range for " + kind.spelling());
    }
    if (kind == ScalarKind.F32) {
      float f = (float) d;
      if (Float.isInfinite(f)) {
        throw new Misfit(v.toPlainString() + " is out of range for F32");
      }
      return f;
    }
    return d;
  }

  static Object number(BigDecimal v, ScalarKind kind) throws Misfit {
    if (kind.isInteger()) {
      BigInteger exact;
      try {
        exact = v.toBigIntegerExact();
      } catch (ArithmeticException e) {
        throw new Misfit(v.toPlainString() + " is not an integer, but " + kind.spelling() + " is an integer type");
      }
      return integer(exact, kind);
    }
    return floating(v, kind);
  }

  /**
   * A string as it may be stored and compared: every String column is UTF-8 in Arrow, so a lone
   * surrogate (JSON allows {@code "\ud800"}) has no value there, and refusing it here names the
   * parameter instead of failing deep in the filter or the scan.
   */
  static String text(String v) throws Misfit {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < v.length() && Character.isLowSurrogate(v.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new Misfit(String.format("unpaired surrogate U+%04X at character %d; strings must be valid Unicode",
            (int) c, i));
      }
    }
    return v;
  }

  /** {@code YYYY-MM-DD}, nothing else: an epoch-day count or a timestamp would be silently truncated. */
  static LocalDate date(String text) throws Misfit {
    try {
      return LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
    } catch (DateTimeParseException e) {
      throw new Misfit("'" + text + "' is not a Date; write it as YYYY-MM-DD, e.g. 2024-01-31");
    }
  }

  /**
   * ISO-8601 with an explicit offset ({@code 2024-01-31T09:30:00Z}, {@code ...+02:00}). A local time is
   * refused because its instant depends on a zone we would have to guess; sub-millisecond digits are
   * refused because DateTime is stored in epoch milliseconds and truncation would be silent.
   */
  static Instant instant(String text) throws Misfit {
    Instant instant;
    try {
      instant = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      throw new Misfit("'" + text + "' is not a DateTime; write ISO-8601 with an offset, e.g. 2024-01-31T09:30:00Z");
    }
    if (instant.getLong(ChronoField.NANO_OF_SECOND) % 1_000_000 != 0) {
      throw new Misfit("'" + text + "' is more precise than DateTime, which stores milliseconds");
    }
    return instant;
  }
}
