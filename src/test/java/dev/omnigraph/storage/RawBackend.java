package dev.omnigraph.storage;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Reaches a graph root underneath the adapter, the way a crash or an operator would: to plant temp
 * residue the adapter refuses to write, and to check what is really stored after a delete.
 */
final class RawBackend {

  private RawBackend() {}

  /** Stores {@code data} at {@code rawKey} under the root, with no key checks. */
  static void write(StorageConfig root, String rawKey, byte[] data) {
    if (root.backend() == StorageConfig.Backend.LOCAL) {
      try {
        Path file = root.localRoot().resolve(rawKey);
        Files.createDirectories(file.getParent());
        Files.write(file, data);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    try (S3Client s3 = client(root)) {
      s3.putObject(r -> r.bucket(root.bucket()).key(s3Key(root, rawKey)), RequestBody.fromBytes(data));
    }
  }

  /** True when something is stored at exactly {@code rawKey}. */
  static boolean exists(StorageConfig root, String rawKey) {
    if (root.backend() == StorageConfig.Backend.LOCAL) {
      return Files.exists(root.localRoot().resolve(rawKey));
    }
    try (S3Client s3 = client(root)) {
      s3.headObject(r -> r.bucket(root.bucket()).key(s3Key(root, rawKey)));
      return true;
    } catch (NoSuchKeyException e) {
      return false;
    }
  }

  /** A plain SDK client with the root's connection settings (static credentials required). */
  static S3Client client(StorageConfig root) {
    var b = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .region(Region.of(root.region()))
        .forcePathStyle(root.pathStyle())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            root.accessKeyId().orElseThrow(), root.secretAccessKey().orElseThrow())));
    root.endpoint().ifPresent(e -> b.endpointOverride(URI.create(e)));
    return b.build();
  }

  private static String s3Key(StorageConfig root, String rawKey) {
    return root.prefix().isEmpty() ? rawKey : root.prefix() + "/" + rawKey;
  }
}
