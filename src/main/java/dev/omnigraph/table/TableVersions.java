package dev.omnigraph.table;

import static dev.omnigraph.table.LanceCall.lance;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which versions of a data table stay readable: listing, restore (recovery's compensation), the
 * cleanup of old versions, the pin tags that keep graph-pinned versions through a cleanup, and the
 * irreversible removals of schema apply and its recovery (hard drops, the rollback of our own
 * version-one create). Reached through {@link DataTables#versions()}.
 */
public final class TableVersions {

  private final StorageConfig config;
  private final DataTables tables;

  /** The root's Lance session and table-branch answers, shared with every handle of the root. */
  private final LanceRoot lance;

  TableVersions(StorageConfig config, LanceRoot lance, DataTables tables) {
    this.lance = lance;
    this.config = config;
    this.tables = tables;
  }

  /**
   * Makes {@code version} of the branch its latest version again with a Lance {@code Restore}
   * commit (a new version with that version's content; history is kept). Recovery's compensation
   * for an owned effect that must not become visible.
   *
   * @return the new head (the restore's version)
   * @throws RuntimeException from Lance
   */
  public long restore(String location, Optional<String> nativeBranch, long version) {
    return lance(() -> {
      // Restore moves the handle it runs on: never a shared one.
      try (TableHandle h = TableHandle.openFresh(lance, config, location, nativeBranch, OptionalLong.of(version))) {
        h.table.restore();
      }
      return tables.head(location, nativeBranch);
    });
  }

  /**
   * Stages a {@code Restore} of {@code toVersion} on the ref at {@code readVersion}, committed like
   * any staged write ({@link DataTables#commit}: pre-minted {@code uuid}, zero retries, confirmed at
   * {@code readVersion + 1}), so recovery can tell it is ours by its transaction (a graph revert;
   * {@link #restore} is recovery's own compensation, which needs no such proof).
   */
  public StagedWrite stageRestore(String location, Optional<String> nativeBranch, long readVersion, long toVersion,
      String uuid) {
    if (toVersion >= readVersion) {
      throw new IllegalArgumentException("restore of version " + toVersion + " planned on version " + readVersion);
    }
    return StagedWrite.builder(location, nativeBranch, readVersion, uuid, StagedWrite.Kind.RESTORE)
        .restoreVersion(toVersion).build();
  }

  /**
   * Every version number the branch still has manifests for, ascending.
   */
  public List<Long> list(String location, Optional<String> nativeBranch) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.empty())) {
        return h.table.listVersions().stream().map(v -> v.getId()).sorted().toList();
      }
    });
  }

  /** What a cleanup removed. */
  public record Removed(long versions, long bytes) {}

  /**
   * Removes the branch's versions older than {@code beforeVersion} and the files only they
   * referenced (Lance cleanup; tagged versions are kept). Staged files no version ever referenced
   * are kept unless they are older than Lance's unverified-file grace period.
   */
  public Removed cleanupBefore(String location, Optional<String> nativeBranch, long beforeVersion) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, nativeBranch, OptionalLong.empty())) {
        org.lance.cleanup.RemovalStats stats = h.table.cleanupWithPolicy(org.lance.cleanup.CleanupPolicy.builder()
            .withBeforeVersion(beforeVersion).withErrorIfTaggedOldVersions(false).build());
        // A cached handle of a removed version would go on proving and reading history that
        // storage no longer holds (the merge's certificate proof must see the cleanup).
        PinnedHandles.forgetBefore(config, location, nativeBranch, beforeVersion);
        return new Removed(stats.getOldVersions(), stats.getBytesRemoved());
      }
    });
  }

  /**
   * Schema apply's hard drop of a property (irreversible): removes every version of the table's main
   * before {@code keepFrom}, pin tags included, so time travel to them can no longer read the
   * dropped column. Idempotent.
   */
  public Removed removeVersionsBefore(String location, long keepFrom) {
    retainPinTags(location, Map.of(Optional.empty(), List.of()));
    return cleanupBefore(location, Optional.empty(), keepFrom);
  }

  /**
   * Schema apply's hard drop of a type (irreversible): removes the retired type's whole dataset.
   * Idempotent (an absent dataset is left absent).
   */
  public void deleteDataset(String location) {
    PinnedHandles.forgetBranch(config, location, "");
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      storage.deletePrefix(location + "/");
    }
  }

  /** Name prefix of the Lance tags that keep graph-pinned versions through a cleanup. */
  public static final String PIN_TAG_PREFIX = "omnigraph-pin-";

  /**
   * A pin tag: a Lance tag named {@value #PIN_TAG_PREFIX}… on {@code version} of
   * {@code nativeBranch} (empty: the table's main). Lance's cleanup never removes a tagged version,
   * which is what lets a cleanup remove an unpinned version that lies between two pinned ones.
   */
  public record PinTag(String name, Optional<String> nativeBranch, long version) {}

  /** The table's pin tags (every other tag is left alone and never listed here). */
  public List<PinTag> pinTags(String location) {
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, Optional.empty(), OptionalLong.empty())) {
        List<PinTag> out = new ArrayList<>();
        for (org.lance.Tag t : h.main.tags().list()) {
          if (t.getName().startsWith(PIN_TAG_PREFIX)) {
            Optional<String> branch = t.getBranch().filter(b -> !b.isEmpty() && !b.equals("main"));
            out.add(new PinTag(t.getName(), branch, t.getVersion()));
          }
        }
        return out;
      }
    });
  }

  /** What {@link #retainPinTags} changed. */
  public record TagChanges(int created, int deleted) {}

  /**
   * Makes the table's pin tags exactly {@code pinned} (Lance branch, empty for main → versions):
   * creates a tag for every pinned version that has none and deletes every pin tag whose version is
   * no longer pinned, in one open. Tags create no table version; other tags are left alone.
   *
   * @throws RuntimeException from Lance, e.g. when a pinned version does not exist
   */
  public TagChanges retainPinTags(String location, Map<Optional<String>, ? extends Collection<Long>> pinned) {
    Map<String, org.lance.Ref> wanted = new TreeMap<>();
    pinned.forEach((branch, versions) -> versions.forEach(v ->
        wanted.put(pinTagName(branch, v), LanceSupport.ref(branch, OptionalLong.of(v)))));
    return lance(() -> {
      try (TableHandle h = TableHandle.open(lance, config, location, Optional.empty(), OptionalLong.empty())) {
        Set<String> present = new HashSet<>();
        int deleted = 0;
        for (org.lance.Tag t : h.main.tags().list()) {
          if (!t.getName().startsWith(PIN_TAG_PREFIX)) {
            continue;
          }
          if (wanted.containsKey(t.getName())) {
            present.add(t.getName());
          } else {
            h.main.tags().delete(t.getName());
            deleted++;
          }
        }
        int created = 0;
        for (Map.Entry<String, org.lance.Ref> e : wanted.entrySet()) {
          if (!present.contains(e.getKey())) {
            h.main.tags().create(e.getKey(), e.getValue());
            created++;
          }
        }
        return new TagChanges(created, deleted);
      }
    });
  }

  /**
   * Lance tag names allow only letters, digits, '.', '-' and '_', and end up as file names, so a
   * branch is named by a digest of its name rather than by the name itself.
   */
  static String pinTagName(Optional<String> nativeBranch, long version) {
    String branch = nativeBranch.map(b -> {
      try {
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
            .digest(b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "b" + java.util.HexFormat.of().formatHex(digest, 0, 8);
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }).orElse("main");
    return PIN_TAG_PREFIX + branch + "-v" + version;
  }

  /**
   * The versions of the branch's table that can still be opened (cleanup removes older ones):
   * whether {@code version} is among them, without opening it.
   */
  public boolean readable(String location, Optional<String> nativeBranch, long version) {
    return list(location, nativeBranch).contains(version);
  }

  /**
   * Removes the dataset a version-one create of ours made, and only that: its version 1 must carry
   * {@code uuid} and nothing may follow it (recovery's rollback of an AddType whose registration
   * was never published). A dataset that is not ours is left untouched.
   *
   * @return whether the dataset was removed (false: absent, or not exactly ours)
   */
  public boolean dropOwnCreate(String location, String uuid) {
    if (!tables.datasetExists(location)) {
      return false;
    }
    boolean ours;
    try (TableHandle h = TableHandle.openFresh(lance, config, location, Optional.empty(), OptionalLong.empty())) {
      long head = h.table.latestVersion();
      ours = head == 1
          && DataTables.transactionAt(h, Optional.empty(), 1).map(tx -> tx.uuid().equals(uuid)).orElse(false);
    } catch (RuntimeException unreadable) {
      // Files but no readable version 1: the create never completed (Lance writes the manifest last).
      ours = true;
    }
    if (!ours) {
      return false;
    }
    PinnedHandles.forgetBranch(config, location, ""); // main: a re-created dataset reuses version numbers
    try (dev.omnigraph.storage.StorageAdapter storage = dev.omnigraph.storage.StorageAdapters.open(config)) {
      storage.deletePrefix(location + "/");
    }
    return true;
  }
}
