package dev.omnigraph.server;

import dev.omnigraph.api.ResourceLimitExceeded;
import jakarta.inject.Singleton;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The process-wide bound on concurrent export streams, as the reference's export transport budget:
 * each stream reserves {@link #STREAM_BYTES} of {@link #PROCESS_BYTES} (8 streams); a request that
 * cannot reserve within {@link #WAIT_MS} is 413 {@code resource_limit}
 * {@code stream_export_transport_bytes} with the reference's limit and actual, before anything is
 * pinned or sent. The reservation is held until the stream ends, however it ends.
 */
@Singleton
class ExportStreams {

  /** Reference: four 64 KiB chunks (two queued, one in flight, one being produced). */
  static final int STREAM_BYTES = 4 * 64 * 1024;
  static final int PROCESS_BYTES = 8 * STREAM_BYTES;
  static final long WAIT_MS = 250;
  static final String RESOURCE = "stream_export_transport_bytes";

  private final Semaphore available = new Semaphore(PROCESS_BYTES);

  /** Reserves one stream's bytes, or throws {@link ResourceLimitExceeded}; the caller must {@link #release()}. */
  void reserve() {
    boolean got;
    try {
      got = available.tryAcquire(STREAM_BYTES, WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      got = false;
    }
    if (!got) {
      throw new ResourceLimitExceeded(RESOURCE, PROCESS_BYTES, (long) PROCESS_BYTES + STREAM_BYTES,
          "too many exports are streaming; retry when one has finished");
    }
  }

  void release() {
    available.release(STREAM_BYTES);
  }
}
