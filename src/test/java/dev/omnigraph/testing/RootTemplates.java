package dev.omnigraph.testing;

import dev.omnigraph.api.storage.StorageConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Graph roots built once per test class (a <em>template</em>) and copied for every case, so a suite
 * whose cases all start from {@code init} plus the same load pays for that once (issue 19).
 *
 * <p>A copy is the template byte for byte, every file or object under the root: the Lance datasets
 * ({@code _versions/}, {@code _transactions/}, {@code _deletions/}, data, {@code _refs/}),
 * {@code __recovery/}, the schema files and the init claim. A template holds <strong>main
 * only</strong>: Lance records the parent dataset's absolute URI in every branch manifest
 * ({@code tree/<branch>/_versions/*.manifest}, as a base path for the files the branch shares with
 * its parent), so a copied branch would keep reading the template's files. {@link #copy} therefore
 * refuses a root with a {@code tree/} key; graph branches and forked tables are made per case, on
 * the copy. Without branches nothing under a root records its location:
 * {@code AbstractRootCopyTest} deletes the template after copying, then reads every commit of the copy,
 * recovers, writes, branches and forks on it, and checks that writing one copy changes neither the
 * template nor another copy. Locally a copy is a recursive file copy; on S3 a server-side
 * {@code CopyObject} per key.
 *
 * <p>{@code -Domnigraph.test.templates=false} turns templates off: every case then builds its root
 * itself, as before, to rule the copies out when a test misbehaves.
 */
public final class RootTemplates {

  /** Makes an empty root (the test's own {@code newRoot()}). */
  @FunctionalInterface
  public interface RootFactory {
    StorageConfig newRoot() throws Exception;
  }

  /** Builds the graph state every case of a class starts from, on an empty root. */
  @FunctionalInterface
  public interface Builder {
    void build(StorageConfig root) throws Exception;
  }

  private static final Map<String, StorageConfig> TEMPLATES = new HashMap<>();

  private RootTemplates() {}

  /** False when {@code -Domnigraph.test.templates=false}: build per case. */
  public static boolean enabled() {
    return !"false".equals(System.getProperty("omnigraph.test.templates"));
  }

  /**
   * A fresh root from {@code roots} holding {@code owner}'s template {@code name}, which {@code build}
   * makes on an empty root the first time it is asked for in this JVM (and on every call when
   * templates are off).
   */
  public static StorageConfig copyOf(Class<?> owner, String name, RootFactory roots, Builder build)
      throws Exception {
    if (!enabled()) {
      StorageConfig root = roots.newRoot();
      build.build(root);
      return root;
    }
    String key = owner.getName() + "#" + name;
    StorageConfig template;
    synchronized (TEMPLATES) {
      template = TEMPLATES.get(key);
      if (template == null) {
        template = roots.newRoot();
        build.build(template);
        TEMPLATES.put(key, template);
      }
    }
    StorageConfig copy = roots.newRoot();
    copy(template, copy);
    return copy;
  }

  /**
   * Copies everything under {@code from}'s root to the same relative keys under {@code to}'s (an
   * empty root on the same backend and, for S3, the same endpoint and credentials).
   */
  public static void copy(StorageConfig from, StorageConfig to) {
    if (from.backend() != to.backend()) {
      throw new IllegalArgumentException("copy across backends: " + from + " -> " + to);
    }
    if (from.backend() == StorageConfig.Backend.LOCAL) {
      copyLocal(from.localRoot(), to.localRoot(), branchKey(from));
    } else {
      copyS3(from, to, true);
    }
  }

  /**
   * Copies everything under {@code from}'s root to {@code to}'s as an operator's {@code cp -r} or
   * {@code aws s3 sync} would, Lance branches ({@code tree/}) included, so the copy's branch
   * manifests still name {@code from} until it is relocated. Only the writer lease stays behind, as
   * in {@link #copy}.
   */
  public static void copyAsIs(StorageConfig from, StorageConfig to) {
    if (from.backend() != to.backend()) {
      throw new IllegalArgumentException("copy across backends: " + from + " -> " + to);
    }
    if (from.backend() == StorageConfig.Backend.LOCAL) {
      copyLocal(from.localRoot(), to.localRoot(), key -> true);
    } else {
      copyS3(from, to, false);
    }
  }

  /** A key under a Lance branch ({@code tree/}), which holds the parent's absolute URI. */
  private static boolean isBranchKey(String relativeKey) {
    return relativeKey.startsWith("tree/") || relativeKey.contains("/tree/");
  }

  private static IllegalArgumentException branchRefused(StorageConfig from, String key) {
    return new IllegalArgumentException("refusing to copy " + from + ": " + key + " is under a Lance branch "
        + "(tree/), whose manifests record the template's absolute URI; build branches on the copy");
  }

  private static java.util.function.Predicate<String> branchKey(StorageConfig from) {
    return key -> {
      if (isBranchKey(key)) {
        throw branchRefused(from, key);
      }
      return true;
    };
  }

  /**
   * The writer lease (and the local adapter's lock beside it) names the process that built the
   * template: a copy is a new graph whose first writer acquires its own lease.
   */
  private static boolean isLeaseKey(String relativeKey) {
    return relativeKey.startsWith("__lease.json");
  }

  private static void copyLocal(Path from, Path to, java.util.function.Predicate<String> check) {
    try (var paths = Files.walk(from)) {
      List<Path> all = paths.filter(p -> !isLeaseKey(from.relativize(p).toString())).toList();
      all.forEach(p -> check.test(from.relativize(p).toString().replace('\\', '/')));
      for (Path p : all) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("copy " + from + " -> " + to, e);
    }
  }

  private static void copyS3(StorageConfig from, StorageConfig to, boolean refuseBranches) {
    String fromPrefix = from.prefix().isEmpty() ? "" : from.prefix() + "/";
    String toPrefix = to.prefix().isEmpty() ? "" : to.prefix() + "/";
    try (S3Client s3 = client(from)) {
      List<String> keys = new ArrayList<>();
      s3.listObjectsV2Paginator(r -> r.bucket(from.bucket()).prefix(fromPrefix)).contents().stream()
          .map(S3Object::key).filter(k -> !isLeaseKey(k.substring(fromPrefix.length()))).forEach(keys::add);
      for (String key : keys) {
        if (refuseBranches && isBranchKey(key.substring(fromPrefix.length()))) {
          throw branchRefused(from, key);
        }
      }
      // Server-side copies, a few at a time: each is one round trip through the loopback front.
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> copies = new ArrayList<>();
        for (String key : keys) {
          String target = toPrefix + key.substring(fromPrefix.length());
          copies.add(pool.submit(() -> s3.copyObject(r -> r.sourceBucket(from.bucket()).sourceKey(key)
              .destinationBucket(to.bucket()).destinationKey(target))));
        }
        for (Future<?> f : copies) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("copy " + from + " -> " + to, e.getCause());
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** Removes everything under {@code root} (a template, or a root a test is done with). */
  public static void delete(StorageConfig root) {
    if (root.backend() == StorageConfig.Backend.LOCAL) {
      try (var paths = Files.walk(root.localRoot())) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    // Batched (DeleteObjects): a root with branches holds hundreds of objects.
    S3TestServer.get().deleteAll(root);
  }

  private static S3Client client(StorageConfig root) {
    var b = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.create())
        .region(Region.of(root.region()))
        .forcePathStyle(root.pathStyle())
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
            root.accessKeyId().orElseThrow(), root.secretAccessKey().orElseThrow())));
    root.endpoint().ifPresent(e -> b.endpointOverride(URI.create(e)));
    return b.build();
  }
}
