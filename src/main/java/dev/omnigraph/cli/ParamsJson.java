package dev.omnigraph.cli;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omnigraph.api.InvalidRequest;
import dev.omnigraph.util.StrictJson;

/**
 * {@code --params}: read as strictly as a JSON body's {@code params} (StrictJson), so the CLI does not
 * take {@code {"name":"L9","name":"L10"}} as L10 where the service refuses it, nor drop what follows
 * the object. A refusal is a usage-class {@link InvalidRequest} in our words, with the column.
 */
final class ParamsJson {

  private static final ObjectMapper JSON = new ObjectMapper(StrictJson.factory())
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private ParamsJson() {}

  static JsonNode parse(String params) {
    try {
      return JSON.readTree(params);
    } catch (JsonProcessingException e) {
      JsonProcessingException cause = e.getCause() instanceof JsonProcessingException c ? c : e;
      JsonLocation at = cause.getLocation() != null ? cause.getLocation() : e.getLocation();
      // A second value after the object is a mapping failure of the whole, not a syntax error.
      String reason = cause instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException
          ? "unexpected content after the JSON value (--params is exactly one object)"
          : StrictJson.reason(cause);
      throw new InvalidRequest("--params: " + reason
          + (at != null && at.getColumnNr() > 0 ? " at column " + at.getColumnNr() : ""));
    }
  }
}
