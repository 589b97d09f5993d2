package dev.omnigraph.storage;

import dev.omnigraph.storage.StoreRequests.Kind;
import dev.omnigraph.storage.StoreRequests.Op;
import java.util.List;
import java.util.Optional;

/** Counts every request of the adapter it wraps in {@link StoreRequests}; behaviour is unchanged. */
final class CountingStorageAdapter implements StorageAdapter {

  private final StorageAdapter inner;

  CountingStorageAdapter(StorageAdapter inner) {
    this.inner = inner;
  }

  @Override
  public String rootUri() {
    return inner.rootUri();
  }

  @Override
  public void put(String key, byte[] data) {
    StoreRequests.record(Op.PUT, Kind.ofKey(key), data == null ? 0 : data.length);
    inner.put(key, data);
  }

  @Override
  public String putIfAbsent(String key, byte[] data) {
    StoreRequests.record(Op.PUT, Kind.ofKey(key), data == null ? 0 : data.length);
    return inner.putIfAbsent(key, data);
  }

  @Override
  public byte[] read(String key) {
    byte[] out = inner.read(key);
    StoreRequests.record(Op.GET, Kind.ofKey(key), out == null ? 0 : out.length);
    return out;
  }

  @Override
  public Optional<String> readTextIfExists(String key) {
    Optional<String> out = inner.readTextIfExists(key);
    StoreRequests.record(Op.GET, Kind.ofKey(key), out.map(String::length).orElse(0));
    return out;
  }

  @Override
  public Optional<Versioned> readVersionedIfExists(String key) {
    Optional<Versioned> out = inner.readVersionedIfExists(key);
    StoreRequests.record(Op.GET, Kind.ofKey(key), out.map(v -> v.data().length).orElse(0));
    return out;
  }

  @Override
  public String putIfMatch(String key, byte[] data, String versionToken) {
    StoreRequests.record(Op.PUT, Kind.ofKey(key), data == null ? 0 : data.length);
    return inner.putIfMatch(key, data, versionToken);
  }

  @Override
  public void deleteIfMatch(String key, String versionToken) {
    StoreRequests.record(Op.DELETE, Kind.ofKey(key), 0);
    inner.deleteIfMatch(key, versionToken);
  }

  @Override
  public List<String> list(String prefix) {
    StoreRequests.record(Op.LIST, Kind.ofKey(prefix), 0);
    return inner.list(prefix);
  }

  @Override
  public List<Child> children(String prefix) {
    StoreRequests.record(Op.LIST, Kind.ofKey(prefix), 0);
    return inner.children(prefix);
  }

  @Override
  public List<Listed> listDetailed(String prefix) {
    StoreRequests.record(Op.LIST, Kind.ofKey(prefix), 0);
    return inner.listDetailed(prefix);
  }

  @Override
  public void delete(String key) {
    StoreRequests.record(Op.DELETE, Kind.ofKey(key), 0);
    inner.delete(key);
  }

  @Override
  public void deletePrefix(String prefix) {
    StoreRequests.record(Op.DELETE, Kind.ofKey(prefix), 0);
    inner.deletePrefix(prefix);
  }

  @Override
  public boolean exists(String key) {
    StoreRequests.record(Op.HEAD, Kind.ofKey(key), 0);
    return inner.exists(key);
  }

  @Override
  public void close() {
    inner.close();
  }
}
