package dev.omnigraph.engine;

import dev.omnigraph.manifest.ManifestBootstrap;
import dev.omnigraph.storage.StorageAdapter;
import dev.omnigraph.api.storage.StorageException;
import java.util.function.Supplier;

/**
 * Settles a failure nothing typed explains by asking the store. Lance reports an object-store
 * failure of its own reads and writes (connection refused, a timeout, a 5xx) as a plain
 * {@code RuntimeException} whose only evidence is message text, and nothing in this project reads
 * message text ({@link ErrorKind}): left alone, a store that stopped answering under
 * an open graph would be answered 500 {@code internal}. So when an operation fails with a failure
 * {@link ErrorKind#of} cannot place ({@link ErrorKind#INTERNAL}), one cheap question goes to the same
 * store through the storage adapter, whose failures {@code S3Errors} classifies from the SDK's types:
 * <ul>
 *   <li>the store does not answer that either: the caller gets the adapter's
 *       {@link StorageException} ({@link ErrorKind#STORAGE_UNAVAILABLE} for refused, no route or
 *       timed out), with the original failure attached as suppressed, so the log keeps both;
 *   <li>the store answers: the original failure stands (a bug, or a failure the store did not cause).
 * </ul>
 * The question costs one request (two on S3: a HEAD and a one-key listing) and is asked only after a
 * failure. A store that fails once and answers the probe leaves the 500: evidence, not a guess.
 */
final class StoreEvidence {

  private final StorageAdapter storage;

  StoreEvidence(StorageAdapter storage) {
    this.storage = storage;
  }

  /** Runs {@code operation}; an untyped failure is settled as the class comment says. */
  <T> T call(Supplier<T> operation) {
    try {
      return operation.get();
    } catch (RuntimeException failure) {
      throw settle(failure);
    }
  }

  /** What to throw for {@code failure}: itself, or the store's typed answer when it did not answer. */
  RuntimeException settle(RuntimeException failure) {
    // An interrupted caller is not asking about the store: a probe now would itself be aborted by
    // the interrupt and would hide the real outcome.
    if (ErrorKind.of(failure) != ErrorKind.INTERNAL || Thread.currentThread().isInterrupted()) {
      return failure;
    }
    try {
      storage.exists(ManifestBootstrap.MANIFEST_KEY);
    } catch (StorageException unanswered) {
      if (ErrorKind.of(unanswered) != ErrorKind.STORAGE_UNAVAILABLE) {
        // Only "the store did not answer" is evidence about the original failure.
        failure.addSuppressed(unanswered);
        return failure;
      }
      unanswered.addSuppressed(failure);
      return unanswered;
    } catch (RuntimeException other) {
      failure.addSuppressed(other);
    }
    return failure;
  }
}
