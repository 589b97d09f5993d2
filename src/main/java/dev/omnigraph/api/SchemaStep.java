package dev.omnigraph.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a schema migration plan, in the reference {@code SchemaMigrationStep} wire shape:
 * an object tagged by {@code kind} ({@code add_type}, {@code rename_property}, …) with snake_case
 * fields. A plan holding any {@link UnsupportedChange} is unsupported as a whole.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = SchemaStep.AddType.class, name = "add_type"),
    @JsonSubTypes.Type(value = SchemaStep.RenameType.class, name = "rename_type"),
    @JsonSubTypes.Type(value = SchemaStep.AddProperty.class, name = "add_property"),
    @JsonSubTypes.Type(value = SchemaStep.RenameProperty.class, name = "rename_property"),
    @JsonSubTypes.Type(value = SchemaStep.AddConstraint.class, name = "add_constraint"),
    @JsonSubTypes.Type(value = SchemaStep.ExtendEnum.class, name = "extend_enum"),
    @JsonSubTypes.Type(value = SchemaStep.UpdateTypeMetadata.class, name = "update_type_metadata"),
    @JsonSubTypes.Type(value = SchemaStep.UpdatePropertyMetadata.class, name = "update_property_metadata"),
    @JsonSubTypes.Type(value = SchemaStep.DropType.class, name = "drop_type"),
    @JsonSubTypes.Type(value = SchemaStep.DropProperty.class, name = "drop_property"),
    @JsonSubTypes.Type(value = SchemaStep.UnsupportedChange.class, name = "unsupported_change")})
public sealed interface SchemaStep {

  /** The step as one line of {@code schema plan}'s human output (the reference CLI's wording). */
  String describe();

  /** Which kind of declaration a step concerns. */
  enum TypeKind {
    INTERFACE, NODE, EDGE;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * How a drop treats data: {@code soft} tombstones the catalog entry and keeps the data reachable
   * by time travel until cleanup; {@code hard} removes it ({@code --allow-data-loss}).
   */
  enum DropMode {
    SOFT, HARD;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Reference {@code PropType}: {@code scalar} is the scalar's name ({@code "I32"}), or
   * {@code {"Vector": dim}}; an enum is a {@code String} scalar with its {@code enum_values}.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record PropType(
      @JsonProperty("scalar") Object scalar,
      @JsonProperty("nullable") boolean nullable,
      @JsonProperty("list") boolean list,
      @JsonProperty("enum_values") List<String> enumValues) {

    /** As the type is spelled in a {@code .pg} file ({@code [String]?}, {@code enum(a, b)}). */
    public String display() {
      String base = enumValues != null ? "enum(" + String.join(", ", enumValues) + ")"
          : scalar instanceof Map<?, ?> m ? "Vector(" + m.values().iterator().next() + ")" : String.valueOf(scalar);
      if (list) {
        base = "[" + base + "]";
      }
      return nullable ? base + "?" : base;
    }
  }

  /**
   * Reference schema {@code Annotation}: name, the first positional value and keyword arguments.
   */
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  record Annotation(
      @JsonProperty("name") String name,
      @JsonProperty("value") String value,
      @JsonProperty("kwargs") Map<String, String> kwargs) {

    String display() {
      return "@" + name + (value == null ? "" : "(\"" + value + "\")");
    }
  }

  private static String label(TypeKind kind) {
    return kind.wire();
  }

  private static String render(List<Annotation> annotations) {
    return annotations.isEmpty() ? "none"
        : String.join(" ", annotations.stream().map(Annotation::display).toList());
  }

  record AddType(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("name") String name)
      implements SchemaStep {
    @Override
    public String describe() {
      return "add " + label(typeKind) + " type '" + name + "'";
    }
  }

  record RenameType(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("from") String from,
      @JsonProperty("to") String to) implements SchemaStep {
    @Override
    public String describe() {
      return "rename " + label(typeKind) + " type '" + from + "' -> '" + to + "'";
    }
  }

  record AddProperty(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("type_name") String typeName,
      @JsonProperty("property_name") String propertyName, @JsonProperty("property_type") PropType propertyType)
      implements SchemaStep {
    @Override
    public String describe() {
      return "add property '" + typeName + "." + propertyName + "' (" + propertyType.display() + ") on "
          + label(typeKind) + " '" + typeName + "'";
    }
  }

  record RenameProperty(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("type_name") String typeName,
      @JsonProperty("from") String from, @JsonProperty("to") String to) implements SchemaStep {
    @Override
    public String describe() {
      return "rename property '" + typeName + "." + from + "' -> '" + typeName + "." + to + "' on "
          + label(typeKind) + " '" + typeName + "'";
    }
  }

  /**
   * @param constraint the reference {@code Constraint} in its externally tagged form:
   *     {@code {"Index": ["a"]}}, {@code {"Unique": ["a", "b"]}},
   *     {@code {"Range": {"property": "p", "min": {"Integer": 0}, "max": null}}},
   *     {@code {"Check": {"property": "p", "pattern": "…"}}}
   * @param display the constraint as a {@code .pg} annotation, for the human output
   */
  record AddConstraint(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("type_name") String typeName,
      @JsonProperty("constraint") JsonNode constraint,
      @com.fasterxml.jackson.annotation.JsonIgnore String display) implements SchemaStep {

    public AddConstraint {
      // Read back from JSON (a remote apply's answer) there is no display: spell it from the constraint.
      if (display == null && constraint != null) {
        display = annotation(constraint);
      }
    }

    /** The {@code .pg} annotation of a reference {@code Constraint}; its JSON for a tag this does not know. */
    static String annotation(JsonNode constraint) {
      if (constraint.has("Index") || constraint.has("Unique")) {
        String tag = constraint.has("Index") ? "Index" : "Unique";
        List<String> columns = new java.util.ArrayList<>();
        constraint.get(tag).forEach(c -> columns.add(c.asText()));
        return "@" + tag.toLowerCase(Locale.ROOT) + "(" + String.join(", ", columns) + ")";
      }
      if (constraint.has("Range")) {
        JsonNode r = constraint.get("Range");
        return "@range(" + r.path("property").asText() + ", " + bound(r.get("min")) + ".." + bound(r.get("max")) + ")";
      }
      if (constraint.has("Check")) {
        JsonNode c = constraint.get("Check");
        return "@check(" + c.path("property").asText() + ", \"" + c.path("pattern").asText() + "\")";
      }
      return constraint.toString();
    }

    /** A reference {@code ConstraintBound} ({@code {"Integer": 0}}, {@code {"Float": 1.5}}) as written in .pg. */
    private static String bound(JsonNode bound) {
      if (bound == null || bound.isNull()) {
        return "";
      }
      JsonNode value = bound.has("Integer") ? bound.get("Integer") : bound.path("Float");
      return value.isNumber() ? value.decimalValue().stripTrailingZeros().toPlainString() : value.asText();
    }

    @Override
    public String describe() {
      return "add constraint " + display + " on " + label(typeKind) + " '" + typeName + "'";
    }
  }

  /** @param addedValues the variants the desired schema adds, in its order */
  record ExtendEnum(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("type_name") String typeName,
      @JsonProperty("property_name") String propertyName, @JsonProperty("added_values") List<String> addedValues)
      implements SchemaStep {
    @Override
    public String describe() {
      return "extend enum '" + typeName + "." + propertyName + "' (+" + String.join(", +", addedValues) + ") on "
          + label(typeKind) + " '" + typeName + "'";
    }
  }

  /** @param annotations the type's annotations after the change (every uninterpreted one) */
  record UpdateTypeMetadata(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("name") String name,
      @JsonProperty("annotations") List<Annotation> annotations) implements SchemaStep {
    @Override
    public String describe() {
      return "update metadata on " + label(typeKind) + " '" + name + "' (" + render(annotations) + ")";
    }
  }

  /** @param annotations the property's annotations after the change */
  record UpdatePropertyMetadata(@JsonProperty("type_kind") TypeKind typeKind,
      @JsonProperty("type_name") String typeName, @JsonProperty("property_name") String propertyName,
      @JsonProperty("annotations") List<Annotation> annotations) implements SchemaStep {
    @Override
    public String describe() {
      return "update metadata on property '" + typeName + "." + propertyName + "' of " + label(typeKind) + " '"
          + typeName + "' (" + render(annotations) + ")";
    }
  }

  record DropType(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("name") String name,
      @JsonProperty("mode") DropMode mode) implements SchemaStep {
    @Override
    public String describe() {
      return "drop " + label(typeKind) + " type '" + name + "' (" + mode.wire() + " mode)";
    }
  }

  record DropProperty(@JsonProperty("type_kind") TypeKind typeKind, @JsonProperty("type_name") String typeName,
      @JsonProperty("property_name") String propertyName, @JsonProperty("mode") DropMode mode)
      implements SchemaStep {
    @Override
    public String describe() {
      return "drop property '" + typeName + "." + propertyName + "' of " + label(typeKind) + " '" + typeName
          + "' (" + mode.wire() + " mode)";
    }
  }

  /**
   * A change schema apply cannot make; the whole plan is then unsupported and applies nothing.
   *
   * @param entity what the change concerns: {@code node:Person}, {@code node:Person.age},
   *     {@code interface:Named}, or {@code schema}
   */
  record UnsupportedChange(@JsonProperty("entity") String entity, @JsonProperty("reason") String reason)
      implements SchemaStep {
    public UnsupportedChange {
      Objects.requireNonNull(entity, "entity");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String describe() {
      return "unsupported change on " + entity + ": " + reason;
    }
  }
}
