package dev.omnigraph.schema;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An annotation the language does not interpret ({@code @description("...")}, {@code @embed(text,
 * model="m")}): recorded so tools and later features can read it, and part of the schema identity.
 *
 * @param name the name after {@code @}
 * @param args positional arguments: string literals decoded, other arguments as written
 * @param kwargs {@code key=value} arguments, sorted by key
 */
public record Annotation(String name, List<String> args, Map<String, String> kwargs) {

  public Annotation {
    Objects.requireNonNull(name, "name");
    args = List.copyOf(args);
    kwargs = Collections.unmodifiableMap(new TreeMap<>(kwargs));
  }
}
