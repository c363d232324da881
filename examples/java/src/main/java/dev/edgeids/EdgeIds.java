package dev.edgeids;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An edge-ids deployment over HTTP: the routes the leased generator, the sequence
 * buffer and the adapters need. Immutable and thread-safe, like the
 * {@link HttpClient} it wraps: make one per deployment and share it. JDK 17 standard
 * library only. The lease ID travels in request bodies only, never in a URL.
 *
 * <pre>{@code
 * EdgeIds ids = EdgeIds.builder("https://ids.example.com")
 *         .token(System.getenv("API_TOKEN"))
 *         .requestTimeout(Duration.ofSeconds(5))
 *         .build();
 * SnowflakeLayout layout = ids.layout();
 * NumberRange range = ids.reserveInSequence("orders", 1000);   // 1043..2042, yours alone
 * }</pre>
 *
 * Every failure is an {@link EdgeIdsException}: the service's code, status and
 * {@code Retry-After}, or {@code network_error} / {@code timeout} / {@code aborted}.
 */
public final class EdgeIds {
    /** The client's version: the edge-ids release it comes with. */
    public static final String VERSION = "0.3.0";

    private final String baseUrl;
    private final String token;
    private final Duration requestTimeout;
    private final HttpClient http;

    private EdgeIds(Builder builder) {
        this.baseUrl = builder.baseUrl;
        this.token = builder.token;
        this.requestTimeout = builder.requestTimeout;
        this.http = builder.http != null ? builder.http
                : HttpClient.newBuilder().connectTimeout(builder.connectTimeout).build();
    }

    /** A builder for the deployment at {@code baseUrl} ({@code https://ids.example.com}). */
    public static Builder builder(String baseUrl) {
        return new Builder(baseUrl);
    }

    /** Settings of an {@link EdgeIds}; every one has a default but the URL. */
    public static final class Builder {
        private final String baseUrl;
        private String token;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private HttpClient http;

        private Builder(String baseUrl) {
            URI uri = URI.create(baseUrl);
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new IllegalArgumentException("baseUrl must be an http(s) URL; got " + baseUrl);
            }
            this.baseUrl = baseUrl.replaceAll("/+$", "");
        }

        /** The deployment's API_TOKEN, sent as {@code Authorization: Bearer}; null: none. */
        public Builder token(String token) {
            this.token = token == null || token.isEmpty() ? null : token;
            return this;
        }

        /** How long a connection may take (default 5 s); ignored with {@link #httpClient}. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive("connectTimeout", timeout);
            return this;
        }

        /** How long a request may take, its answer read (default 10 s); renewals bound theirs tighter. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = positive("requestTimeout", timeout);
            return this;
        }

        /** An HttpClient of your own (proxy, TLS, executor). */
        public Builder httpClient(HttpClient http) {
            this.http = http;
            return this;
        }

        public EdgeIds build() {
            return new EdgeIds(this);
        }

        private static Duration positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException(name + " must be a positive duration; got " + value);
            }
            return value;
        }
    }

    public String baseUrl() {
        return baseUrl;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** {@code GET /layout}: the layout the deployment issues Snowflakes under. */
    public SnowflakeLayout layout() {
        return SnowflakeLayout.of(call("GET", "/layout", null, requestTimeout));
    }

    /**
     * {@code POST /leases}: a worker-ID lease for a holder labelled {@code holder}
     * (null: none), of {@code workerId} (null: any free one).
     */
    public LeaseGrant acquireLease(String holder, Integer workerId) {
        StringBuilder body = new StringBuilder("{");
        if (holder != null) body.append("\"holder\":").append(Json.quote(holder));
        if (workerId != null) body.append(holder != null ? "," : "").append("\"workerId\":").append(workerId);
        return LeaseGrant.checked(call("POST", "/leases", body.append('}').toString(), requestTimeout));
    }

    /** {@code POST /leases/:workerId/renew}, given up (cancelled) after {@code timeout}. */
    public LeaseGrant renewLease(int workerId, String leaseId, Duration timeout) {
        String body = "{\"leaseId\":" + Json.quote(leaseId) + "}";
        return LeaseGrant.checked(call("POST", "/leases/" + workerId + "/renew", body, timeout));
    }

    /** {@code POST /leases/:workerId/release}: the worker ID is free at once. */
    public void releaseLease(int workerId, String leaseId) {
        call("POST", "/leases/" + workerId + "/release", "{\"leaseId\":" + Json.quote(leaseId) + "}", requestTimeout);
    }

    /** {@code POST /sequences/:name/next?count=N}: the next {@code count} numbers of sequence {@code name}. */
    public long[] nextInSequence(String name, int count) {
        Object answer = call("POST", "/sequences/" + segment(name) + "/next?count=" + count, null, requestTimeout);
        Object numbers = answer instanceof Map ? ((Map<?, ?>) answer).get("numbers") : null;
        if (!(numbers instanceof List) || ((List<?>) numbers).size() != count) {
            throw new EdgeIdsException("internal", "a next answer holds no " + count + " numbers", 0, 0);
        }
        long[] out = new long[count];
        for (int i = 0; i < count; i++) out[i] = decimal(((List<?>) numbers).get(i), "numbers");
        return out;
    }

    /** {@code POST /sequences/:name/reserve?count=N}: {@code count} numbers that nobody else will get. */
    public NumberRange reserveInSequence(String name, int count) {
        return reserve(name, count, requestTimeout);
    }

    NumberRange reserve(String name, int count, Duration timeout) {
        Object answer = call("POST", "/sequences/" + segment(name) + "/reserve?count=" + count, null, timeout);
        if (!(answer instanceof Map)) throw new EdgeIdsException("internal", "a reserve answer is not an object", 0, 0);
        Map<?, ?> map = (Map<?, ?>) answer;
        long first = decimal(map.get("first"), "first");
        long last = decimal(map.get("last"), "last");
        if (first < 0 || last < first) {
            throw new EdgeIdsException("internal", "a reserve answered " + first + ".." + last, 0, 0);
        }
        Object period = map.get("period");
        return new NumberRange(first, last, period instanceof String ? (String) period : null);
    }

    private static long decimal(Object value, String field) {
        try {
            return Long.parseLong(String.valueOf(value));
        } catch (NumberFormatException e) {
            throw new EdgeIdsException("internal", "an answer's " + field + " is " + value + ", not a decimal", 0, 0);
        }
    }

    /** A name as one path segment (a name the service does not take comes back invalid_sequence_name). */
    private static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** One request, its answer's JSON (null for an empty one), bounded by {@code timeout} from start to body. */
    private Object call(String method, String path, String body, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("Accept", "application/json")
                .header("User-Agent", "edge-ids-java/" + VERSION);
        if (token != null) request.header("Authorization", "Bearer " + token);
        if (body != null) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        CompletableFuture<HttpResponse<String>> answer =
                http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> response;
        String what = method + " " + path.replaceAll("\\?.*", "");
        try {
            response = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new EdgeIdsException("timeout", what + ": no answer within " + timeout.toMillis() + " ms", 0, 0);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new EdgeIdsException("aborted", what + ": interrupted", 0, 0, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            boolean timedOut = cause instanceof java.net.http.HttpTimeoutException;
            throw new EdgeIdsException(timedOut ? "timeout" : "network_error", what + ": " + cause, 0, 0, cause);
        }
        return answerOf(response, what);
    }

    private static Object answerOf(HttpResponse<String> response, String what) {
        int status = response.statusCode();
        String text = response.body();
        if (status >= 200 && status < 300) {
            if (text == null || text.isEmpty()) return null;
            try {
                return Json.parse(text);
            } catch (IllegalArgumentException e) {
                throw new EdgeIdsException("internal", what + ": answer " + status + " is " + e.getMessage(), status, 0);
            }
        }
        double retryAfter = response.headers().firstValue("Retry-After").map(EdgeIds::seconds).orElse(0.0);
        EdgeIdsException refusal = null;
        try {
            Map<?, ?> error = (Map<?, ?>) ((Map<?, ?>) Json.parse(text)).get("error");
            String code = (String) error.get("code");
            if (code != null) refusal = new EdgeIdsException(code, (String) error.get("message"), status, retryAfter);
        } catch (RuntimeException e) {
            // not the service's error shape (a proxy's page): named by its status below
        }
        if (refusal != null) throw refusal;
        String code = status == 502 || status == 503 || status == 504 ? "unavailable" : "internal";
        throw new EdgeIdsException(code, what + ": answer " + status, status, retryAfter);
    }

    private static double seconds(String text) {
        try {
            double value = Double.parseDouble(text.trim());
            return Double.isFinite(value) && value >= 0 ? value : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
