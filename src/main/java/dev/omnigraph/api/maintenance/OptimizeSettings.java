package dev.omnigraph.api.maintenance;

import java.util.function.Function;

/**
 * When automatic compaction runs (docs/maintenance.md, "optimize"). A table is due when it has
 * more than {@code fragmentThreshold} fragments or more than {@code deletionThreshold} fragments
 * carrying deletion files. Every write adds one fragment to each table it touches (and a delete or
 * upsert a deletion file), so without compaction each scan's cost grows with the write history.
 *
 * @param autoEnabled run Optimize for the touched tables after a write publishes
 * @param fragmentThreshold fragments beyond which a table is due
 * @param deletionThreshold fragments with deletion files beyond which a table is due
 * @param background run the automatic pass on a background thread instead of the writer's thread
 *     after the write's result is settled
 */
public record OptimizeSettings(boolean autoEnabled, int fragmentThreshold, int deletionThreshold,
    boolean background, int indexThreshold) {

  public static final String ENABLED = "omnigraph.optimize.auto.enabled";
  public static final String FRAGMENT_THRESHOLD = "omnigraph.optimize.fragment-threshold";
  public static final String DELETION_THRESHOLD = "omnigraph.optimize.deletion-threshold";
  public static final String BACKGROUND = "omnigraph.optimize.auto.background";
  public static final String INDEX_THRESHOLD = "omnigraph.optimize.unindexed-threshold";

  /** Default fragment threshold: the same bound the publisher keeps {@code __manifest} under. */
  public static final int DEFAULT_FRAGMENT_THRESHOLD = 32;
  /** Default deletion-file threshold. */
  public static final int DEFAULT_DELETION_THRESHOLD = 16;
  /**
   * Default unindexed-fragment threshold: every key probe reads each fragment its key index does not
   * cover yet (one object-store GET each), so a write's cost stays within a few requests of the floor.
   */
  public static final int DEFAULT_INDEX_THRESHOLD = 8;

  /** As the canonical constructor, with the default unindexed-fragment threshold. */
  public OptimizeSettings(boolean autoEnabled, int fragmentThreshold, int deletionThreshold, boolean background) {
    this(autoEnabled, fragmentThreshold, deletionThreshold, background, DEFAULT_INDEX_THRESHOLD);
  }

  public OptimizeSettings {
    if (fragmentThreshold < 1 || deletionThreshold < 0 || indexThreshold < 0) {
      throw new IllegalArgumentException("optimize thresholds must be positive: fragment-threshold="
          + fragmentThreshold + ", deletion-threshold=" + deletionThreshold);
    }
  }

  /** The defaults: enabled, 32 fragments, 16 deletion fragments, inline. */
  public static OptimizeSettings defaults() {
    return new OptimizeSettings(true, DEFAULT_FRAGMENT_THRESHOLD, DEFAULT_DELETION_THRESHOLD, false);
  }

  /** Automatic compaction off (thresholds still apply to an explicit run). */
  public static OptimizeSettings disabled() {
    return new OptimizeSettings(false, DEFAULT_FRAGMENT_THRESHOLD, DEFAULT_DELETION_THRESHOLD, false);
  }

  /** The settings from the JVM's system properties ({@link #ENABLED} …), defaults for the rest. */
  public static OptimizeSettings fromSystemProperties() {
    return from(System::getProperty);
  }

  /** The settings from any key → value lookup (null: unset), e.g. Quarkus/MicroProfile config. */
  public static OptimizeSettings from(Function<String, String> lookup) {
    return new OptimizeSettings(
        bool(lookup.apply(ENABLED), true),
        integer(lookup.apply(FRAGMENT_THRESHOLD), DEFAULT_FRAGMENT_THRESHOLD, FRAGMENT_THRESHOLD),
        integer(lookup.apply(DELETION_THRESHOLD), DEFAULT_DELETION_THRESHOLD, DELETION_THRESHOLD),
        bool(lookup.apply(BACKGROUND), false),
        integer(lookup.apply(INDEX_THRESHOLD), DEFAULT_INDEX_THRESHOLD, INDEX_THRESHOLD));
  }

  /**
   * Whether a table with these fragment counts (the table store's statistics) is due for
   * compaction.
   */
  public boolean due(int fragments, int fragmentsWithDeletions, int unindexedFragments) {
    return fragments > fragmentThreshold || fragmentsWithDeletions > deletionThreshold
        || unindexedFragments > indexThreshold;
  }

  private static boolean bool(String v, boolean dflt) {
    return v == null || v.isBlank() ? dflt : Boolean.parseBoolean(v.trim());
  }

  private static int integer(String v, int dflt, String name) {
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, not '" + v + "'", e);
    }
  }
}
