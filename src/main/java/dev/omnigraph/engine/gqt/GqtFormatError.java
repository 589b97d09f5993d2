package dev.omnigraph.engine.gqt;

/**
 * A {@code .gqt} file this runner refuses to run: malformed (a section out of place, a row that is
 * not a JSON object, a missing expectation) or using a feature it does not implement. Either way
 * the case never touches a graph; the message names {@code file:line}.
 */
public class GqtFormatError extends RuntimeException {

  private final String file;
  private final int line;

  public GqtFormatError(String file, int line, String reason) {
    super(file + ":" + line + ": " + reason);
    this.file = file;
    this.line = line;
  }

  /** The case file. */
  public String file() {
    return file;
  }

  /** The 1-based line the problem is on. */
  public int line() {
    return line;
  }

  /**
   * A section or header the reference's format defines and this runner does not implement (seams,
   * faults, traversal pins): reported as <em>unsupported</em>, not as a failure of the case.
   */
  public static final class Unsupported extends GqtFormatError {

    private final String feature;

    public Unsupported(String file, int line, String feature) {
      super(file, line, "unsupported: " + feature);
      this.feature = feature;
    }

    /** What is not implemented, as the file spells it ({@code --- seam}). */
    public String feature() {
      return feature;
    }
  }
}
