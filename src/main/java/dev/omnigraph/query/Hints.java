package dev.omnigraph.query;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" suggestions for misspelt names in error messages. */
final class Hints {

  private Hints() {}

  /**
   * {@code " (did you mean X?)"} for the candidate closest to {@code wrong}, or the empty string when
   * none is close: a case-only difference always qualifies, otherwise (ignoring case) at most one edit per three
   * characters typed (two at most), so short names are not "corrected" into unrelated ones. Ties go to
   * the alphabetically first candidate so messages are stable.
   */
  static String hint(String wrong, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      // Case-blind: edge names match ignoring case, and a case slip is rarely the only one.
      int d = c.equalsIgnoreCase(wrong) ? 0 : distance(wrong.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
      if (d < bestDistance || (d == bestDistance && c.compareTo(best) < 0)) {
        best = c;
        bestDistance = d;
      }
    }
    int allowed = Math.min(2, Math.max(1, wrong.length() / 3));
    if (best == null || best.equals(wrong) || bestDistance > allowed || (bestDistance > 0 && bestDistance >= wrong.length())) {
      return "";
    }
    return " (did you mean " + best + "?)";
  }

  /** Edit distance counting an adjacent swap as one edit, the commonest typo ("nmae"). */
  private static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1);
        best = Math.min(best, d[i - 1][j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          best = Math.min(best, d[i - 2][j - 2] + 1);
        }
        d[i][j] = best;
      }
    }
    return d[a.length()][b.length()];
  }
}
