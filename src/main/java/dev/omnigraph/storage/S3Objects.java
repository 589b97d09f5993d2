package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Objects of any bucket reachable with one set of S3 settings (endpoint, region, credentials): the
 * {@code s3://} sources of external Blobs, sized by one HEAD and read whole. Failures are typed
 * {@link StorageException}s; the caller says what they mean for its write.
 */
public final class S3Objects implements AutoCloseable {

  private final StorageConfig settings;
  private final Map<String, S3StorageAdapter> buckets = new ConcurrentHashMap<>();

  /** @param settings whose endpoint, region, path style and credentials reach the buckets */
  public S3Objects(StorageConfig settings) {
    this.settings = settings;
  }

  /** The length of {@code key} in {@code bucket}, by one HEAD. */
  public long size(String bucket, String key) {
    return bucket(bucket).externalSize(key);
  }

  /** The bytes of {@code key} in {@code bucket}. */
  public byte[] read(String bucket, String key) {
    return bucket(bucket).externalRead(key);
  }

  private S3StorageAdapter bucket(String bucket) {
    return buckets.computeIfAbsent(bucket, b -> new S3StorageAdapter(new StorageConfig("s3://" + b,
        settings.endpoint(), settings.region(), settings.pathStyle(), settings.allowHttp(),
        settings.accessKeyId(), settings.secretAccessKey(), settings.sessionToken())));
  }

  @Override
  public void close() {
    buckets.values().forEach(S3StorageAdapter::close);
    buckets.clear();
  }
}
