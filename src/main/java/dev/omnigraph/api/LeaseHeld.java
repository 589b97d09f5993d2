package dev.omnigraph.api;

import java.time.Instant;

/**
 * A read-write use of a graph was refused because another process holds the graph's live writer
 * lease ({@code __lease.json} in the graph root): the root has one writer at a time, and it is not
 * us. Nothing was changed. Send writes to the holder ({@code --server URL}) or stop it; a holder
 * that died is taken over once its lease expires. A {@link Conflict}: HTTP 409, CLI exit 3.
 */
public final class LeaseHeld extends Conflict {

  private final String owner;
  private final String host;
  private final long pid;
  private final Instant since;
  private final Instant expiresAt;

  /**
   * @param owner the holder's owner id
   * @param host the holder's host name
   * @param pid the holder's process id on {@code host}
   * @param since when the holder acquired the lease
   * @param expiresAt when the lease expires unless renewed (the earliest a takeover can succeed)
   */
  public LeaseHeld(String owner, String host, long pid, Instant since, Instant expiresAt) {
    super("graph is served by " + owner + " (" + host + " pid " + pid + ") since " + since
        + "; use --server URL or stop it");
    this.owner = owner;
    this.host = host;
    this.pid = pid;
    this.since = since;
    this.expiresAt = expiresAt;
  }

  /** The holder's owner id. */
  public String owner() {
    return owner;
  }

  /** The holder's host name. */
  public String host() {
    return host;
  }

  /** The holder's process id on {@link #host()}. */
  public long pid() {
    return pid;
  }

  /** When the holder acquired the lease. */
  public Instant since() {
    return since;
  }

  /** When the lease expires unless its holder renews it first. */
  public Instant expiresAt() {
    return expiresAt;
  }
}
