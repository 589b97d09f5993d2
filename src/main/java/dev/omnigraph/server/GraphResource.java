package dev.omnigraph.server;

import dev.omnigraph.engine.LoadInput;
import dev.omnigraph.api.BranchCreateOutput;
import dev.omnigraph.api.BranchName;
import dev.omnigraph.api.BranchDeleteOutput;
import dev.omnigraph.api.BranchListOutput;
import dev.omnigraph.api.ChangeOutput;
import dev.omnigraph.api.CommitId;
import dev.omnigraph.api.CommitListOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.CommitPage;
import dev.omnigraph.api.Conflict;
import dev.omnigraph.api.GraphBatchLoadOutput;
import dev.omnigraph.api.GraphListResponse;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.api.ReadOutput;
import dev.omnigraph.api.SchemaApplyOutput;
import dev.omnigraph.api.SchemaOutput;
import dev.omnigraph.api.SnapshotOutput;
import dev.omnigraph.engine.Omnigraph;
import dev.omnigraph.engine.QuerySources;
import dev.omnigraph.engine.WriteOutputs;
import dev.omnigraph.api.NdjsonExport;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import io.quarkus.resteasy.reactive.jackson.CustomDeserialization;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.InputStream;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The {@code /graphs} routes of the reference API, one engine call each. Writes are timed and
 * counted by {@link ServiceMetrics}; every failure is answered by {@link ErrorMapper}. The actor
 * recorded in commit lineage is the bearer token's ({@link RequestActor}), never a body field. The
 * OpenAPI document is the static {@code META-INF/openapi.json} ({@link OpenApiResource}; annotation
 * scanning is off), so a route added here must be added there too ({@code OpenApiContractTest} fails
 * until it is).
 *
 * <p>Branch names and commit ids are parsed here, once, into {@link BranchName} and {@link CommitId}:
 * a name or id a route looks up is {@code existing} (never refused by the parse), so the engine
 * authorizes the caller first and the lookup then answers a malformed one as an unknown one (404);
 * a new branch's name is parsed by the engine after authorizing (docs/http-api.md, "Routes", Branches).
 */
@Path("/graphs")
@Tag(name = "graphs")
@Produces(MediaType.APPLICATION_JSON)
class GraphResource {

  static final String IF_GRAPH_COMMIT = "Omnigraph-If-Graph-Commit";
  static final String NDJSON = "application/x-ndjson";

  @Inject GraphRegistry graphs;
  @Inject RequestActor actor;
  @Inject ServiceMetrics metrics;
  @Inject ExportStreams exports;
  @Inject com.fasterxml.jackson.databind.ObjectMapper mapper;

  @GET
  @Operation(operationId = "listGraphs", summary = "Every served graph, sorted by id.")
  public GraphListResponse list() {
    // Server-scoped: the server policy's graph_list (DefaultDeny refuses it, as the reference does).
    graphs.serverGate().check(actor.get(), dev.omnigraph.api.policy.PolicyAction.GRAPH_LIST, Optional.empty(),
        Optional.empty());
    return new GraphListResponse(graphs.all().stream()
        .map(g -> new GraphListResponse.GraphInfo(g.id(), g.uri())).toList());
  }

  @POST
  @Path("{graph_id}/query")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "query", summary = "Run a read query over one pinned snapshot.")
  @CustomDeserialization(StrictBodies.class)
  public ReadOutput query(@PathParam("graph_id") String graphId, Requests.QueryRequest request) {
    Requests.QueryRequest r = required(request);
    Omnigraph g = graphs.get(graphId).reader();
    return g.query(branch(r.branch()), snapshot("snapshot", r.snapshot()), r.query(),
        declaration(r.query(), r.name()), r.params(), graphs.readSettings(), actor.get());
  }

  @POST
  @Path("{graph_id}/mutate")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "mutate", summary = "Run a mutation as one graph commit.")
  @CustomDeserialization(StrictBodies.class)
  public ChangeOutput mutate(@PathParam("graph_id") String graphId,
      @HeaderParam(IF_GRAPH_COMMIT) String ifGraphCommit, @jakarta.ws.rs.core.Context HttpHeaders headers,
      Requests.ChangeRequest request) {
    if (sent(headers)) {
      // An older server would ignore the header and write unconditionally: the condition has its own route.
      throw new InvalidRequest(IF_GRAPH_COMMIT + " is not accepted here; send conditional mutations to POST /graphs/"
          + graphId + "/mutate/if-graph-commit");
    }
    return change(graphId, required(request), Optional.empty());
  }

  @POST
  @Path("{graph_id}/mutate/if-graph-commit")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "mutateIfGraphCommit",
      summary = "Run a mutation only while the branch head is the commit the header names.")
  @CustomDeserialization(StrictBodies.class)
  public ChangeOutput mutateIfGraphCommit(@PathParam("graph_id") String graphId,
      @jakarta.ws.rs.core.Context HttpHeaders headers, Requests.ChangeRequest request) {
    CommitId expected = expectedHead(headers.getRequestHeader(IF_GRAPH_COMMIT));
    return change(graphId, required(request), Optional.of(expected));
  }

  /**
   * Whether {@code Omnigraph-If-Graph-Commit} was sent at all, even empty (the reference refuses any
   * header line on the unconditional routes). Read from the raw header lines: the {@code @HeaderParam}
   * of those routes only documents the header, since it reads an empty value as no header, which
   * would let the write run unconditionally.
   */
  private static boolean sent(HttpHeaders headers) {
    List<String> values = headers.getRequestHeader(IF_GRAPH_COMMIT);
    return values != null && !values.isEmpty();
  }

  /**
   * The one raw commit id of {@code Omnigraph-If-Graph-Commit}, as the reference reads it: the header
   * is a graph-level compare-and-swap, not an HTTP entity tag, so entity-tag syntax ({@code W/"…"},
   * quotes, {@code *}), lists and a repeated header are refused (400) instead of being reinterpreted
   * as some other id the write would then be conditioned on. An empty value is 400 too (the
   * reference's "must name a graph commit id"), never a condition no head can meet.
   */
  static CommitId expectedHead(List<String> values) {
    return optionalExpectedHead(values).orElseThrow(() -> new InvalidRequest("the " + IF_GRAPH_COMMIT
        + " header (the expected graph head commit id) is required"));
  }

  /**
   * As {@link #expectedHead}, on a route where the condition is optional (revert, Blob writes): no
   * header is no condition; a header that is present is parsed exactly as there.
   */
  static Optional<CommitId> optionalExpectedHead(List<String> values) {
    if (values == null || values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() > 1) {
      throw new InvalidRequest(IF_GRAPH_COMMIT + " must be sent exactly once (got " + values.size() + " header lines)");
    }
    String value = values.get(0) == null ? "" : values.get(0).trim();
    if (value.isEmpty()) {
      throw new InvalidRequest(IF_GRAPH_COMMIT + " must name a graph commit id");
    }
    if (value.equals("*") || value.startsWith("W/") || value.startsWith("\"") || value.endsWith("\"")
        || value.contains(",")) {
      throw new InvalidRequest(IF_GRAPH_COMMIT + " must contain one raw graph commit id, not entity-tag syntax"
          + " or a list: got " + value);
    }
    return Optional.of(CommitId.of(value));
  }

  private ChangeOutput change(String graphId, Requests.ChangeRequest r, Optional<CommitId> ifCommit) {
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    BranchName branch = BranchName.existingOrMain(r.branch());
    String name = declaration(r.query(), r.name());
    WriteResult result = metrics.write(served, "mutate",
        () -> g.mutate(branch, r.query(), name, r.params(), actor.get(), ifCommit), w -> w);
    return WriteOutputs.change(g, branch.value(), name, actor.get(), result);
  }

  @POST
  @Path("{graph_id}/load/ndjson")
  @Consumes(NDJSON)
  @Operation(operationId = "loadNdjson", summary = "Load NDJSON nodes and edges as one graph commit.")
  public GraphBatchLoadOutput load(@PathParam("graph_id") String graphId, @QueryParam("branch") String branchParam,
      @QueryParam("from") String from, @QueryParam("mode") String modeParam,
      @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, InputStream body) {
    if (contentType == null || contentType.isBlank()) {
      // @Consumes matches a request without Content-Type too: refuse it exactly like a wrong one (415),
      // so a client cannot send a body of unknown type and have it read as NDJSON.
      throw new NotSupportedException("Content-Type " + NDJSON + " is required");
    }
    // Strict UTF-8: a malformed byte is a 400 naming its line, never a stored U+FFFD. The body is
    // counted against the load limit as it is read (BodyLimits, for every body route).
    return loadInto(graphs.get(graphId), branchParam, from, modeParam, LoadInput.strictUtf8(body));
  }

  /**
   * The JSON envelope of a load ({@code Requests.IngestRequest}, the documented schema), read as a
   * stream ({@link IngestEnvelope}): its {@code data} string is never held whole, so the body costs
   * about what a {@code load/ndjson} body does.
   */
  @POST
  @Path("{graph_id}/load")
  @Consumes(MediaType.APPLICATION_JSON)
  public Requests.IngestOutput loadJson(@PathParam("graph_id") String graphId, InputStream body)
      throws java.io.IOException {
    return ingest(graphId, body);
  }

  /** The reference's deprecated alias of {@code POST /load}, same semantics. */
  @POST
  @Path("{graph_id}/ingest")
  @Consumes(MediaType.APPLICATION_JSON)
  public Requests.IngestOutput ingest(@PathParam("graph_id") String graphId, InputStream body)
      throws java.io.IOException {
    try (IngestEnvelope envelope = IngestEnvelope.read(mapper, body)) {
      Requests.IngestRequest r = envelope.request();
      ServedGraph served = graphs.get(graphId);
      // The same loader as load/ndjson: the envelope only carries the NDJSON text and the parameters.
      GraphBatchLoadOutput out = loadInto(served, r.branch(), r.from(), r.mode(), envelope.data());
      return Requests.IngestOutput.of(served.uri(), out);
    }
  }

  private GraphBatchLoadOutput loadInto(ServedGraph served, String branchParam, String from, String modeParam,
      Reader in) {
    Omnigraph g = served.handle();
    BranchName branch = BranchName.existingOrMain(branchParam);
    LoadMode mode = modeParam == null || modeParam.isBlank() ? LoadMode.MERGE : LoadMode.parse(modeParam);
    boolean created = false;
    if (from != null && !from.isBlank() && !g.branchExists(branch)) {
      try {
        // The new name is the engine's to parse, after it authorizes branch_create.
        metrics.write(served, "branch_create", () -> g.branchCreate(branch.value(), BranchName.existing(from),
            actor.get()), b -> null);
        created = true;
      } catch (Conflict raced) {
        // Created by someone else since the listing: load into it as it is now.
      }
    }
    WriteResult result = metrics.write(served, "load", () -> g.load(branch, in, mode, actor.get()), w -> w);
    return WriteOutputs.load(g, branch.value(), created, mode, Optional.ofNullable(from), actor.get(), result);
  }

  @GET
  @Path("{graph_id}/queries")
  public dev.omnigraph.api.QueriesCatalogOutput storedQueries(@PathParam("graph_id") String graphId) {
    ServedGraph served = graphs.get(graphId);
    // As the reference: the catalog is read-gated on main.
    dev.omnigraph.engine.policy.PolicyGate gate = served.gate();
    gate.check(actor.get(), dev.omnigraph.api.policy.PolicyAction.READ, Optional.of("main"), Optional.empty());
    // Beyond the reference: only what the caller may invoke (invoke_query and its queries: scope)
    // and whose types it may touch (docs/authorization.md, "Per-type scopes").
    boolean invoke = gate.decide(actor.get(), dev.omnigraph.api.policy.PolicyAction.INVOKE_QUERY, Optional.empty(),
        Optional.empty()).allowed();
    dev.omnigraph.api.policy.NameScope names = gate.queryScope(actor.get());
    dev.omnigraph.engine.StoredQueries stored = served.storedQueries();
    boolean allReadTypes = gate.typeScopeOnAnyBranch(actor.get(), dev.omnigraph.api.policy.PolicyAction.READ).all();
    boolean allChangeTypes = gate.typeScopeOnAnyBranch(actor.get(), dev.omnigraph.api.policy.PolicyAction.CHANGE).all();
    // The graph is opened only to check a listed entry's types under a type limit: without one the
    // catalog answers alone, as the reference's does, even before the graph is initialized.
    return new dev.omnigraph.api.QueriesCatalogOutput(stored.catalog().queries().stream()
        .filter(e -> invoke && names.covers(e.name())
            && ((e.mutation() ? allChangeTypes : allReadTypes)
                || served.reader().typesInScope(stored.get(e.name()).source(), e.name(), e.mutation(), actor.get())))
        .toList());
  }

  @POST
  @Path("{graph_id}/queries/{name}")
  @Consumes(MediaType.APPLICATION_JSON)
  @CustomDeserialization(StrictBodies.class)
  public Object invokeStoredQuery(@PathParam("graph_id") String graphId, @PathParam("name") String name,
      @HeaderParam(IF_GRAPH_COMMIT) String ifGraphCommit, @jakarta.ws.rs.core.Context HttpHeaders headers,
      Requests.InvokeStoredQueryRequest request) {
    if (sent(headers)) {
      // As /mutate: a condition sent here would be ignored, so it is refused and has its own route.
      throw new InvalidRequest(IF_GRAPH_COMMIT + " is not accepted here; send conditional stored mutations to"
          + " POST /graphs/" + graphId + "/queries/" + name + "/if-graph-commit");
    }
    return invoke(graphId, name, request, Optional.empty());
  }

  @POST
  @Path("{graph_id}/queries/{name}/if-graph-commit")
  @Consumes(MediaType.APPLICATION_JSON)
  @CustomDeserialization(StrictBodies.class)
  public Object invokeStoredQueryIfGraphCommit(@PathParam("graph_id") String graphId, @PathParam("name") String name,
      @jakarta.ws.rs.core.Context HttpHeaders headers, Requests.InvokeStoredQueryRequest request) {
    CommitId expected = expectedHead(headers.getRequestHeader(IF_GRAPH_COMMIT));
    return invoke(graphId, name, request, Optional.of(expected));
  }

  /**
   * Runs stored query {@code name} with the request's runtime inputs: a read answers the reference
   * {@code ReadOutput}, a mutation {@code ChangeOutput} (untagged, as the reference), through the same
   * engine calls as {@code /query} and {@code /mutate}. The source comes from the catalog, never the body.
   */
  private Object invoke(String graphId, String name, Requests.InvokeStoredQueryRequest request,
      Optional<CommitId> ifCommit) {
    ServedGraph served = graphs.get(graphId);
    // invoke_query reaches the query; its body is then gated again by the engine (read, or change for a
    // mutation). A denial answers exactly as a missing query does (the reference's 404), so the catalog
    // cannot be probed without the grant.
    if (!served.gate().decide(actor.get(), dev.omnigraph.api.policy.PolicyAction.INVOKE_QUERY, Optional.empty(),
        Optional.empty(), List.of(), Optional.of(name)).allowed()) {
      throw served.storedQueries().notFound(name);
    }
    dev.omnigraph.engine.StoredQueries.StoredQuery q = served.storedQueries().get(name);
    Requests.InvokeStoredQueryRequest r = request == null
        ? new Requests.InvokeStoredQueryRequest(null, null, null, null) : request;
    dev.omnigraph.engine.StoredQueries.expectKind(q, r.expectMutation());
    if (q.mutation()) {
      if (r.snapshot() != null) {
        throw new InvalidRequest("'snapshot' is for read queries; stored query '" + name + "' is a mutation"
            + " (it writes the head of 'branch')");
      }
      return change(graphId, new Requests.ChangeRequest(q.source(), name, r.params(), r.branch()), ifCommit);
    }
    if (ifCommit.isPresent()) {
      throw new InvalidRequest("stored query '" + name + "' is a read query; " + IF_GRAPH_COMMIT
          + " conditions stored mutations only");
    }
    return served.reader().query(branch(r.branch()), snapshot("snapshot", r.snapshot()),
        q.source(), name, r.params(), graphs.readSettings(), actor.get());
  }

  @GET
  @Path("{graph_id}/branches")
  @Operation(operationId = "listBranches", summary = "Branch names, sorted.")
  public BranchListOutput branches(@PathParam("graph_id") String graphId) {
    List<String> names = new ArrayList<>(graphs.get(graphId).reader().branchList(actor.get()).branches());
    names.sort(null);
    return new BranchListOutput(names);
  }

  @POST
  @Path("{graph_id}/branches")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "createBranch", summary = "Fork a branch (default from main).")
  @CustomDeserialization(StrictBodies.class)
  public BranchCreateOutput createBranch(@PathParam("graph_id") String graphId, Requests.BranchCreateRequest request) {
    Requests.BranchCreateRequest r = required(request);
    if (r.name() == null || r.name().isBlank()) {
      throw new InvalidRequest("'name' is required");
    }
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    return metrics.write(served, "branch_create", () -> g.branchCreate(r.name(),
        BranchName.existingOrMain(r.from()), actor.get()), b -> null);
  }

  @POST
  @Path("{graph_id}/branches/merge")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "mergeBranches", summary = "Merge one branch into another.",
      description = "Merges `source` into `target` (default `main`): `already_up_to_date`, `fast_forward` or"
          + " `merged`. 409 with `merge_conflicts[]` when it cannot land (the target is unchanged). With"
          + " `delete_branch: true` the source is deleted after a successful merge; a failed deletion is reported"
          + " in `branch_deleted` / `branch_delete_error` and never fails the merge.")
  @CustomDeserialization(StrictBodies.class)
  public dev.omnigraph.api.BranchMergeOutput mergeBranches(@PathParam("graph_id") String graphId,
      Requests.BranchMergeRequest request) {
    Requests.BranchMergeRequest r = required(request);
    if (r.source() == null || r.source().isBlank()) {
      throw new InvalidRequest("'source' is required");
    }
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    return metrics.write(served, "branch_merge",
        () -> g.branchMerge(BranchName.existing(r.source()), BranchName.existingOrMain(r.target()),
            Boolean.TRUE.equals(r.deleteBranch()), actor.get(), dev.omnigraph.api.ProgressListener.NONE), b -> null);
  }

  @POST
  @Path("{graph_id}/branches/{branch: .+}/revert")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "revertBranch", summary = "One commit whose state equals an earlier commit of the branch (ours).",
      description = "Body `{\"to\": \"<commit id>\"}`. With the `" + IF_GRAPH_COMMIT + "` header it runs only while the"
          + " branch head is that commit (412 otherwise). 409 when the commit is not in the branch's history or the"
          + " schema changed since it; `reverted: false` and no commit when the branch already has that state.")
  @CustomDeserialization(StrictBodies.class)
  public dev.omnigraph.api.RevertOutput revertBranch(@PathParam("graph_id") String graphId,
      @PathParam("branch") String branch, @jakarta.ws.rs.core.Context HttpHeaders headers,
      Requests.RevertRequest request) {
    Requests.RevertRequest r = required(request);
    if (r.to() == null || r.to().isBlank()) {
      throw new InvalidRequest("'to' is required");
    }
    CommitId to = CommitId.of(r.to());
    Optional<CommitId> ifCommit = optionalExpectedHead(headers.getRequestHeader(IF_GRAPH_COMMIT));
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    return metrics.write(served, "revert", () -> g.revert(BranchName.existingOrMain(branch), to, actor.get(),
        ifCommit), o -> null);
  }

  @DELETE
  @Path("{graph_id}/branches/{branch: .+}")
  @Operation(operationId = "deleteBranch", summary = "Delete a branch.")
  public BranchDeleteOutput deleteBranch(@PathParam("graph_id") String graphId, @PathParam("branch") String branch) {
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    return metrics.write(served, "branch_delete", () -> g.branchDelete(BranchName.existing(branch),
        actor.get()), b -> null);
  }

  @GET
  @Path("{graph_id}/commits")
  @Operation(operationId = "listCommits", summary = "Commits reachable from a branch head, newest first, one page.",
      description = "Newest first by (graph-manifest version, created-at, commit id). At most `limit` commits"
          + " (default " + CommitPage.DEFAULT_LIMIT + ", at most " + CommitPage.MAX_LIMIT + "); when more follow,"
          + " `next_cursor` is set: pass it back as `cursor` for the next page.")
  public CommitListOutput commits(@PathParam("graph_id") String graphId, @QueryParam("branch") String branch,
      @Parameter(description = "Page size, 1 to " + CommitPage.MAX_LIMIT + " (default " + CommitPage.DEFAULT_LIMIT + ")")
      @QueryParam("limit") String limit,
      @Parameter(description = "The previous page's next_cursor; omit for the first page")
      @QueryParam("cursor") String cursor) {
    // Parsed here, not by JAX-RS, so a bad value is our 400 bad_request rather than a bare 404.
    CommitPage page = CommitPage.parse(limit, cursor);
    return graphs.get(graphId).reader().commits(BranchName.existingOrMain(branch), page, actor.get());
  }

  @GET
  @Path("{graph_id}/commits/{commit_id}")
  @Operation(operationId = "getCommit", summary = "One commit.")
  public CommitOutput commit(@PathParam("graph_id") String graphId, @PathParam("commit_id") String commitId) {
    return graphs.get(graphId).reader().commit(CommitId.existing(commitId), actor.get());
  }

  @GET
  @Path("{graph_id}/commits/{commit_id}/changes")
  @Operation(operationId = "getCommitChanges", summary = "Entity changes one commit made relative to its first parent.",
      description = "Read-only, in graph vocabulary with exact before/after images, in frozen (kind, type, id, op)"
          + " order. Bounded: at most `limit` changes (default " + dev.omnigraph.api.ChangesPage.DEFAULT_LIMIT
          + ", above " + dev.omnigraph.api.ChangesPage.MAX_LIMIT + " 413); a large commit continues via the opaque"
          + " `page_token`. 409 `change_diff_refusal` for the genesis commit; 410 `change_feed_gap` when cleanup"
          + " removed the history it needs.")
  public dev.omnigraph.api.CommitChangesOutput commitChanges(@PathParam("graph_id") String graphId,
      @PathParam("commit_id") String commitId, @QueryParam("page_token") String pageToken,
      @QueryParam("limit") String limit, @QueryParam("kind") List<String> kinds,
      @QueryParam("type") List<String> types, @QueryParam("op") List<String> ops,
      @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
    // Reference: unknown query parameters are rejected, so a misspelt filter never widens the answer.
    for (String name : uri.getQueryParameters().keySet()) {
      if (!java.util.Set.of("page_token", "limit", "kind", "type", "op").contains(name)) {
        throw new InvalidRequest("unknown query parameter '" + name + "' (allowed: page_token, limit, kind, type, op)");
      }
    }
    dev.omnigraph.api.ChangesPage page = dev.omnigraph.api.ChangesPage.parse(limit, pageToken, kinds, types, ops);
    return graphs.get(graphId).reader().commitChanges(CommitId.existing(commitId), page, actor.get());
  }

  @GET
  @Path("{graph_id}/changes")
  public dev.omnigraph.api.ChangeFeedOutput changes(@PathParam("graph_id") String graphId,
      @QueryParam("branch") String branch, @QueryParam("cursor") String cursor, @QueryParam("start") String start,
      @QueryParam("page_token") String pageToken, @QueryParam("limit") String limit,
      @QueryParam("kind") List<String> kinds, @QueryParam("type") List<String> types,
      @QueryParam("op") List<String> ops, @jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
    java.util.Set<String> allowed = java.util.Set.of("branch", "cursor", "start", "page_token", "limit", "kind",
        "type", "op");
    for (String name : uri.getQueryParameters().keySet()) {
      // As /commits/{id}/changes: a misspelt filter must not widen the feed silently.
      if (!allowed.contains(name)) {
        throw new InvalidRequest("unknown query parameter '" + name
            + "' (allowed: branch, cursor, start, page_token, limit, kind, type, op)");
      }
    }
    dev.omnigraph.api.ChangesPage filter = dev.omnigraph.api.ChangesPage.parse(limit, null, kinds, types, ops);
    return graphs.get(graphId).reader().changes(BranchName.existingOrMain(branch), present(cursor), present(start), present(pageToken),
        filter, actor.get());
  }

  @POST
  @Path("{graph_id}/changes/baseline")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces({NDJSON, MediaType.APPLICATION_JSON})
  @CustomDeserialization(StrictBodies.class)
  public Response changeBaseline(@PathParam("graph_id") String graphId, Requests.ChangeBaselineRequest request) {
    Requests.ChangeBaselineRequest r = required(request);
    dev.omnigraph.api.ChangesPage scope = dev.omnigraph.api.ChangesPage.parse(null, null, r.kind(), r.type(), r.op());
    // A baseline is an export: it shares the export streams' bound.
    exports.reserve();
    try {
      Omnigraph.ChangeBaseline baseline = graphs.get(graphId).reader().changeBaseline(BranchName.existingOrMain(r.branch()),
          scope,
          actor.get());
      byte[] terminal = mapper.writeValueAsBytes(java.util.Map.of("baseline", new java.util.LinkedHashMap<>(
          java.util.Map.of("snapshot_commit_id", baseline.snapshotCommitId(),
              "resume_cursor", baseline.resumeCursor()))));
      StreamingOutput stream = out -> {
        try {
          baseline.export().ifPresent(e -> e.writeTo(out));
          // The terminal record comes last: a stream cut short has no cursor to resume from.
          out.write(terminal);
          out.write('\n');
          out.flush();
        } finally {
          exports.release();
        }
      };
      return Response.ok(stream, NDJSON).build();
    } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
      exports.release();
      if (e instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e);
    }
  }

  private static Optional<String> present(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
  }

  @GET
  @Path("{graph_id}/snapshot")
  @Operation(operationId = "snapshot", summary = "The published state of a branch.")
  public SnapshotOutput snapshot(@PathParam("graph_id") String graphId, @QueryParam("branch") String branch,
      @Parameter(description = "Ours: the state a commit published (time travel); not with branch")
      @QueryParam("commit") String commit) {
    if (commit != null) {
      if (branch != null) {
        throw new InvalidRequest("give either branch or commit, not both");
      }
      if (commit.isBlank()) {
        throw new InvalidRequest("commit must be a commit id");
      }
      return graphs.get(graphId).reader().snapshotAtCommit(CommitId.existing(commit.strip()), actor.get());
    }
    return graphs.get(graphId).reader().snapshot(BranchName.existingOrMain(branch), actor.get());
  }

  @GET
  @Path("{graph_id}/lease")
  @Operation(operationId = "lease", summary = "Ours: this service's writer-lease role and the stored lease.")
  public LeaseOutput lease(@PathParam("graph_id") String graphId) {
    ServedGraph served = graphs.get(graphId);
    // Ours: operational state of the graph, read-gated without a branch.
    served.gate().check(actor.get(), dev.omnigraph.api.policy.PolicyAction.READ, Optional.empty(), Optional.empty());
    return served.leaseStatus();
  }

  @GET
  @Path("{graph_id}/access")
  @Operation(operationId = "access", summary = "Ours: the caller's actor and what it may do on a branch.")
  public AccessOutput access(@PathParam("graph_id") String graphId, @QueryParam("branch") String branch) {
    ServedGraph served = graphs.get(graphId);
    String b = BranchName.existingOrMain(branch).value();
    // Read-gated on the branch, like every view of it; the answer is the caller's own decisions only.
    served.gate().check(actor.get(), dev.omnigraph.api.policy.PolicyAction.READ, Optional.of(b), Optional.empty());
    return AccessOutput.of(graphId, served.gate(), actor.get(), b);
  }

  @GET
  @Path("{graph_id}/schema")
  @Operation(operationId = "schema", summary = "The accepted schema source.")
  public SchemaOutput schema(@PathParam("graph_id") String graphId) {
    return graphs.get(graphId).reader().schema(actor.get());
  }

  @POST
  @Path("{graph_id}/schema/apply")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "applySchema", summary = "Apply a schema migration on main as one graph commit.")
  public SchemaApplyOutput applySchema(@PathParam("graph_id") String graphId, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    Requests.SchemaApplyRequest r = Requests.schemaApplyRequest(StrictBodies.mapper(mapper), body);
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    // Refusals (unsupported change 400, other branches 409, a recovery 503) come from the engine by type;
    // the stored-query check runs once the actor is authorized, before anything is planned.
    return metrics.write(served, "schema_apply", () -> g.schemaApply(r.schemaSource(), r.dataLossAllowed(),
        actor.get(), accepted -> served.storedQueries().checkSchema(graphId, accepted, r.schemaSource())), o -> null);
  }

  @POST
  @Path("{graph_id}/indexes/ensure")
  @Consumes(MediaType.APPLICATION_JSON)
  @Operation(operationId = "ensureIndexes", summary = "Build the declared indexes a branch lacks, as one graph commit.")
  public dev.omnigraph.api.EnsureIndicesOutput ensureIndexes(@PathParam("graph_id") String graphId, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    Requests.EnsureIndicesRequest r = Requests.ensureIndicesRequest(StrictBodies.mapper(mapper), body);
    ServedGraph served = graphs.get(graphId);
    Omnigraph g = served.handle();
    // Refusals (pending recovery 503, drift or a moved branch 409, unknown branch 404) come from the engine by type.
    return metrics.write(served, "ensure_indices", () -> g.ensureIndices(BranchName.existingOrMain(r.branch()),
        actor.get(), dev.omnigraph.api.ProgressListener.NONE), o -> null);
  }

  @POST
  @Path("{graph_id}/export")
  @Consumes(MediaType.APPLICATION_JSON)
  @Produces({NDJSON, MediaType.APPLICATION_JSON})
  @Operation(operationId = "export", summary = "Stream a branch as NDJSON that load accepts back.")
  public Response export(@PathParam("graph_id") String graphId, String body)
      throws com.fasterxml.jackson.core.JsonProcessingException {
    Requests.ExportRequest r = Requests.exportRequest(StrictBodies.mapper(mapper), body);
    // Bounded like the reference's export transport: the 9th concurrent stream waits 250 ms, then 413.
    exports.reserve();
    try {
      // Pinned and validated here, so an unknown branch or type is a 404/400 before any byte is sent.
      NdjsonExport export = graphs.get(graphId).reader().export(branch(r.branch()),
          r.typeNames() == null ? List.of() : r.typeNames(), actor.get());
      StreamingOutput stream = out -> {
        try {
          export.writeTo(out);
        } finally {
          exports.release();
        }
      };
      return Response.ok(stream, NDJSON).build();
    } catch (RuntimeException e) {
      exports.release();
      throw e;
    }
  }

  private static <T> T required(T body) {
    if (body == null) {
      throw new InvalidRequest("a JSON request body is required");
    }
    return body;
  }

  /**
   * The commit a read looks up, from a request body field, which JSON escapes can make any UTF-16
   * string. One holding an unpaired surrogate names no commit (ids are ASCII) and has no UTF-8
   * spelling to look up: refused here (400), as a parameter with one is, instead of failing in the
   * store's filter (a 500 before). Any other id, an empty one included, is the lookup's to answer.
   */
  private static Optional<CommitId> snapshot(String field, String id) {
    if (id == null) {
      return Optional.empty();
    }
    CommitId.requireSpellable(field, id);
    return Optional.of(CommitId.existing(id));
  }

  /** The branch a body field names for a read, as given (an empty one too: the lookup answers it). */
  private static Optional<BranchName> branch(String name) {
    return Optional.ofNullable(name).map(BranchName::existing);
  }

  /** The declaration to run: {@code name}, or the only one the source declares. */
  private static String declaration(String source, String name) {
    if (source == null || source.isBlank()) {
      throw new InvalidRequest("'query' (the .gq source) is required");
    }
    if (name != null && !name.isBlank()) {
      return name;
    }
    List<String> names = QuerySources.declaredNames(source);
    if (names.size() != 1) {
      throw new InvalidRequest("'name' is required: the query declares "
          + (names.isEmpty() ? "nothing" : String.join(", ", names)));
    }
    return names.get(0);
  }
}
