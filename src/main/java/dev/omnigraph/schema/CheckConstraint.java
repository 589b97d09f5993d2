package dev.omnigraph.schema;

import java.util.Objects;

/**
 * {@code @check(p, "regex")}: every non-null value of the String property {@code p} must contain a
 * match of the pattern ({@link java.util.regex.Matcher#find()}, as the reference's {@code is_match});
 * anchor it with {@code ^...$} to constrain the whole value. The pattern compiles at parse time.
 *
 * @param property the constrained property
 * @param pattern the regular expression, as written (escapes decoded)
 */
public record CheckConstraint(String property, String pattern) {

  public CheckConstraint {
    Objects.requireNonNull(property, "property");
    Objects.requireNonNull(pattern, "pattern");
  }
}
