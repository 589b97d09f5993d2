package dev.omnigraph.storage;

import java.util.List;
import java.util.Optional;

/** Placeholder replaced by the S3 implementation in this change. */
final class S3StorageAdapter implements StorageAdapter {
  S3StorageAdapter(StorageConfig config) {
    throw new UnsupportedOperationException("S3 adapter not yet built");
  }
  @Override public String rootUri() { throw new UnsupportedOperationException(); }
  @Override public void put(String key, byte[] data) { throw new UnsupportedOperationException(); }
  @Override public void putIfAbsent(String key, byte[] data) { throw new UnsupportedOperationException(); }
  @Override public byte[] read(String key) { throw new UnsupportedOperationException(); }
  @Override public Optional<String> readTextIfExists(String key) { throw new UnsupportedOperationException(); }
  @Override public List<String> list(String prefix) { throw new UnsupportedOperationException(); }
  @Override public void delete(String key) { throw new UnsupportedOperationException(); }
  @Override public void deletePrefix(String prefix) { throw new UnsupportedOperationException(); }
  @Override public boolean exists(String key) { throw new UnsupportedOperationException(); }
  @Override public void close() {}
}
