package dev.omnigraph.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.omnigraph.util.StrictJson;
import java.lang.reflect.Type;
import java.util.function.BiFunction;

/**
 * How every request body is read ({@code @CustomDeserialization} on each JSON route of
 * {@link GraphResource}, and {@link Requests} for the routes that take the body as text): the
 * service's mapper ({@link StrictJsonBodies}) over a {@link StrictJson} factory, so a key given twice
 * and a reader limit are typed failures {@link JsonBodyErrors} describes in our words. A string is
 * bounded by the body limit ({@link BodyLimits}) alone.
 */
public final class StrictBodies implements BiFunction<ObjectMapper, Type, ObjectReader> {

  private static volatile ObjectMapper strict;
  private static volatile ObjectMapper strictOf;

  @Override
  public ObjectReader apply(ObjectMapper mapper, Type type) {
    return mapper(mapper).readerFor(mapper.constructType(type));
  }

  /** {@code mapper} over the strict factory; made once per service mapper. */
  static ObjectMapper mapper(ObjectMapper mapper) {
    if (strictOf != mapper) {
      synchronized (StrictBodies.class) {
        if (strictOf != mapper) {
          strict = mapper.copyWith(StrictJson.factory(mapper.getFactory(),
              StrictJson.constraints((int) BodyLimits.NDJSON_LIMIT)));
          strictOf = mapper;
        }
      }
    }
    return strict;
  }
}
