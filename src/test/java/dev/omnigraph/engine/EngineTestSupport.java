package dev.omnigraph.engine;

/** Test access to the engine's root registry that production code outside the engine never needs. */
public final class EngineTestSupport {

  private EngineTestSupport() {}

  /**
   * Drops what the default registry's open root {@code rootUri} knows of its manifest, and its held
   * manifest handles: the next read is cold. No-op when the root is not open (then it already is).
   */
  public static void forgetManifestStates(String rootUri) {
    GraphRoots.shared().peek(rootUri).ifPresent(r -> r.manifests().forgetAll());
  }
}
