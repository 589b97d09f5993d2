package dev.omnigraph.schema;

/**
 * A value cannot be part of a node's {@code @key} tuple, so no id can be derived from it. Carries
 * the type, the property and the {@link Reason} as fields; writers report it before any effect.
 */
public final class InvalidKeyException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** Why the value was refused. */
  public enum Reason {
    /** The type has no {@code @key}; its ids are generated. */
    NOT_KEYED,
    /** A key property is null or absent. */
    NULL,
    /** NaN or an infinity: no canonical spelling, and NaN never equals itself. */
    NON_FINITE,
    /** The Java value's type does not fit the property's declared type. */
    TYPE_MISMATCH,
    /** An integer outside the declared width (e.g. a negative U32), or a date out of range. */
    OUT_OF_RANGE,
    /** An enum value that is not one of the declared variants. */
    NOT_A_VARIANT,
    /** A string with an unpaired surrogate, which has no UTF-8 encoding. */
    MALFORMED_STRING,
    /** The tuple's id is over {@link ValueLimits#MAX_ID_BYTES}. */
    TOO_LONG
  }

  private final String typeName;
  private final String property;
  private final Reason reason;

  public InvalidKeyException(String typeName, String property, Reason reason, String detail) {
    super("cannot derive an id for node " + typeName
        + (property == null ? "" : " from key property '" + property + "'") + ": " + detail);
    this.typeName = typeName;
    this.property = property;
    this.reason = reason;
  }

  /** The node type. */
  public String typeName() {
    return typeName;
  }

  /** The key property at fault; null for {@link Reason#NOT_KEYED}. */
  public String property() {
    return property;
  }

  /** The kind of failure. */
  public Reason reason() {
    return reason;
  }
}
