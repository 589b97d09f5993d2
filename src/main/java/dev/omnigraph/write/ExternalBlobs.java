package dev.omnigraph.write;

import dev.omnigraph.api.ExternalBlobPolicy;
import dev.omnigraph.api.storage.StorageConfig;
import dev.omnigraph.table.ExternalSources;
import java.util.function.Supplier;

/**
 * A graph's external-Blob settings as its writers see them: the allow list, and how to open the
 * sources it admits (one {@link ExternalSources} per operation, closed with it;
 * docs/schema-language.md, "Blob").
 *
 * @param policy which URIs the graph accepts
 * @param sources opens the reader of admitted sources (the graph's S3 settings)
 */
public record ExternalBlobs(ExternalBlobPolicy policy, Supplier<ExternalSources> sources) {

  /**
   * No external input: a writer whose only Blob inputs are managed bytes and committed cells it
   * carries ({@code PUT /blob}, a merge's chunks). Nothing is admitted, so no source is opened.
   */
  static final ExternalBlobs NONE = new ExternalBlobs(ExternalBlobPolicy.DENY, () -> {
    throw new IllegalStateException("no external Blob source is read by this writer");
  });

  /**
   * The settings of the graph at {@code root}: {@code s3://} sources are read with the graph's own S3
   * settings when it is on S3, with the environment's otherwise.
   */
  public static ExternalBlobs of(ExternalBlobPolicy policy, StorageConfig root) {
    StorageConfig s3 = root.backend() == StorageConfig.Backend.S3 ? root : StorageConfig.fromEnvironment("s3://external");
    return new ExternalBlobs(policy, () -> new ExternalSources(s3));
  }
}
