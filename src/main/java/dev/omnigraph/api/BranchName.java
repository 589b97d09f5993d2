package dev.omnigraph.api;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A graph branch name that Lance and the store can hold: {@code main}, or a name of
 * {@code /}-separated segments that each start with a letter or digit and hold only letters, digits,
 * {@code .}, {@code _} and {@code -}. A {@code /} becomes a nested directory in Lance's
 * {@code tree/}; Lance (7.0.0, {@code refs.rs}) reserves {@code main} in any case, and stores a
 * branch's ref as one object {@code _refs/branches/<name>.json} whose file name spells each
 * {@code /} as {@code %2F}; a file name component is at most 255 bytes on local file systems (ext4,
 * xfs, APFS), so the encoded name must stay within {@link #MAX_ENCODED_LENGTH}.
 *
 * <p>Everything Lance would refuse is refused here, before a caller takes a gate or touches storage:
 * Lance clones {@code tree/<name>} before it writes the branch's ref, so a name it refuses late
 * leaves a tree behind.
 *
 * @param value the name as the wire spells it
 * @throws InvalidRequest naming the rule the name breaks
 */
public record BranchName(String value) {

  /** The branch every graph has. */
  public static final BranchName MAIN = new BranchName("main");

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  static final int MAX_LENGTH = 200;
  /** 255 (a file name component) minus {@code ".json"}. */
  public static final int MAX_ENCODED_LENGTH = 255 - ".json".length();

  public BranchName {
    if (value == null || value.isEmpty()) {
      throw new InvalidRequest("branch name is empty");
    }
    if (!value.equals("main")) {
      requireCreatable(value);
    }
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

  /** The branch a request names; empty or absent means {@code main}. */
  public static BranchName orMain(String name) {
    return name == null || name.isBlank() ? MAIN : new BranchName(name);
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
  public String toString() {
    return value;
  }
}
