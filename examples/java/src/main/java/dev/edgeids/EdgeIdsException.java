package dev.edgeids;

/**
 * A refusal or failure of edge-ids, with the service's error code: what every route
 * answers as {@code {"error":{"code","message"}}} ({@code lease_lost},
 * {@code no_free_worker_id}, {@code unknown_sequence}, ...), with its HTTP status and
 * {@code Retry-After}, or the client's own: {@code network_error}, {@code timeout},
 * {@code aborted} (closed), {@code lease_expired}, {@code overloaded} (a wait that
 * would outlast the call's bound), {@code layout_mismatch}, {@code internal} (an
 * answer that is not the service's).
 *
 * <pre>{@code
 * try { ids.nextId(); }
 * catch (EdgeIdsException e) {
 *     if (e.retryAfterSeconds() > 0) retryLater(e.retryAfterSeconds());
 *     log.warn("edge-ids {} ({}): {}", e.code(), e.status(), e.getMessage());
 * }
 * }</pre>
 */
public final class EdgeIdsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;
    private final int status;
    private final double retryAfterSeconds;

    /** A refusal: {@code status} 0 when no HTTP answer carried it, {@code retryAfterSeconds} 0 when none. */
    public EdgeIdsException(String code, String message, int status, double retryAfterSeconds) {
        this(code, message, status, retryAfterSeconds, null);
    }

    public EdgeIdsException(String code, String message, int status, double retryAfterSeconds, Throwable cause) {
        super(code + ": " + message, cause);
        this.code = code;
        this.status = status;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The error code: the service's ({@code lease_lost}, ...) or the client's ({@code network_error}, ...). */
    public String code() {
        return code;
    }

    /** The HTTP status that carried it; 0 for the client's own. */
    public int status() {
        return status;
    }

    /** Seconds to wait before trying again ({@code Retry-After}, or the client's estimate); 0 when none. */
    public double retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
