package dev.omnigraph.manifest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.table.NativeBranch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A graph branch's native identity and parent chain, read from the branch's own ref in
 * {@code __manifest} instead of from Lance's branch listing.
 *
 * <p>Why: the listing is one LIST plus one GET per branch, so a write's capture on a named branch
 * cost grew with the number of branches (on S3 with 50 ms per request, about a second per write
 * with 8 branches). The ref is one small JSON object per branch, laid down by the Lance format this
 * project pins ({@code _refs/branches/<name>.json}, {@code /} written as {@code %2F}): fields
 * {@code parentBranch}, {@code parentVersion} and {@code identifier.version_mapping}. Reading it
 * is one GET for the branch plus one per ancestor below main.
 *
 * <p>The listing stays the authority: a ref that is absent (no such branch, or a name this
 * encoding does not reach) or unreadable falls back to it, so a change of Lance's layout costs
 * speed, never correctness. {@code BranchRefsContractTest}-style checks in the manifest suites
 * compare both readings.
 */
final class BranchRefs {

  private static final Logger LOG = Logger.getLogger(BranchRefs.class);
  static final String PREFIX = ManifestDataset.KEY + "/_refs/branches/";
  /** Guards the ancestor walk against a cyclic (corrupt) ref set. */
  private static final int MAX_DEPTH = 64;

  private final Optional<StorageAdapter> storage;

  private BranchRefs(Optional<StorageAdapter> storage) {
    this.storage = storage;
  }

  /** Reads refs through {@code storage}, the listing when a ref cannot be read. */
  static BranchRefs direct(StorageAdapter storage) {
    return new BranchRefs(Optional.of(storage));
  }

  /** Always the listing (a caller without a storage adapter). */
  static BranchRefs listing() {
    return new BranchRefs(Optional.empty());
  }

  /**
   * What a capture needs of a named branch: its ref, its ancestors' names nearest first ending with
   * main, and the refs of those ancestors that still exist (their identities, which a reader checks:
   * {@code LanceRoot.noteIncarnation}).
   */
  record Resolved(NativeBranch branch, List<String> parentChain, List<NativeBranch> ancestors) {}

  /**
   * The native branch {@code name} of {@code m}'s dataset and its ancestors nearest first, ending
   * with main; empty when the branch does not exist.
   */
  Optional<Resolved> resolve(ManifestDataset m, String name) {
    if (storage.isPresent()) {
      try {
        Optional<Resolved> direct = resolveDirect(name);
        if (direct.isPresent()) {
          return direct;
        }
      } catch (RuntimeException unreadable) {
        LOG.debugf("branch ref of %s unreadable, using the branch listing: %s", name, unreadable.getMessage());
      }
    }
    List<NativeBranch> live = m.branches();
    return live.stream().filter(b -> b.name().equals(name)).findFirst().map(b -> {
      List<String> chain = ManifestReader.parentChain(live, name);
      return new Resolved(b, chain, live.stream().filter(a -> chain.contains(a.name())).toList());
    });
  }

  private Optional<Resolved> resolveDirect(String name) {
    Optional<NativeBranch> own = read(name);
    if (own.isEmpty()) {
      return Optional.empty();
    }
    List<String> chain = new ArrayList<>();
    List<NativeBranch> ancestors = new ArrayList<>();
    Optional<String> parent = own.get().parent();
    while (parent.isPresent()) {
      if (chain.contains(parent.get()) || chain.size() >= MAX_DEPTH) {
        throw new IllegalStateException("branch refs of " + name + " form a cycle");
      }
      chain.add(parent.get());
      Optional<NativeBranch> up = read(parent.get());
      if (up.isEmpty()) {
        // A parent deleted after the fork: the listing answers the same way (the chain stops).
        break;
      }
      ancestors.add(up.get());
      parent = up.get().parent();
    }
    chain.add(ManifestState.MAIN);
    return Optional.of(new Resolved(own.get(), List.copyOf(chain), List.copyOf(ancestors)));
  }

  /**
   * The Lance identity {@code name} has now, read from its ref (one GET; the listing of {@code m}'s
   * dataset without a storage adapter or when the ref cannot be read); empty when it does not exist.
   */
  Optional<String> identity(ManifestDataset m, String name) {
    if (storage.isPresent()) {
      try {
        return read(name).map(NativeBranch::identifier);
      } catch (RuntimeException unreadable) {
        LOG.debugf("branch ref of %s unreadable, using the branch listing: %s", name, unreadable.getMessage());
      }
    }
    return m.branches().stream().filter(b -> b.name().equals(name)).findFirst().map(NativeBranch::identifier);
  }

  /** One branch's ref, or empty when no object holds it. */
  Optional<NativeBranch> read(String name) {
    Optional<String> text = storage.orElseThrow().readTextIfExists(key(name));
    if (text.isEmpty()) {
      return Optional.empty();
    }
    JsonNode ref;
    try {
      ref = ManifestJson.MAPPER.readTree(text.get());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("branch ref " + key(name) + " is not JSON: " + e.getOriginalMessage(), e);
    }
    JsonNode mapping = ref.path("identifier").path("version_mapping");
    JsonNode parentVersion = ref.get("parentVersion");
    if (!mapping.isArray() || mapping.isEmpty() || parentVersion == null || !parentVersion.canConvertToLong()) {
      throw new IllegalStateException("branch ref " + key(name) + " lacks identifier or parentVersion");
    }
    StringBuilder id = new StringBuilder();
    for (JsonNode pair : mapping) {
      if (!pair.isArray() || pair.size() != 2 || !pair.get(0).canConvertToLong() || !pair.get(1).isTextual()) {
        throw new IllegalStateException("branch ref " + key(name) + " has a malformed version mapping");
      }
      if (id.length() > 0) {
        id.append(',');
      }
      id.append(pair.get(0).asLong()).append(':').append(pair.get(1).asText());
    }
    JsonNode parent = ref.get("parentBranch");
    Optional<String> parentName = parent == null || parent.isNull()
        ? Optional.empty()
        : Optional.of(parent.asText()).filter(p -> !p.isEmpty() && !p.equals(ManifestState.MAIN));
    return Optional.of(new NativeBranch(name, parentName, parentVersion.asLong(), id.toString()));
  }

  static String key(String name) {
    return PREFIX + name.replace("/", "%2F") + ".json";
  }
}
