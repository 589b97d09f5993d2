package dev.omnigraph.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.impl.ConnectionBase;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends an HTTP/1.x connection whose request was refused before its body was read: what the client
 * still sends is dropped until the body ends, for at most {@link #MILLIS} and {@link #BYTES}, and
 * then the connection closes (a lingering close, as nginx and Apache httpd end theirs).
 *
 * <p>Why: closing at once, with the client's bytes unread, makes the kernel answer them with a
 * reset, and a client still writing its body (as every HTTP client does before it reads) sees a
 * broken pipe instead of the 413. Why in Netty, ahead of Vert.x's handler: Vert.x copies each body
 * chunk from Netty's pooled buffer into a new heap buffer before any handler sees it, so dropping the
 * rest at the Vert.x level made up to 64 MiB of garbage per refused request and grew the server's
 * memory (RequestBodyLimitsTest's bound). Here each chunk is released where the decoder made it.
 */
final class LingeringClose extends ChannelInboundHandlerAdapter {

  /** How long a refused request's connection keeps dropping what the client still sends. */
  static final long MILLIS = 2_000;
  /** How much of a refused request's rest it drops before it closes anyway. */
  static final long BYTES = 64L * 1024 * 1024;

  private static final String NAME = "omnigraph-lingering-close";
  /** Vert.x's own HTTP/1.x request handler, the one that copies. */
  private static final String VERTX_HANDLER = "handler";

  private final HttpConnection connection;
  private long dropped;
  private ScheduledFuture<?> deadline;

  private LingeringClose(HttpConnection connection) {
    this.connection = connection;
  }

  /**
   * Lingers on {@code request}'s connection, or closes it at once where it cannot (the body already
   * ended, or a connection that is not Vert.x's own). On the event loop, after the answer's end.
   */
  static void after(HttpServerRequest request) {
    HttpConnection connection = request.connection();
    if (request.isEnded() || !(connection instanceof ConnectionBase base)) {
      connection.close();
      return;
    }
    Channel channel = base.channel();
    if (channel.pipeline().get(VERTX_HANDLER) == null || channel.pipeline().get(NAME) != null) {
      connection.close();
      return;
    }
    channel.pipeline().addBefore(VERTX_HANDLER, NAME, new LingeringClose(connection));
    // The body's reader paused the request when it stopped reading: what Vert.x already queued was
    // copied then and is bounded by its queue; drop it and let the socket be read again.
    request.handler(ignored -> { });
    request.resume();
    channel.config().setAutoRead(true);
    channel.read();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    deadline = ctx.executor().schedule(this::close, MILLIS, TimeUnit.MILLISECONDS);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    boolean last = msg instanceof LastHttpContent;
    if (msg instanceof HttpContent content) {
      dropped += content.content().readableBytes();
    }
    ReferenceCountUtil.release(msg); // never passed on: not the body, and not a pipelined request
    if (last || dropped > BYTES) {
      close();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    deadline.cancel(false);
    super.channelInactive(ctx);
  }

  /** Through Vert.x, which flushes what it still has to write (the 413) before the socket closes. */
  private void close() {
    deadline.cancel(false);
    connection.close();
  }
}
