package dev.omnigraph.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidDefinitionException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.omnigraph.api.KeyConflict;
import dev.omnigraph.api.OmnigraphException;
import dev.omnigraph.api.PreconditionFailed;
import dev.omnigraph.api.ReadBudgetExceeded;
import dev.omnigraph.api.ReadSetChanged;
import dev.omnigraph.api.RecoveryRequired;
import dev.omnigraph.api.ResourceLimitExceeded;
import dev.omnigraph.engine.ErrorKind;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The one place a failure becomes an HTTP answer: status and {@code code} from {@link ErrorKind}
 * (the table the CLI's exit codes use too), the structured detail from the typed outcome's fields.
 * By type only, never by message text. An unclassified failure is logged with its trace and
 * answered 500 {@code internal} with a generic message; no body ever carries a stack trace.
 */
class ErrorMapper {

  private static final Logger LOG = Logger.getLogger(ErrorMapper.class);

  @ServerExceptionMapper
  Response engine(Throwable failure) {
    OmnigraphException outcome = outcomeWithin(failure);
    return response(outcome != null ? outcome : failure);
  }

  /** JAX-RS's own outcomes (unknown route, wrong method or media type) in the same body shape. */
  @ServerExceptionMapper
  Response jaxrs(WebApplicationException failure) {
    OmnigraphException outcome = outcomeWithin(failure);
    if (outcome != null) {
      return response(outcome);
    }
    // The JSON reader wraps a syntax error (and a nesting or size limit) in a bare 400: say what it was.
    if (failure.getCause() instanceof JsonProcessingException json) {
      return json(json);
    }
    int status = failure.getResponse().getStatus();
    return build(status, ErrorOutput.plain(failure.getMessage(), codeOf(status)));
  }

  /**
   * A request body that is not the JSON the route takes: 400 {@code bad_request} naming line and
   * column, and the field and its JSON type for a wrong shape ({@link JsonBodyErrors}).
   */
  @ServerExceptionMapper
  Response json(JsonProcessingException failure) {
    OmnigraphException outcome = outcomeWithin(failure);
    if (outcome != null) {
      return response(outcome);
    }
    return build(400, ErrorOutput.plain(JsonBodyErrors.describe(failure), "bad_request"));
  }

  @ServerExceptionMapper
  Response jsonShape(MismatchedInputException failure) {
    return json(failure);
  }

  /**
   * A request type Jackson cannot bind is our bug, not the client's: 500 {@code internal}, logged,
   * in the normal body. Mapped here because Quarkus maps this exact type itself (a bare 500, empty
   * body), ahead of {@link #engine}.
   */
  @ServerExceptionMapper
  Response jsonDefinition(InvalidDefinitionException failure) {
    return response(failure);
  }

  /**
   * A typed outcome that a reader wrapped: Jackson wraps what a body's stream throws while it binds
   * a field (a body counted past its limit, {@link BodyLimits}) in its own mapping exception, and
   * JAX-RS wraps that again; the outcome, not the wrapper, is the answer.
   */
  private static OmnigraphException outcomeWithin(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof OmnigraphException o) {
        return o;
      }
      // Only through the readers' own wrappers: any other wrapper is someone's decision to stand by.
      if (!(t instanceof JsonProcessingException || t instanceof WebApplicationException
          || t instanceof jakarta.ws.rs.ProcessingException || t instanceof java.io.IOException
          || t instanceof java.io.UncheckedIOException)) {
        return null;
      }
    }
    return null;
  }

  static Response response(Throwable failure) {
    ErrorKind kind = ErrorKind.of(failure);
    Response.ResponseBuilder r = Response.status(kind.httpStatus()).type(MediaType.APPLICATION_JSON)
        .entity(body(kind, failure));
    if (failure instanceof dev.omnigraph.api.WriterUnavailable w) {
      w.retryAfterSeconds().ifPresent(s -> r.header("Retry-After", Long.toString(s)));
    } else if (failure instanceof dev.omnigraph.api.TooManyRequests t) {
      r.header("Retry-After", Long.toString(t.retryAfterSeconds()));
    }
    return r.build();
  }

  static ErrorOutput body(ErrorKind kind, Throwable failure) {
    if (!kind.exposesMessage()) {
      LOG.error("unhandled failure answered 500", failure);
      return ErrorOutput.plain("internal error; see the server log", kind.code());
    }
    if (kind == ErrorKind.STORAGE_UNAVAILABLE || kind == ErrorKind.STORAGE_FAILURE) {
      // The client gets the store and the cause in words; the evidence and the cause chain are here.
      LOG.warnf(failure, "%s: %s", kind.label(), failure.getMessage());
    } else if (kind.httpStatus() >= 500) {
      LOG.warnf("%s: %s", kind.label(), failure.getMessage());
    }
    String message = kind.message(failure);
    return switch (kind) {
      case KEY_CONFLICT -> {
        KeyConflict k = (KeyConflict) failure;
        yield new ErrorOutput(message, kind.code(),
            new ErrorOutput.KeyConflictOutput(k.entityKind(), k.typeName(), k.key()), null, null, null, null);
      }
      case READ_SET_CHANGED -> {
        ReadSetChanged r = (ReadSetChanged) failure;
        yield new ErrorOutput(message, kind.code(), null, new ErrorOutput.ReadSetConflictOutput(r.member(),
            r.expected().orElse(null), r.actual().orElse(null)), null, null, null);
      }
      case PRECONDITION_FAILED -> {
        PreconditionFailed p = (PreconditionFailed) failure;
        yield new ErrorOutput(message, kind.code(), null, null,
            new ErrorOutput.PreconditionFailureOutput(p.expected(), p.actual().orElse(null)), null, null);
      }
      case RESOURCE_LIMIT -> {
        ResourceLimitExceeded r = (ResourceLimitExceeded) failure;
        yield new ErrorOutput(message, kind.code(), null, null, null,
            new ErrorOutput.ResourceLimitOutput(r.resource(), r.limit(), r.actual()), null);
      }
      case READ_BUDGET, READ_TIMEOUT -> {
        ReadBudgetExceeded r = (ReadBudgetExceeded) failure;
        yield new ErrorOutput(message, kind.code(), null, null, null,
            new ErrorOutput.ResourceLimitOutput(r.budget().wireName(), r.limit(), r.actual()), null);
      }
      case MERGE_CONFLICTS -> new ErrorOutput(message, kind.code(), null, null, null, null, null,
          ((dev.omnigraph.api.MergeConflicts) failure).conflicts());
      case RECOVERY_REQUIRED -> new ErrorOutput(message, kind.code(), null, null, null, null,
          new ErrorOutput.RecoveryRequiredOutput(((RecoveryRequired) failure).operationId()));
      case CHANGE_DIFF_REFUSED -> {
        dev.omnigraph.api.ChangeDiffRefused r = (dev.omnigraph.api.ChangeDiffRefused) failure;
        yield new ErrorOutput(message, kind.code(), null, null, null, null, null, null,
            new ErrorOutput.ChangeDiffRefusalOutput(r.reason().wire(), r.commitId(), r.typeName().orElse(null)), null);
      }
      case CHANGE_FEED_GAP -> new ErrorOutput(message, kind.code(), null, null, null, null, null, null, null,
          new ErrorOutput.ChangeFeedGapOutput(null, ((dev.omnigraph.api.ChangeFeedGap) failure).firstUnreadableCommitId()));
      case EXTERNAL_BLOB_SOURCE -> {
        dev.omnigraph.api.ExternalBlobUnreadable x = (dev.omnigraph.api.ExternalBlobUnreadable) failure;
        yield new ErrorOutput(message, kind.code(), null, null, null, null, null, null, null, null,
            new ErrorOutput.ExternalBlobSourceOutput(x.uri(), x.reason()));
      }
      default -> ErrorOutput.plain(message, kind.code());
    };
  }

  /** The reference {@code ErrorCode} of a status JAX-RS produced. */
  static String codeOf(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 409 -> "conflict";
      case 429 -> "too_many_requests";
      default -> status < 500 ? "bad_request" : "internal";
    };
  }

  static Response build(int status, ErrorOutput body) {
    return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
  }
}
