package dev.omnigraph.write;

import dev.omnigraph.api.NdjsonChunk;
import dev.omnigraph.api.WriteResult;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.schema.SchemaIr;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.Optional;

/** The engine's entry to the write path: each call is one attempt template run, one graph commit. */
public final class WritePath {

  private final WriteAttempt attempt;
  /** The accepted schema now: each call plans with one reading of it. */
  private final java.util.function.Supplier<SchemaIr> schemas;

  /** The graph's external-Blob settings; every URI refused until {@link #allowExternalBlobs} installs a list. */
  private volatile ExternalBlobs externals;

  public WritePath(WriteAttempt attempt, java.util.function.Supplier<SchemaIr> schemas, ExternalBlobs externals) {
    this.attempt = attempt;
    this.schemas = schemas;
    this.externals = externals;
  }

  /** Installs the graph's external-Blob allow list for every later write (docs/schema-language.md, "Blob"). */
  public void allowExternalBlobs(ExternalBlobs externals) {
    this.externals = java.util.Objects.requireNonNull(externals, "externals");
  }

  /**
   * Runs mutation {@code name} from the {@code .gq} source on {@code branch} as one commit. Parse,
   * typecheck (including D₂) and parameter binding all happen before any I/O.
   *
   * @param ifCommit a conditional write's expected graph head ({@code PreconditionFailed} if not)
   */
  public WriteResult mutate(dev.omnigraph.api.BranchName branch, String source, String name, com.fasterxml.jackson.databind.JsonNode params,
      Optional<String> actor, Optional<dev.omnigraph.api.CommitId> ifCommit) {
    return mutate(branch, source, name, params, actor, ifCommit, (checked, catalog) -> { });
  }

  /**
   * As {@link #mutate(dev.omnigraph.api.BranchName, String, String, com.fasterxml.jackson.databind.JsonNode, Optional,
   * Optional)}, handing the checked mutation to {@code admit} before anything is prepared (the
   * engine's per-type authorization); what it throws is the answer.
   */
  public WriteResult mutate(dev.omnigraph.api.BranchName branch, String source, String name, com.fasterxml.jackson.databind.JsonNode params,
      Optional<String> actor, Optional<dev.omnigraph.api.CommitId> ifCommit,
      java.util.function.BiConsumer<dev.omnigraph.query.CheckedQuery, dev.omnigraph.schema.Catalog> admit) {
    SchemaIr schema = schemas.get();
    dev.omnigraph.query.QueryFile file = dev.omnigraph.query.QueryParser.parse(source);
    dev.omnigraph.query.CheckedQuery checked =
        dev.omnigraph.query.QueryChecker.check(file.declaration(name), schema.catalog());
    if (!(checked instanceof dev.omnigraph.query.CheckedMutation mutation)) {
      throw new dev.omnigraph.api.InvalidRequest("'" + name + "' is a read query; run it with query, not mutate");
    }
    admit.accept(mutation, schema.catalog());
    dev.omnigraph.query.BoundParams bound = dev.omnigraph.query.Params.bind(checked, params);
    return attempt.run(branch.value(), new MutationWriter(mutation, bound, schema.catalog(), externals), actor, ifCommit, schema);
  }

  /**
   * Loads NDJSON into {@code branch} as one commit. The whole input is parsed and validated before
   * anything is staged; every input error names its line. An overwrite streams its rows through a
   * local spill ({@link StreamedOverwrite}) instead of holding them.
   */
  public WriteResult load(dev.omnigraph.api.BranchName branch, Reader ndjson, LoadMode mode, Optional<String> actor) {
    return load(branch, ndjson, mode, actor, (type, line) -> { });
  }

  /**
   * As {@link #load(dev.omnigraph.api.BranchName, Reader, LoadMode, Optional)}, handing each row's type name (the schema's
   * spelling) and line to {@code admit} as it is read, before anything is staged (the engine's
   * per-type authorization); what it throws is the answer.
   */
  public WriteResult load(dev.omnigraph.api.BranchName branch, Reader ndjson, LoadMode mode, Optional<String> actor,
      java.util.function.ObjLongConsumer<String> admit) {
    return load(branch.value(), ndjson, 1, mode, actor, admit);
  }

  /** One chunk of a split load ({@link NdjsonChunks}) as one commit, exactly as {@link #load} commits an input. */
  public WriteResult load(dev.omnigraph.api.BranchName branch, NdjsonChunk chunk, LoadMode mode, Optional<String> actor,
      java.util.function.ObjLongConsumer<String> admit) {
    return load(branch.value(), NdjsonChunks.reader(chunk), chunk.firstLine(), mode, actor, admit);
  }

  private WriteResult load(String branch, Reader ndjson, long firstLine, LoadMode mode, Optional<String> actor,
      java.util.function.ObjLongConsumer<String> admit) {
    SchemaIr schema = schemas.get();
    if (mode == LoadMode.OVERWRITE) {
      // Streams: rows are spilled as parsed and staged from the spill, so an overwrite of any size
      // runs in bounded memory; append and merge are bounded by the keyed-plan limit.
      try (StreamedOverwrite overwrite = new StreamedOverwrite(schema.catalog(), externals.policy())) {
        NdjsonReader.read(ndjson, firstLine, schema.catalog(), mode, admit, overwrite);
        return attempt.run(branch, overwrite, actor, Optional.empty(), schema);
      } catch (IOException e) {
        throw new UncheckedIOException("could not read the load input", e);
      }
    }
    LoadBatch batch;
    try {
      batch = NdjsonReader.read(ndjson, firstLine, schema.catalog(), mode, admit);
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the load input", e);
    }
    return attempt.run(branch, new LoadWriter(batch, mode, schema.catalog(), externals), actor, Optional.empty(), schema);
  }

  /**
   * Replaces ({@code value} present) or clears one Blob cell on {@code branch} as one commit
   * (docs/write-path.md, "Blob cell writes").
   *
   * @param ifMatch the cell's expected entity tag ({@code BlobTagMismatch} if not)
   * @param ifCommit a conditional write's expected graph head ({@code PreconditionFailed} if not)
   */
  public WriteResult writeBlob(dev.omnigraph.api.BranchName branch, BlobTarget target, Optional<dev.omnigraph.schema.BlobValue> value,
      Optional<String> ifMatch, Optional<String> actor, Optional<dev.omnigraph.api.CommitId> ifCommit) {
    return attempt.run(branch.value(), new BlobWriter(target, value, ifMatch), actor, ifCommit, schemas.get());
  }
}
