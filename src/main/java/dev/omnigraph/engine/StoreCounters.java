package dev.omnigraph.engine;

import dev.omnigraph.storage.StoreRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The process's object-store request counters, by operation and by what the request addressed, for
 * the service's metrics: the counting itself stays in the storage layer.
 */
public final class StoreCounters {

  private StoreCounters() {}

  /**
   * One counter pair, read live.
   *
   * @param op the operation's label ({@code get}, {@code lance_commit} ...)
   * @param kind the label of what it addressed ({@code manifest}, {@code data} ...)
   */
  public record Counter(String op, String kind, LongSupplier requests, LongSupplier bytes) {}

  /** Every counter, operation by operation, each by kind. */
  public static List<Counter> all() {
    List<Counter> out = new ArrayList<>();
    for (StoreRequests.Op op : StoreRequests.Op.values()) {
      for (StoreRequests.Kind kind : StoreRequests.Kind.values()) {
        out.add(new Counter(op.label(), kind.label(), () -> StoreRequests.count(op, kind),
            () -> StoreRequests.bytes(op, kind)));
      }
    }
    return List.copyOf(out);
  }
}
