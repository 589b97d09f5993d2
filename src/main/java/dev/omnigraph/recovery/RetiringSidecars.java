package dev.omnigraph.recovery;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The background sidecar deletes of one graph root in flight in this process, by sidecar key
 * ({@link SidecarStore#retire}): shared by every sidecar store of the root, so that no listing of the
 * root here mistakes a finished write's sidecar for a pending one. One instance per open root, owned
 * by the engine's root registry ({@code engine.GraphRoots}).
 */
public final class RetiringSidecars {

  private final Map<String, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

  public RetiringSidecars() {}

  /** Marks {@code key} as being deleted until the returned future completes ({@link #done}). */
  CompletableFuture<Void> begin(String key) {
    CompletableFuture<Void> gate = new CompletableFuture<>();
    pending.put(key, gate);
    return gate;
  }

  /** Ends the delete {@link #begin} marked. */
  void done(String key, CompletableFuture<Void> gate) {
    pending.remove(key, gate);
    gate.complete(null);
  }

  /** The keys being deleted now. */
  Set<String> keysNow() {
    return Set.copyOf(pending.keySet());
  }

  /** Whether {@code key} is being deleted now. */
  boolean contains(String key) {
    return pending.containsKey(key);
  }

  /** Waits until every delete in flight now has finished. */
  public void await() {
    for (CompletableFuture<Void> f : List.copyOf(pending.values())) {
      f.join(); // never fails: SidecarStore.retire logs its own failure
    }
  }
}
