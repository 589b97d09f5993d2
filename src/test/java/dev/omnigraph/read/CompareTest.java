package dev.omnigraph.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omnigraph.query.CompareOp;
import org.junit.jupiter.api.Test;

/** In-memory comparisons: the same answers as the filters pushed into Lance. */
class CompareTest {

  @Test
  void anIntegerAndAFloatCompareExactlyAsThePushedFilterDoes() {
    // Issue 47.5: through doubles, 2^53 + 1 equalled 2^53; the pushed filter compares exactly.
    long above = (1L << 53) + 1;
    double below = (double) (1L << 53);
    assertThat(Compare.test(CompareOp.EQ, above, below)).isFalse();
    assertThat(Compare.test(CompareOp.GT, above, below)).isTrue();
    assertThat(Compare.test(CompareOp.NE, 30, 30.5)).isTrue();
    assertThat(Compare.test(CompareOp.LE, 30, 29.9)).isFalse();
    assertThat(Compare.test(CompareOp.GE, 30, 30.0)).isTrue();
    // A float counts as the decimal it spells, as in the filter text: 0.1f is 0.1, not 0.100000001….
    assertThat(Compare.values(0, 0.1f)).isNegative();
    assertThat(Compare.values(new java.math.BigInteger("18446744073709551615"), 1L)).isPositive();
  }
}
