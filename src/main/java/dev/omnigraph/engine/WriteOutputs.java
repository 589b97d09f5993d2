package dev.omnigraph.engine;

import dev.omnigraph.api.ChangeOutput;
import dev.omnigraph.api.CommitOutput;
import dev.omnigraph.api.GraphBatchLoadOutput;
import dev.omnigraph.api.LoadMode;
import dev.omnigraph.api.WriteResult;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reference result shapes of a landed write, built the same way for the HTTP service and the
 * CLI's {@code --json}. Counts come from {@link WriteResult#affectedRows()}: rows each table had
 * written or deleted by the commit, summed over node tables and over edge tables.
 */
public final class WriteOutputs {

  private WriteOutputs() {}

  /** Reference {@code ChangeOutput} of a mutation. */
  public static ChangeOutput change(Omnigraph graph, String branch, String queryName, Optional<String> actor,
      WriteResult result) {
    return new ChangeOutput(branch, queryName, sum(result, "node:"), sum(result, "edge:"), actor.orElse(null),
        commitOf(graph, result));
  }

  /** Reference {@code GraphBatchLoadOutput} of a load ({@code baseBranch}: the {@code from} requested). */
  public static GraphBatchLoadOutput load(Omnigraph graph, String branch, boolean branchCreated, LoadMode mode,
      Optional<String> baseBranch, Optional<String> actor, WriteResult result) {
    return new GraphBatchLoadOutput(branch, branchCreated, mode.wire(), declarations(result, "node:"),
        declarations(result, "edge:"), sum(result, "node:") + sum(result, "edge:"), actor.orElse(null),
        baseBranch.orElse(null), commitOf(graph, result));
  }

  private static long sum(WriteResult result, String kindPrefix) {
    return result.affectedRows().entrySet().stream().filter(e -> e.getKey().startsWith(kindPrefix))
        .mapToLong(Map.Entry::getValue).sum();
  }

  private static List<GraphBatchLoadOutput.Declaration> declarations(WriteResult result, String kindPrefix) {
    return result.affectedRows().entrySet().stream().filter(e -> e.getKey().startsWith(kindPrefix))
        .map(e -> new GraphBatchLoadOutput.Declaration(e.getKey().substring(kindPrefix.length()), e.getValue()))
        .sorted(Comparator.comparing(GraphBatchLoadOutput.Declaration::name))
        .toList();
  }

  /** The commit the write published; null for a write that changed nothing. */
  private static CommitOutput commitOf(Omnigraph graph, WriteResult result) {
    // The write returns the commit it published: reading it back would scan every branch.
    return result.commit().map(GraphReads::toOutput).orElse(null);
  }
}
