package dev.omnigraph.api;

/** How a graph handle is opened. */
public enum OpenMode {
  /** Runs recovery and may write. */
  READ_WRITE,
  /** Repairs nothing and performs no object-store writes; serves the last published state. */
  READ_ONLY
}
