package dev.omnigraph.manifest;

import dev.omnigraph.api.TableKey;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One coherent capture of a graph branch's authority, its manifest state and that state's
 * lineage from the same {@code __manifest} row scan (so the two cannot disagree): the branch's
 * native identity, the manifest version and state it read, its parent chain, and the effective head
 * derived from them. Every
 * writer, recovery, repair, the publisher and reads take this value instead of re-deriving any part
 * of it; an unchanged {@link #stamp()} means nothing in it changed.
 *
 * @param branch graph branch ({@code main} or a name)
 * @param nativeIdentity the Lance branch identifier of the manifest branch (empty for main, which
 *     cannot be deleted and recreated)
 * @param parentChain ancestor branches, nearest first, ending at main (empty for main)
 * @param state the decoded manifest state at {@link ManifestState#manifestVersion()}
 * @param stamp identifies the exact manifest version read (version and its commit time), so a
 *     branch deleted and recreated at the same version number never compares equal
 */
public record BranchAuthority(
    String branch, Optional<String> nativeIdentity, List<String> parentChain, ManifestState state, String stamp) {

  public BranchAuthority {
    Objects.requireNonNull(branch, "branch");
    Objects.requireNonNull(nativeIdentity, "nativeIdentity");
    parentChain = List.copyOf(parentChain);
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(stamp, "stamp");
  }

  /** The commit the branch's next commit descends from (its own head, else an inherited one). */
  public Optional<String> head() {
    return state.effectiveHead(parentChain);
  }

  /** The manifest version this capture read. */
  public long manifestVersion() {
    return state.manifestVersion();
  }

  /** The visible table pins by table key. */
  public Map<TableKey, TablePin> pins() {
    return state.tables();
  }

  /** The write token of this capture under the accepted schema {@code schemaIdentity}. */
  public AuthorityToken token(String schemaIdentity) {
    return new AuthorityToken(branch, nativeIdentity, head(), schemaIdentity);
  }

  /** True when {@code other} read exactly the same manifest version of the same branch identity. */
  public boolean sameAs(BranchAuthority other) {
    return branch.equals(other.branch) && nativeIdentity.equals(other.nativeIdentity) && stamp.equals(other.stamp);
  }
}
