package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Reference {@code ChangeOpOutput}; the declaration order is the frozen rank within one entity. */
public enum ChangeOp {
  INSERT, UPDATE, DELETE;

  @JsonValue
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * @throws InvalidRequest for anything but {@code insert}, {@code update}, {@code delete}
   */
  @JsonCreator
  public static ChangeOp parse(String wire) {
    for (ChangeOp op : values()) {
      if (op.wire().equals(wire)) {
        return op;
      }
    }
    throw new InvalidRequest("'op' must be insert, update or delete, got '" + wire + "'");
  }
}
