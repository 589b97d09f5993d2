package dev.omnigraph.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes local graph roots into an S3Mock 5.2.0 store folder before the server starts, in the
 * layout S3Mock itself writes and loads at start: {@code <bucket>/bucketMetadata.json} maps every
 * key to an object id, and {@code <bucket>/<id>/} holds {@code binaryData} and
 * {@code objectMetadata.json}. The field set is the one S3Mock 5.2.0 writes for a plain
 * {@code PutObject} (checked against its own files); nothing here decides a response.
 */
final class SeededStore {
  private static final DateTimeFormatter DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  /** S3Mock's default owner, the one it records for every object put without an ACL. */
  private static final String OWNER = "79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be";

  private SeededStore() {}

  /** Writes each local root as {@code s3://<bucket>/<prefix>/}, one bucket per root. */
  static void write(Path store, Map<String, Path> roots, String prefix) throws IOException {
    for (Map.Entry<String, Path> root : roots.entrySet()) {
      writeBucket(store, root.getKey(), Map.of(prefix, root.getValue()));
    }
  }

  private static void writeBucket(Path store, String bucket, Map<String, Path> roots) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Path bucketDir = Files.createDirectories(store.resolve(bucket));
    ObjectNode objects = json.createObjectNode();
    Instant now = Instant.now();
    for (Map.Entry<String, Path> root : roots.entrySet()) {
      List<Path> files;
      try (var walk = Files.walk(root.getValue())) {
        // '#' marks a local adapter's in-flight temporary file, never an object.
        files = walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().contains("#")).toList();
      }
      for (Path f : files) {
        String key = root.getKey() + "/" + root.getValue().relativize(f).toString().replace('\\', '/');
        UUID id = UUID.randomUUID();
        Path objectDir = Files.createDirectory(bucketDir.resolve(id.toString()));
        Path data = objectDir.resolve("binaryData");
        try {
          Files.createLink(data, f);
        } catch (IOException | UnsupportedOperationException crossDevice) {
          Files.copy(f, data);
        }
        ObjectNode meta = json.createObjectNode();
        meta.put("id", id.toString());
        meta.put("key", key);
        meta.put("size", Long.toString(Files.size(data)));
        meta.put("modificationDate", DATE.format(now));
        meta.put("etag", md5(data));
        meta.put("contentType", "application/octet-stream");
        meta.put("lastModified", now.toEpochMilli());
        meta.put("dataPath", data.toUri().toString());
        meta.putObject("userMetadata");
        meta.putNull("tags");
        meta.putNull("legalHold");
        meta.putNull("retention");
        meta.putObject("owner").put("ID", OWNER);
        meta.putObject("storeHeaders");
        meta.putObject("encryptionHeaders");
        meta.putNull("checksumAlgorithm");
        meta.putNull("checksum");
        meta.put("storageClass", "STANDARD");
        meta.putNull("policy");
        meta.putNull("versionId");
        meta.put("deleteMarker", false);
        meta.putNull("checksumType");
        meta.putNull("parts");
        json.writeValue(objectDir.resolve("objectMetadata.json").toFile(), meta);
        objects.put(key, id.toString());
      }
    }
    ObjectNode bucketMeta = json.createObjectNode();
    bucketMeta.put("name", bucket);
    bucketMeta.put("creationDate", DATE.format(now));
    ObjectNode versioning = bucketMeta.putObject("versioningConfiguration");
    versioning.putNull("MfaDelete");
    versioning.putNull("Status");
    bucketMeta.putNull("objectLockConfiguration");
    bucketMeta.putNull("bucketLifecycleConfiguration");
    bucketMeta.put("objectOwnership", "BucketOwnerEnforced");
    bucketMeta.put("path", bucketDir.toUri().toString());
    bucketMeta.put("bucketRegion", S3TestServer.REGION);
    bucketMeta.putNull("bucketInfo");
    bucketMeta.putNull("locationInfo");
    bucketMeta.set("objects", objects);
    json.writeValue(bucketDir.resolve("bucketMetadata.json").toFile(), bucketMeta);
  }

  private static String md5(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("MD5");
      byte[] buf = new byte[64 * 1024];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
