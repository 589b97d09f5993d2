package dev.omnigraph.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Checks the shortest-spelling contract against the JDK's correctly rounded parser, independently
 * of the interval arithmetic inside {@link FloatSpelling}: the spelling reads back to the value, no
 * decimal with fewer significant digits does, and no other decimal of the same length is closer.
 */
class FloatSpellingTest {

  private static final int SAMPLES = 20_000;

  @Test
  void doublesAreShortestNearestAndRoundTrip() {
    SplittableRandom random = new SplittableRandom(20240601);
    for (int i = 0; i < SAMPLES; i++) {
      double v = Double.longBitsToDouble(random.nextLong());
      if (!Double.isFinite(v)) {
        continue;
      }
      verify(v, FloatSpelling.ofDouble(v), false);
    }
    // Values people actually key on: few significant digits, moderate exponents.
    for (int i = 0; i < SAMPLES; i++) {
      double v = random.nextInt(10_000_000) / Math.pow(10, random.nextInt(12)) * (random.nextBoolean() ? 1 : -1);
      verify(v, FloatSpelling.ofDouble(v), false);
      verify((float) v, FloatSpelling.ofFloat((float) v), true);
    }
    for (double v : new double[] {Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 0x1p53, 0x1p54 + 4,
        1e15, 1e16, 1e17, 5e-324, 2.2250738585072009e-308, 9.999999999999999e22}) {
      verify(v, FloatSpelling.ofDouble(v), false);
      verify(-v, FloatSpelling.ofDouble(-v), false);
    }
  }

  @Test
  void floatsAreShortestNearestAndRoundTrip() {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < SAMPLES; i++) {
      float v = Float.intBitsToFloat(random.nextInt());
      if (!Float.isFinite(v)) {
        continue;
      }
      verify(v, FloatSpelling.ofFloat(v), true);
    }
    for (float v : new float[] {Float.MIN_VALUE, Float.MIN_NORMAL, Float.MAX_VALUE, 0x1p24f, 0x1p25f + 2}) {
      verify(v, FloatSpelling.ofFloat(v), true);
    }
  }

  @Test
  void integralValuesAndZerosHaveNoFractionOrSign() {
    assertThat(FloatSpelling.ofDouble(-0.0)).isEqualTo("0");
    assertThat(FloatSpelling.ofFloat(-0.0f)).isEqualTo("0");
    assertThat(FloatSpelling.ofDouble(-7.0)).isEqualTo("-7");
    assertThat(FloatSpelling.ofFloat(2.5e9f)).isEqualTo("2500000000");
  }

  private static void verify(double v, String spelled, boolean f32) {
    assertThat(spelled).as("plain notation for %s", v).matches("-?(0|[1-9][0-9]*)(\\.[0-9]*[1-9])?");
    if (v == 0) {
      assertThat(spelled).isEqualTo("0");
      return;
    }
    assertThat(reads(spelled, f32)).as("%s reads back to %s", spelled, v).isEqualTo(v);
    BigDecimal exact = new BigDecimal(v).abs();
    BigDecimal chosen = new BigDecimal(spelled).abs();
    int digits = chosen.stripTrailingZeros().precision();
    if (digits > 1) {
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.DOWN, RoundingMode.UP}) {
        BigDecimal shorter = exact.round(new MathContext(digits - 1, mode));
        assertThat(reads(shorter.toString(), f32)).as("%s is shorter than %s for %s", shorter, spelled, v)
            .isNotEqualTo(Math.abs(v));
      }
    }
    BigDecimal other = exact.round(new MathContext(digits, RoundingMode.DOWN));
    if (other.compareTo(chosen) == 0) {
      other = exact.round(new MathContext(digits, RoundingMode.UP));
    }
    if (other.compareTo(chosen) != 0 && reads(other.toString(), f32) == Math.abs(v)) {
      assertThat(exact.subtract(chosen).abs()).as("%s is nearer than %s to %s", other, spelled, v)
          .isLessThanOrEqualTo(exact.subtract(other).abs());
    }
  }

  private static double reads(String s, boolean f32) {
    return f32 ? Float.parseFloat(s) : Double.parseDouble(s);
  }
}
