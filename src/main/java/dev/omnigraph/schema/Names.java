package dev.omnigraph.schema;

import java.util.Collection;
import java.util.regex.Pattern;

/** Identifier rules and "did you mean" hints shared by the checker's messages. */
final class Names {

  private Names() {}

  /** Type names start upper case, as in the reference grammar, so they never clash with property names. */
  static final Pattern TYPE_NAME = Pattern.compile("[A-Z][A-Za-z0-9_]*");

  /** Property names start lower case or with '_'. */
  static final Pattern PROPERTY_NAME = Pattern.compile("[a-z_][A-Za-z0-9_]*");

  /**
   * {@code " (did you mean X?)"} for the closest candidate within two edits (one for names shorter
   * than six characters) or differing only in case, else the empty string. Ties go to the alphabetically first candidate, so the hint is
   * deterministic.
   */
  static String hint(String wrong, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = candidate.equalsIgnoreCase(wrong) ? 0 : distance(wrong, candidate);
      if (d < bestDistance || (d == bestDistance && best != null && candidate.compareTo(best) < 0)) {
        best = candidate;
        bestDistance = d;
      }
    }
    int allowed = Math.min(2, Math.max(1, wrong.length() / 3));
    // A hint must keep some of what was typed: 'x' is one edit from every one-letter name.
    if (best == null || best.equals(wrong) || bestDistance > allowed
        || (bestDistance > 0 && bestDistance >= wrong.length())) {
      return "";
    }
    return " (did you mean " + best + "?)";
  }

  /** Optimal string alignment distance: Levenshtein plus adjacent transpositions ("Strnig"). */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
