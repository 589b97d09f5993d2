package dev.omnigraph.server;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * Request bodies are read strictly: a key given twice, or anything but whitespace after the body's
 * object, is a 400 ({@link JsonBodyErrors}) instead of a body that means two things. Left lenient,
 * a repeated key took the last value while the request record was still collecting its fields and
 * threw InvalidDefinitionException (a 500) once it had them all, and {@code {…} {…}} ran the first
 * object and dropped the rest, the same silent loss the NDJSON reader refuses per line.
 */
@Singleton
class StrictJsonBodies implements ObjectMapperCustomizer {

  @Override
  public void customize(ObjectMapper mapper) {
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    // A number or boolean where a string belongs ({"query":5}, {"branch":7}) is the caller's mistake,
    // refused as a 400 naming the field (docs/http-api.md), not read as the string "5";
    // likewise a string where a boolean belongs ({"delete_branch":"yes"}).
    mapper.coercionConfigFor(com.fasterxml.jackson.databind.type.LogicalType.Textual)
        .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.Integer,
            com.fasterxml.jackson.databind.cfg.CoercionAction.Fail)
        .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.Float,
            com.fasterxml.jackson.databind.cfg.CoercionAction.Fail)
        .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.Boolean,
            com.fasterxml.jackson.databind.cfg.CoercionAction.Fail);
    mapper.coercionConfigFor(com.fasterxml.jackson.databind.type.LogicalType.Boolean)
        .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.String,
            com.fasterxml.jackson.databind.cfg.CoercionAction.Fail)
        .setCoercion(com.fasterxml.jackson.databind.cfg.CoercionInputShape.Integer,
            com.fasterxml.jackson.databind.cfg.CoercionAction.Fail);
    // The body limit bounds a string (BodyLimits counts every body): Jackson's own 20M-character
    // default refused the `data` of a /load envelope under its 32 MiB limit with a 400.
    mapper.getFactory().setStreamReadConstraints(mapper.getFactory().streamReadConstraints().rebuild()
        .maxStringLength((int) BodyLimits.NDJSON_LIMIT).build());
  }
}
