package dev.omnigraph.sim;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.URLDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A request as the simulation knows it: the step it arrived in, method, canonical key and query,
 * byte range, whether it is conditional, and which occurrence of that identity within the step it
 * is. Canonical means the names minted at random (Lance's UUID file names, our ULIDs, the bucket of
 * a fresh root, S3Mock's continuation tokens) are replaced by their kind, so two runs of one seed
 * name the same requests alike. Requests that differ only in such names are told apart by their
 * occurrence number alone, which is the one part that follows arrival order; they are
 * interchangeable by construction.
 */
record RequestId(int step, String method, String key, String query, String range, boolean conditional,
    int occurrence) {

  private static final Pattern UUID = Pattern.compile(
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern HEX32 = Pattern.compile("(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])");
  private static final Pattern ULID = Pattern.compile("(?<![0-9A-Z])[0-7][0-9A-HJKMNP-TV-Z]{25}(?![0-9A-Z])");
  /** Lance 7's data file names: 24 random bits spelled in binary, then 26 random hex digits. */
  private static final Pattern DATA_FILE = Pattern.compile("(?<![0-9a-zA-Z])[01]{24}[0-9a-f]{26}(?![0-9a-f])");
  /** Lance's deletion files: {@code <fragment>-<read version>-<random>.<ext>}. */
  private static final Pattern DELETION = Pattern.compile("(_deletions/\\d+-\\d+-)\\d+");

  /** The identity without the occurrence: what occurrences are counted by. */
  String withoutOccurrence() {
    return step + " " + method + (conditional ? "?" : "") + " " + key + (query.isEmpty() ? "" : "?" + query)
        + (range.isEmpty() ? "" : " range=" + range);
  }

  /** The identity as one line, the input of the fault draw and the trace. */
  String canonical() {
    return withoutOccurrence() + " #" + occurrence;
  }

  /** Whether the request can change the store. */
  boolean writes() {
    return method.equals("PUT") || method.equals("POST") || method.equals("DELETE");
  }

  /** A request path (URL-decoded) with every randomly minted name replaced by its kind. */
  static String canonicalKey(String path) {
    String s = DATA_FILE.matcher(path).replaceAll("{file}");
    s = UUID.matcher(s).replaceAll("{uuid}");
    s = HEX32.matcher(s).replaceAll("{hex}");
    s = ULID.matcher(s).replaceAll("{ulid}");
    Matcher m = DELETION.matcher(s);
    return m.replaceAll("$1{n}");
  }

  /**
   * A Range header's shape ({@code bytes=n-n}, {@code bytes=-n}), without its offsets: Lance reads a
   * manifest by its size, and a manifest holds Lance's own wall-clock timestamps as varints, so its
   * size can differ by a byte between two runs of one seed.
   */
  static String canonicalRange(String range) {
    return range == null ? "" : range.replaceAll("\\d+", "n");
  }

  /** A raw query string, parameters decoded, canonicalised and sorted; continuation tokens elided. */
  static String canonicalQuery(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return "";
    }
    List<String> params = new ArrayList<>();
    for (String p : rawQuery.split("&")) {
      int eq = p.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? p : p.substring(0, eq), UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(p.substring(eq + 1), UTF_8);
      // S3Mock's tokens are opaque (and random): a page is named by its place in the listing instead.
      params.add(name + "=" + (name.equals("continuation-token") ? "*" : canonicalKey(value)));
    }
    params.sort(null);
    return String.join("&", params);
  }
}
