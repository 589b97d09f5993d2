package dev.omnigraph.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A graph branch name as a caller gives it, parsed once at the edge (server route, CLI option, a
 * public {@code Omnigraph} method) and passed inward as this type.
 *
 * <p>A name a branch can take ({@link #of}, {@link #created}) is {@code main}, or a name of
 * {@code /}-separated segments that each start with a letter or digit and hold only letters, digits,
 * {@code .}, {@code _} and {@code -}. A {@code /} becomes a nested directory in Lance's
 * {@code tree/}; Lance (7.0.0, {@code refs.rs}) reserves {@code main} in any case, and stores a
 * branch's ref as one object {@code _refs/branches/<name>.json} whose file name spells each
 * {@code /} as {@code %2F}; a file name component is at most 255 bytes on local file systems (ext4,
 * xfs, APFS), so the encoded name must stay within {@link #MAX_ENCODED_LENGTH}. Everything Lance
 * would refuse is refused there, before a caller takes a gate or touches storage: Lance clones
 * {@code tree/<name>} before it writes the branch's ref, so a name it refuses late leaves a tree
 * behind.
 *
 * <p>A name a lookup is given ({@link #existing}) is held as given, malformed or not: no branch can
 * have a malformed name, so the lookup answers it exactly as an unknown one (its own
 * {@link NotFound}, 404), and the caller's authorization, asked before the lookup, answers first
 * (docs/http-api.md, "Routes", Branches). Equal when the spellings are equal.
 */
public final class BranchName {

  /** The branch every graph has. */
  public static final BranchName MAIN = new BranchName("main");

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  static final int MAX_LENGTH = 200;
  /** 255 (a file name component) minus {@code ".json"}. */
  public static final int MAX_ENCODED_LENGTH = 255 - ".json".length();

  private final String value;

  private BranchName(String value) {
    this.value = value;
  }

  /**
   * A name a branch can have: {@code main}, or any name {@link #created} admits.
   *
   * @throws InvalidRequest naming the rule the name breaks
   */
  public static BranchName of(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidRequest("branch name is empty");
    }
    if (name.equals(MAIN.value)) {
      return MAIN;
    }
    requireCreatable(name);
    return new BranchName(name);
  }

  /**
   * A name a new branch may take: any valid name but {@code main}.
   *
   * @throws InvalidRequest naming the rule; nothing has been touched
   */
  public static BranchName created(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidRequest("branch name is empty");
    }
    requireCreatable(name);
    return new BranchName(name);
  }

  /**
   * The branch a lookup names, as given: never refused here, so that a malformed name answers what
   * an unknown one does (the lookup's {@link NotFound}) and only after the caller is authorized.
   * An empty name is looked up too (a query's {@code "branch": ""} is 404, not main).
   */
  public static BranchName existing(String name) {
    Objects.requireNonNull(name, "branch");
    return name.equals(MAIN.value) ? MAIN : new BranchName(name);
  }

  /** As {@link #existing}, where an absent or blank name means {@code main} (a route's default). */
  public static BranchName existingOrMain(String name) {
    return name == null || name.isBlank() ? MAIN : existing(name);
  }

  /** The branch a request names; empty or absent means {@code main}; else as {@link #of}. */
  public static BranchName orMain(String name) {
    return name == null || name.isBlank() ? MAIN : of(name);
  }

  /** The name as the wire spells it. */
  public String value() {
    return value;
  }

  public boolean isMain() {
    return value.equals(MAIN.value);
  }

  /** The length of {@code name} in Lance's ref file name: each {@code /} is {@code %2F}. */
  public static int encodedLength(String name) {
    int slashes = (int) name.chars().filter(c -> c == '/').count();
    return name.length() + 2 * slashes;
  }

  private static void requireCreatable(String name) {
    Objects.requireNonNull(name, "name");
    if (name.equalsIgnoreCase("main")) {
      throw new InvalidRequest("branch name '" + name + "' is reserved: the main branch always exists");
    }
    if (name.length() > MAX_LENGTH) {
      throw new InvalidRequest("branch name is longer than " + MAX_LENGTH + " characters");
    }
    for (String segment : name.split("/", -1)) {
      if (!SEGMENT.matcher(segment).matches() || segment.endsWith(".lock") || segment.contains("..")) {
        throw new InvalidRequest("invalid branch name '" + name + "': each '/'-separated segment must start "
            + "with a letter or digit and contain only letters, digits, '.', '_' or '-'");
      }
    }
    int encoded = encodedLength(name);
    if (encoded > MAX_ENCODED_LENGTH) {
      throw new InvalidRequest("branch name is too long for the store: its ref file name spells each '/' as %2F, "
          + "which makes it " + encoded + " of at most " + MAX_ENCODED_LENGTH + " characters");
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BranchName other && other.value.equals(value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return value;
  }
}
