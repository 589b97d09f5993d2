package dev.omnigraph.cli.archfixture;

import dev.omnigraph.api.NotFound;
import dev.omnigraph.table.ManifestDataset;
import dev.omnigraph.util.Ulid;

/** Never run: a CLI class that reaches the table layer past the engine (and api and util, which it may use). */
public final class RogueCliImport {
  private RogueCliImport() {}

  static Object breakTheBoundary(ManifestDataset tables) {
    if (tables == null) {
      throw new NotFound("graph", Ulid.class.getSimpleName(), "absent");
    }
    return tables.toString();
  }
}
