package dev.edgeids;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the client needs, standard library only: {@link #parse} reads an
 * answer into maps, lists, strings, {@code Long} (integers that fit), {@code Double},
 * booleans and null; {@link #quote} writes a string. A malformed text is an
 * {@code IllegalArgumentException} naming the offset.
 *
 * <pre>{@code
 * Map<?, ?> grant = (Map<?, ?>) Json.parse("{\"workerId\":900}");  // {workerId=900}
 * String body = "{\"leaseId\":" + Json.quote(leaseId) + "}";
 * }</pre>
 */
final class Json {
    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json json = new Json(text);
        json.space();
        Object value = json.value();
        json.space();
        if (json.at != text.length()) throw json.wrong("the end");
        return value;
    }

    static String quote(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
            else out.append(c);
        }
        return out.append('"').toString();
    }

    private Object value() {
        if (at >= text.length()) throw wrong("a value");
        char c = text.charAt(at);
        switch (c) {
            case '{': return object();
            case '[': return array();
            case '"': return string();
            case 't': return word("true", Boolean.TRUE);
            case 'f': return word("false", Boolean.FALSE);
            case 'n': return word("null", null);
            default: return number();
        }
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        space();
        if (peek('}')) return map;
        do {
            space();
            String key = string();
            space();
            expect(':');
            space();
            map.put(key, value());
            space();
        } while (take(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        space();
        if (peek(']')) return list;
        do {
            space();
            list.add(value());
            space();
        } while (take(','));
        expect(']');
        return list;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) break;
            char e = text.charAt(at++);
            switch (e) {
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (at + 4 > text.length()) throw wrong("four hex digits");
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                    break;
                default: out.append(e);
            }
        }
        throw wrong("a closing quote");
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) at++;
        String digits = text.substring(start, at);
        if (digits.isEmpty()) throw wrong("a value");
        try {
            if (digits.matches("-?\\d{1,18}")) return Long.parseLong(digits);
            return Double.parseDouble(digits);
        } catch (NumberFormatException e) {
            throw wrong("a number");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) throw wrong("a value");
        at += word.length();
        return value;
    }

    private void space() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
    }

    private boolean peek(char c) {
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private boolean take(char c) {
        return peek(c);
    }

    private void expect(char c) {
        if (!peek(c)) throw wrong("'" + c + "'");
    }

    private IllegalArgumentException wrong(String wanted) {
        return new IllegalArgumentException("not JSON: " + wanted + " expected at offset " + at);
    }
}
