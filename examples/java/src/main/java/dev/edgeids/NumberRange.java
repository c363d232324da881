package dev.edgeids;

/**
 * Numbers {@code first..last} of a named sequence that nobody else will get
 * ({@code POST /sequences/:name/reserve}); {@code period} names the period of a
 * sequence with a reset ({@code 2026-11-27}), else null.
 */
public record NumberRange(long first, long last, String period) {
    public long count() {
        return last - first + 1;
    }
}
