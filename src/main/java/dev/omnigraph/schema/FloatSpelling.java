package dev.omnigraph.schema;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Shortest round-trip decimal spelling of a finite float, in plain notation: what Rust's {@code {}}
 * Display prints for {@code f32}/{@code f64} (1.0 → "1", 0.1f → "0.1", 1e21 → "1000000000000000000000",
 * 5e-324 → "0.000…5"). Written out here because {@link Double#toString} before JDK 19 is not always
 * shortest and uses exponent notation, and because the interval test must be exact.
 *
 * <p>The spelling is the decimal with the fewest significant digits that lies inside the value's
 * rounding interval (the reals that round to it under round-half-even: the half-way points to its
 * neighbours, included exactly when its significand is even); among such decimals of that length
 * the one nearest the exact value, ties to an even last digit. That is the Steele–White / Grisu /
 * Ryū "shortest" contract Rust's formatter implements.
 */
final class FloatSpelling {

  private FloatSpelling() {}

  // Multiplying by 0.5 is exact and much cheaper than BigDecimal's exact division.
  private static final BigDecimal HALF = new BigDecimal("0.5");

  static String ofDouble(double v) {
    requireFinite(v);
    if (v == 0) {
      return "0";
    }
    double abs = Math.abs(v);
    // Below 2^53 the ulp is at most 1, so a decimal with fewer significant digits than an integral
    // value (a different multiple of 10) is at least 1 away and cannot read back: its digits are it.
    if (abs < 0x1p53 && abs == Math.rint(abs)) {
      return (v < 0 ? "-" : "") + Long.toString((long) abs);
    }
    double up = Math.nextUp(abs);
    BigDecimal high = Double.isInfinite(up) ? exact(abs).add(exact(Math.ulp(abs)).multiply(HALF)) : midpoint(abs, up);
    BigDecimal low = midpoint(abs, Math.nextDown(abs));
    boolean even = (Double.doubleToRawLongBits(abs) & 1) == 0;
    return sign(v) + shortest(exact(abs), low, high, even, 17, Double.toString(abs));
  }

  static String ofFloat(float v) {
    requireFinite(v);
    if (v == 0) {
      return "0";
    }
    float abs = Math.abs(v);
    if (abs < 0x1p24f && abs == Math.rint(abs)) {
      return (v < 0 ? "-" : "") + Long.toString((long) abs);
    }
    float up = Math.nextUp(abs);
    BigDecimal high = Float.isInfinite(up) ? exact(abs).add(exact(Math.ulp(abs)).multiply(HALF)) : midpoint(abs, up);
    BigDecimal low = midpoint(abs, Math.nextDown(abs));
    boolean even = (Float.floatToRawIntBits(abs) & 1) == 0;
    return sign(v) + shortest(exact(abs), low, high, even, 9, Float.toString(abs));
  }

  private static String shortest(BigDecimal exact, BigDecimal low, BigDecimal high, boolean inclusive, int maxDigits,
      String jdkSpelling) {
    // A length that fits implies every longer one does (its roundings lie between the fitting
    // decimal and the exact value), so the shortest length can be found by bisection. The JDK's
    // own spelling always reads back and is usually shortest: it bounds the search, and one probe
    // below it usually settles it.
    int hi = Math.min(maxDigits, new BigDecimal(jdkSpelling).stripTrailingZeros().precision());
    if (pick(exact, low, high, inclusive, hi) == null) {
      hi = maxDigits; // 9 (float) or 17 (double) significant digits always identify the value
    }
    if (hi > 1 && pick(exact, low, high, inclusive, hi - 1) == null) {
      return pick(exact, low, high, inclusive, hi).stripTrailingZeros().toPlainString();
    }
    int lo = 1;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (pick(exact, low, high, inclusive, mid) != null) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    BigDecimal chosen = pick(exact, low, high, inclusive, lo);
    if (chosen == null) {
      throw new AssertionError("no round-trip spelling for " + exact);
    }
    return chosen.stripTrailingZeros().toPlainString();
  }

  /** The nearest decimal of {@code digits} significant digits inside the interval, or null. */
  private static BigDecimal pick(BigDecimal exact, BigDecimal low, BigDecimal high, boolean inclusive, int digits) {
    BigDecimal down = exact.round(new MathContext(digits, RoundingMode.DOWN));
    BigDecimal up = exact.round(new MathContext(digits, RoundingMode.UP));
    boolean downOk = inside(down, low, high, inclusive);
    boolean upOk = inside(up, low, high, inclusive);
    if (downOk && upOk) {
      int c = exact.subtract(down).compareTo(up.subtract(exact));
      return c < 0 ? down : c > 0 ? up : (lastDigitEven(down) ? down : up);
    }
    return downOk ? down : upOk ? up : null;
  }

  private static boolean inside(BigDecimal c, BigDecimal low, BigDecimal high, boolean inclusive) {
    int lo = c.compareTo(low);
    int hi = c.compareTo(high);
    return inclusive ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
  }

  private static boolean lastDigitEven(BigDecimal d) {
    return !d.unscaledValue().testBit(0);
  }

  private static BigDecimal midpoint(double a, double b) {
    return exact(a).add(exact(b)).multiply(HALF);
  }

  private static BigDecimal exact(double d) {
    return new BigDecimal(d);
  }

  private static String sign(double v) {
    return v < 0 ? "-" : "";
  }

  private static void requireFinite(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("not finite: " + v);
    }
  }
}
