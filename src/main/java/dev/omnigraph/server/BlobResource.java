package dev.omnigraph.server;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.omnigraph.api.BlobRead;
import dev.omnigraph.api.InvalidRequest;
import jakarta.inject.Inject;
import dev.omnigraph.api.BlobWriteOutput;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.InputStream;
import java.util.Optional;

/**
 * {@code GET|HEAD /graphs/{id}/blob}: one Blob cell (managed bytes, or a redirect to an external one), as the reference's OpenAPI says
 * (docs/http-api.md, "Blob reads"). The cell is resolved with a query's target resolution and
 * {@code read} check; the preconditions run in the reference's order (If-Match, then If-None-Match,
 * then Range with If-Range); the body streams in reads of at most 4 MiB, under the export transport's
 * bound on concurrent streams.
 */
@Path("/graphs/{graph_id}/blob")
class BlobResource {

  static final String SNAPSHOT_HEADER = "Omnigraph-Snapshot-Id";
  private static final String OCTETS = MediaType.APPLICATION_OCTET_STREAM;

  @Inject GraphRegistry graphs;
  @Inject RequestActor actor;
  @Inject ExportStreams streams;
  @Inject ServiceMetrics metrics;

  @GET
  public Response get(@PathParam("graph_id") String graphId, @QueryParam("entity") String entity,
      @QueryParam("type") String type, @QueryParam("id") String id, @QueryParam("property") String property,
      @QueryParam("branch") String branch, @QueryParam("snapshot") String snapshot,
      @HeaderParam("If-Match") String ifMatch, @HeaderParam("If-None-Match") String ifNoneMatch,
      @HeaderParam("Range") String range, @HeaderParam("If-Range") String ifRange) {
    return answer(graphId, entity, type, id, property, branch, snapshot, ifMatch, ifNoneMatch, range, ifRange, true);
  }

  @HEAD
  public Response head(@PathParam("graph_id") String graphId, @QueryParam("entity") String entity,
      @QueryParam("type") String type, @QueryParam("id") String id, @QueryParam("property") String property,
      @QueryParam("branch") String branch, @QueryParam("snapshot") String snapshot,
      @HeaderParam("If-Match") String ifMatch, @HeaderParam("If-None-Match") String ifNoneMatch,
      @HeaderParam("Range") String range, @HeaderParam("If-Range") String ifRange) {
    return answer(graphId, entity, type, id, property, branch, snapshot, ifMatch, ifNoneMatch, range, ifRange, false);
  }

  private Response answer(String graphId, String entity, String type, String id, String property, String branch,
      String snapshot, String ifMatch, String ifNoneMatch, String range, String ifRange, boolean withBody) {
    // Looked up as given (docs/http-api.md, "Routes", Branches): a malformed name or id is the lookup's 404.
    BlobRead cell = graphs.get(graphId).reader().readBlob(required("entity", entity), required("type", type),
        required("id", id), required("property", property),
        Optional.ofNullable(branch).map(dev.omnigraph.api.BranchName::existing),
        Optional.ofNullable(snapshot).map(dev.omnigraph.api.CommitId::existing), actor.get());
    if (cell.externalUri().isPresent()) {
      return redirect(cell, ifMatch);
    }
    boolean streaming = false;
    try {
      long size = cell.size();
      if (ifMatch != null && !matches(ifMatch, cell.etag(), true)) {
        return headers(Response.status(412), cell)
            .type(MediaType.APPLICATION_JSON)
            .entity(ErrorOutput.plain("If-Match does not match the Blob's entity tag " + cell.etag(), null))
            .build();
      }
      if (ifNoneMatch != null && matches(ifNoneMatch, cell.etag(), false)) {
        return headers(Response.notModified(), cell).header("Content-Length", size).build();
      }
      // HEAD ignores Range (the reference SDK's e2e pins it): it describes the whole representation.
      Optional<ByteRange> wanted = !withBody || (ifRange != null && !ifRange.strip().equals(cell.etag()))
          ? Optional.empty() : ByteRange.parse(range);
      long offset = 0;
      long length = size;
      Response.ResponseBuilder ok;
      if (wanted.isPresent()) {
        Optional<long[]> span = wanted.get().within(size);
        if (span.isEmpty()) {
          ByteRange r = wanted.get();
          long start = r.suffix() ? Math.max(0, size - r.last()) : r.first();
          long end = r.suffix() ? size : r.last() < 0 ? size : r.last() + 1;
          return headers(Response.status(416), cell)
              .header("Content-Range", "bytes */" + size)
              .type(MediaType.APPLICATION_JSON)
              .entity(new RangeError("range not satisfiable for a Blob of " + size + " bytes", "bad_request",
                  new BlobRange(start, end, size)))
              .build();
        }
        offset = span.get()[0];
        length = span.get()[1] - offset + 1;
        ok = Response.status(206).header("Content-Range", "bytes " + offset + "-" + span.get()[1] + "/" + size);
      } else {
        ok = Response.ok();
      }
      headers(ok, cell).header("Content-Length", length).type(OCTETS);
      if (!withBody) {
        return ok.build();
      }
      streams.reserve();
      long from = offset;
      long count = length;
      StreamingOutput body = out -> {
        try (cell) {
          cell.copyTo(from, count, out);
        } finally {
          streams.release();
        }
      };
      streaming = true;
      return ok.entity(body).build();
    } finally {
      if (!streaming) {
        cell.close();
      }
    }
  }

  /**
   * {@code PUT /graphs/{id}/blob} (ours): the raw body becomes the cell's bytes, as one graph commit
   * (docs/http-api.md, "Blob writes"). The body is read through {@link BodyLimits}' Blob limit (a
   * declared length over 32 MiB is refused before it is read, a chunked one at the first byte past
   * it), never as text.
   */
  @PUT
  @Consumes(MediaType.WILDCARD)
  @Produces(MediaType.APPLICATION_JSON)
  public Response put(@PathParam("graph_id") String graphId, @QueryParam("entity") String entity,
      @QueryParam("type") String type, @QueryParam("id") String id, @QueryParam("property") String property,
      @QueryParam("branch") String branch, @HeaderParam("If-Match") String ifMatch,
      @HeaderParam(GraphResource.IF_GRAPH_COMMIT) String ifCommit, @Context HttpHeaders headers, InputStream body) {
    return write(graphId, entity, type, id, property, branch, ifMatch, headers,
        Optional.of(body == null ? InputStream.nullInputStream() : body));
  }

  /** {@code DELETE /graphs/{id}/blob} (ours): clears a {@code Blob?} cell, as one graph commit. */
  @DELETE
  @Produces(MediaType.APPLICATION_JSON)
  public Response delete(@PathParam("graph_id") String graphId, @QueryParam("entity") String entity,
      @QueryParam("type") String type, @QueryParam("id") String id, @QueryParam("property") String property,
      @QueryParam("branch") String branch, @HeaderParam("If-Match") String ifMatch,
      @HeaderParam(GraphResource.IF_GRAPH_COMMIT) String ifCommit, @Context HttpHeaders headers) {
    return write(graphId, entity, type, id, property, branch, ifMatch, headers, Optional.empty());
  }

  private Response write(String graphId, String entity, String type, String id, String property, String branch,
      String ifMatch, HttpHeaders headers, Optional<InputStream> value) {
    // Parsed from the raw header lines as the conditional mutation routes parse them (docs/http-api.md,
    // "Blob writes"): the @HeaderParam above only documents the header, since it reads an empty value
    // as no header at all, which would make the write unconditional. An empty, entity-tag or repeated
    // value is 400, never a condition no head can meet (412) or none.
    Optional<dev.omnigraph.api.CommitId> ifCommit = GraphResource.optionalExpectedHead(
        headers.getRequestHeader(GraphResource.IF_GRAPH_COMMIT));
    Optional<String> ifMatchList = ifMatch(headers.getRequestHeader("If-Match"));
    ServedGraph served = graphs.get(graphId);
    dev.omnigraph.engine.Omnigraph g = served.handle();
    dev.omnigraph.api.BranchName on = dev.omnigraph.api.BranchName.existingOrMain(branch);
    BlobWriteOutput out = metrics.write(served, "blob_write", () -> g.writeBlob(on, required("entity", entity),
        required("type", type), required("id", id), required("property", property), value,
        ifMatchList, ifCommit, actor.get()), o -> null);
    Response.ResponseBuilder ok = Response.ok(out).header(SNAPSHOT_HEADER, out.graphCommitId());
    return (out.etag() == null ? ok : ok.header("ETag", out.etag())).build();
  }

  /**
   * A write's {@code If-Match}, from the raw header lines for the same reason as its
   * {@code Omnigraph-If-Graph-Commit}: the {@code @HeaderParam} reads an empty value as no header,
   * which would let the write run unconditionally. Several lines are one list (RFC 9110, 5.3); a
   * line or list with no entity tag in it is 400.
   */
  static Optional<String> ifMatch(java.util.List<String> lines) {
    if (lines == null || lines.isEmpty()) {
      return Optional.empty();
    }
    String list = String.join(",", lines.stream().map(l -> l == null ? "" : l).toList());
    if (java.util.Arrays.stream(list.split(",")).map(String::strip).allMatch(String::isEmpty)) {
      throw new dev.omnigraph.api.InvalidRequest("If-Match must name an entity tag or *");
    }
    return Optional.of(list);
  }

  /**
   * An external cell: 302 to its stored URI with {@code Cache-Control: no-store}, the source never
   * read (the reference's redirect, for GET and HEAD alike). It has no entity tag, so an
   * {@code If-Match} naming tags cannot match it (412); {@code *} matches (the cell exists).
   * If-None-Match and Range concern managed bytes only: the client sends them to the source.
   */
  private static Response redirect(BlobRead cell, String ifMatch) {
    try (cell) {
      if (ifMatch != null && java.util.Arrays.stream(ifMatch.split(",")).map(String::strip).noneMatch("*"::equals)) {
        return Response.status(412).header(SNAPSHOT_HEADER, cell.snapshotId())
            .type(MediaType.APPLICATION_JSON)
            .entity(ErrorOutput.plain("If-Match names entity tags, and an external Blob has none", null))
            .build();
      }
      return Response.status(302).header("Location", cell.externalUri().orElseThrow())
          .header("Cache-Control", "no-store").header(SNAPSHOT_HEADER, cell.snapshotId()).build();
    }
  }

  private static Response.ResponseBuilder headers(Response.ResponseBuilder b, BlobRead cell) {
    return b.header("Accept-Ranges", "bytes").header("ETag", cell.etag()).header(SNAPSHOT_HEADER, cell.snapshotId());
  }

  private static String required(String name, String value) {
    if (value == null || value.isEmpty()) {
      throw new InvalidRequest("the query parameter '" + name + "' is required");
    }
    return value;
  }

  /**
   * Whether the entity-tag list {@code header} names {@code etag}: {@code *} matches any (the cell
   * exists); a strong comparison ignores weak tags, a weak one compares them without {@code W/}.
   */
  static boolean matches(String header, String etag, boolean strong) {
    return dev.omnigraph.api.EntityTags.matches(header, etag, strong);
  }

  /**
   * One {@code bytes} range: {@code first-last}, {@code first-} ({@code last} = -1) or the suffix
   * {@code -n} ({@code last} = n). A malformed header, another unit or several ranges are ignored
   * (the whole Blob is served), as the reference does.
   */
  record ByteRange(long first, long last, boolean suffix) {

    static Optional<ByteRange> parse(String header) {
      if (header == null) {
        return Optional.empty();
      }
      String h = header.strip();
      if (!h.startsWith("bytes=") || h.indexOf(',') >= 0) {
        return Optional.empty();
      }
      String spec = h.substring("bytes=".length()).strip();
      int dash = spec.indexOf('-');
      if (dash < 0) {
        return Optional.empty();
      }
      try {
        String a = spec.substring(0, dash).strip();
        String b = spec.substring(dash + 1).strip();
        if (a.isEmpty()) {
          return b.isEmpty() || !digits(b) ? Optional.empty() : Optional.of(new ByteRange(-1, Long.parseLong(b), true));
        }
        if (!digits(a) || (!b.isEmpty() && !digits(b))) {
          return Optional.empty();
        }
        long first = Long.parseLong(a);
        long last = b.isEmpty() ? -1 : Long.parseLong(b);
        return last >= 0 && last < first ? Optional.empty() : Optional.of(new ByteRange(first, last, false));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }

    private static boolean digits(String s) {
      return s.chars().allMatch(Character::isDigit);
    }

    /** The inclusive span this range selects of a payload of {@code size} bytes; empty: unsatisfiable. */
    Optional<long[]> within(long size) {
      if (suffix) {
        return last == 0 || size == 0 ? Optional.empty() : Optional.of(new long[] {Math.max(0, size - last), size - 1});
      }
      if (first >= size) {
        return Optional.empty();
      }
      return Optional.of(new long[] {first, last < 0 ? size - 1 : Math.min(last, size - 1)});
    }
  }

  /** Reference {@code BlobRangeOutput}: the half-open range asked for and the Blob's length. */
  record BlobRange(@JsonProperty("start") long start, @JsonProperty("end") long end,
      @JsonProperty("length") long length) {}

  /** Reference {@code ErrorOutput} with its {@code blob_range} detail (HTTP 416). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record RangeError(@JsonProperty("error") String error, @JsonProperty("code") String code,
      @JsonProperty("blob_range") BlobRange blobRange) {}
}
