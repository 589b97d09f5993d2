package dev.omnigraph.write;

import dev.omnigraph.api.ExternalBlobPolicy;
import dev.omnigraph.table.ExternalSources;
import java.util.function.Supplier;

/**
 * A graph's external-Blob settings as its writers see them: the allow list, and how to open the
 * sources it admits (one {@link ExternalSources} per operation, closed with it;
 * docs/schema-language.md, "Blob").
 *
 * @param policy which URIs the graph accepts
 * @param sources opens the reader of admitted sources (the graph's S3 settings)
 */
public record ExternalBlobs(ExternalBlobPolicy policy, Supplier<ExternalSources> sources) {}
