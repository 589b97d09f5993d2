package dev.omnigraph.gate;

import dev.omnigraph.api.TableKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The process-wide gates of one canonical graph root: one schema gate, one gate per graph branch,
 * one queue per table key. Every handle opened on the same root (however its URI was spelled) shares
 * one instance, so a second handle cannot act under a live writer of the first: the engine's root
 * registry ({@code engine.GraphRoots}) builds one per open root and hands it to the root's writers.
 *
 * <p>Acquisition order is fixed — schema, then branches in sorted order, then tables in sorted order
 * — which is what makes the gates deadlock-free. Gates are process-local: they reduce retries and
 * fence in-process recovery, they are not distributed authority (the publisher's CAS is).
 */
public final class GateManager {

  private final String root;
  /**
   * Read mode for every writer (their authority includes the accepted schema but not each other);
   * write mode for what changes or quiesces the whole root: schema apply, branch create/delete,
   * full recovery and maintenance. Disjoint branches therefore commit concurrently (docs/write-path.md, "Process-local branch queue").
   */
  private final ReentrantReadWriteLock schema = new ReentrantReadWriteLock(true);
  private final ConcurrentHashMap<String, ReentrantLock> branches = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ReentrantLock> tables = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, ReentrantLock> queues = new ConcurrentHashMap<>();

  /** The gates of a canonical root URI ({@code StorageConfig.rootUri()} after canonicalisation). */
  public GateManager(String canonicalRoot) {
    this.root = java.util.Objects.requireNonNull(canonicalRoot, "canonicalRoot");
  }

  public String root() {
    return root;
  }

  /**
   * The table gate name of {@code tableKey} written on graph branch {@code branch}: a write's
   * physical target is the table's Lance ref of that branch, so writers on different branches never
   * share a table gate.
   */
  public static String tableGate(TableKey tableKey, String branch) {
    return tableKey + "@" + branch;
  }

  /**
   * Acquires the schema gate in read mode (a writer), the given branch gates and the given table
   * gates ({@link #tableGate}), in that order. The returned hold releases them in reverse order.
   */
  public Held acquire(Collection<String> branchNames, Collection<String> tableKeys) {
    return acquire(schema.readLock(), branchNames, tableKeys);
  }

  /**
   * Acquires the schema gate in write mode, which waits for every writer of the root and keeps new
   * ones out, then the given branch and table gates.
   */
  public Held acquireExclusive(Collection<String> branchNames, Collection<String> tableKeys) {
    return acquire(schema.writeLock(), branchNames, tableKeys);
  }

  /**
   * As {@link #acquire}, but only if every gate is free now: empty (holding nothing) when any is
   * held. For work that is a courtesy to another branch and must not queue behind its live writer.
   */
  public java.util.Optional<Held> tryAcquire(Collection<String> branchNames, Collection<String> tableKeys) {
    List<Lock> held = new ArrayList<>();
    for (Lock lock : order(schema.readLock(), branchNames, tableKeys)) {
      if (!lock.tryLock()) {
        release(held);
        return java.util.Optional.empty();
      }
      held.add(lock);
    }
    return java.util.Optional.of(new Held(held));
  }

  private List<Lock> order(Lock schemaMode, Collection<String> branchNames, Collection<String> tableKeys) {
    List<Lock> order = new ArrayList<>();
    order.add(schemaMode);
    for (String b : new TreeSet<>(branchNames)) {
      order.add(branches.computeIfAbsent(b, k -> new ReentrantLock(true)));
    }
    for (String t : new TreeSet<>(tableKeys)) {
      order.add(tables.computeIfAbsent(t, k -> new ReentrantLock(true)));
    }
    return order;
  }

  private Held acquire(Lock schemaMode, Collection<String> branchNames, Collection<String> tableKeys) {
    List<Lock> order = order(schemaMode, branchNames, tableKeys);
    List<Lock> held = new ArrayList<>(order.size());
    try {
      for (Lock lock : order) {
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

  private static void release(List<? extends Lock> held) {
    for (int i = held.size() - 1; i >= 0; i--) {
      held.get(i).unlock();
    }
  }

  /** Gates held by the current thread; close releases them. */
  public static final class Held implements AutoCloseable {
    private final List<? extends Lock> locks;
    private boolean released;

    private Held(List<? extends Lock> locks) {
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
