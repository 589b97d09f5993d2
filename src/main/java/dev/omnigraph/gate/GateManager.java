package dev.omnigraph.gate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The process-wide gates of one canonical graph root: one schema gate, one gate per graph branch,
 * one queue per table key. Every handle opened on the same root (however its URI was spelled) shares
 * one instance, so a second handle cannot act under a live writer of the first.
 *
 * <p>Acquisition order is fixed — schema, then branches in sorted order, then tables in sorted order
 * — which is what makes the gates deadlock-free. Gates are process-local: they reduce retries and
 * fence in-process recovery, they are not distributed authority (the publisher's CAS is).
 */
public final class GateManager {

  private static final ConcurrentHashMap<String, GateManager> BY_ROOT = new ConcurrentHashMap<>();

  private final String root;
  private final ReentrantLock schema = new ReentrantLock(true);
  private final ConcurrentHashMap<String, ReentrantLock> branches = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ReentrantLock> tables = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ReentrantLock> queues = new ConcurrentHashMap<>();

  private GateManager(String root) {
    this.root = root;
  }

  /** The manager of a canonical root URI ({@code StorageConfig.rootUri()} after canonicalisation). */
  public static GateManager forRoot(String canonicalRoot) {
    return BY_ROOT.computeIfAbsent(canonicalRoot, GateManager::new);
  }

  public String root() {
    return root;
  }

  /**
   * Acquires the schema gate, the given branch gates and the given table gates, in that order.
   * The returned hold releases them in reverse order.
   */
  public Held acquire(Collection<String> branchNames, Collection<String> tableKeys) {
    List<ReentrantLock> order = new ArrayList<>();
    order.add(schema);
    for (String b : new TreeSet<>(branchNames)) {
      order.add(branches.computeIfAbsent(b, k -> new ReentrantLock(true)));
    }
    for (String t : new TreeSet<>(tableKeys)) {
      order.add(tables.computeIfAbsent(t, k -> new ReentrantLock(true)));
    }
    List<ReentrantLock> held = new ArrayList<>(order.size());
    try {
      for (ReentrantLock lock : order) {
        lock.lockInterruptibly();
        held.add(lock);
      }
    } catch (InterruptedException e) {
      release(held);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for graph gates", e);
    }
    return new Held(held);
  }

  /**
   * Joins the branch's process-local writer queue for a whole attempt, prepare included, and
   * returns a hold that leaves it. Only repreparable writers queue: in-process insert/upsert
   * writers on one branch then take turns instead of invalidating each other's prepared authority
   * and exhausting their bounded reprepares. Always taken before, and never while holding, the
   * gates, so it adds no lock-order edge. Not authority: the publisher's CAS still decides.
   */
  public Held queue(String branch) {
    ReentrantLock q = queues.computeIfAbsent(branch, k -> new ReentrantLock(true));
    try {
      q.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while queueing for branch " + branch, e);
    }
    return new Held(List.of(q));
  }

  private static void release(List<ReentrantLock> held) {
    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).unlock();
    }
  }

  /** Gates held by the current thread; close releases them. */
  public static final class Held implements AutoCloseable {
    private final List<ReentrantLock> locks;
    private boolean released;

    private Held(List<ReentrantLock> locks) {
      this.locks = locks;
    }

    @Override
    public void close() {
      if (!released) {
        released = true;
        release(locks);
      }
    }
  }
}
