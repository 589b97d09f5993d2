package dev.omnigraph.write;

import dev.omnigraph.storage.ExternalBlobPolicy;
import dev.omnigraph.storage.StorageConfig;

/**
 * A graph's external-Blob settings as its writers see them: the allow list, and the S3 settings
 * that reach {@code s3://} sources (docs/schema-language.md, "Blob").
 *
 * @param policy which URIs the graph accepts
 * @param s3Settings endpoint, region and credentials for {@code s3://} sources
 */
public record ExternalBlobs(ExternalBlobPolicy policy, StorageConfig s3Settings) {

  /** Every external URI refused (the default of every handle until the service installs a list). */
  public static ExternalBlobs deny(StorageConfig s3Settings) {
    return new ExternalBlobs(ExternalBlobPolicy.DENY, s3Settings);
  }
}
