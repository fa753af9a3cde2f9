package io.tracesync.lttng;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One event line of babeltrace2's text output ({@code sink.text.pretty}) as {@link Babeltrace} asks for it: clock
 * value in cycles, no delta, the trace's hostname when its environment has one, then
 * {@code name: { context }, { payload }}. For example
 * <pre>
 * [00000010533523040321] VM1 inet_sock_local_out: { cpu_id = 0 }, { sk = 0xFFFF88001D513100, seq = 0xA50EB20C, ... }
 * </pre>
 * The field groups are flattened into one map of paths to values: {@code a.b} for a structure member,
 * {@code a[2]} for an array element; variant options (printed without a name by babeltrace2 2.0) add no path
 * component; an enumeration is its container value; strings lose their quotes and escapes. A later group's field
 * replaces an earlier one of the same path (the payload comes last).
 */
public record PrettyLine(long cycles, String host, String event, Map<String, String> fields) {

    /** Parses one line; {@link BadLine} says where and why it cannot be read. */
    public static PrettyLine parse(String line) throws BadLine {
        return new Reader(line).line();
    }

    /** The field at {@code path}, or null. */
    public String field(String path) {
        return fields.get(path);
    }

    /** The first field under {@code root} whose last path component is {@code leaf} (e.g. {@code seq}), or null. */
    public String find(String root, String leaf) {
        String tail = "." + leaf;
        for (Map.Entry<String, String> f : fields.entrySet()) {
            if (f.getKey().startsWith(root + ".") && f.getKey().endsWith(tail)) {
                return f.getValue();
            }
        }
        return null;
    }

    /** A line that is not babeltrace2's text form of an event. */
    public static final class BadLine extends Exception {
        BadLine(String message) {
            super(message, null, false, false);
        }
    }

    /** A recursive-descent reader of one line. */
    private static final class Reader {

        private final String s;
        private final Map<String, String> fields = new LinkedHashMap<>();
        private int at;

        Reader(String s) {
            this.s = s;
        }

        PrettyLine line() throws BadLine {
            expect('[');
            int close = s.indexOf(']', at);
            if (close < 0) {
                throw bad("no closing ']' after the timestamp");
            }
            long cycles;
            try {
                cycles = Long.parseLong(s.substring(at, close));
            } catch (NumberFormatException e) {
                throw bad("timestamp '" + s.substring(at, close) + "' is not a clock value in cycles "
                        + "(--clock-cycles)");
            }
            at = close + 1;
            String first = word();
            String host = null;
            String event = first;
            if (!first.endsWith(":")) {
                host = first;
                event = word();
            }
            if (!event.endsWith(":") || event.length() < 2) {
                throw bad("no event name ending in ':'");
            }
            skipSpaces();
            while (at < s.length()) {
                value("");
                skipSpaces();
                if (at < s.length()) {
                    expect(',');
                    skipSpaces();
                }
            }
            return new PrettyLine(cycles, host, event.substring(0, event.length() - 1), fields);
        }

        private String word() throws BadLine {
            skipSpaces();
            int start = at;
            while (at < s.length() && s.charAt(at) != ' ') {
                at++;
            }
            if (start == at) {
                throw bad("line ends before the event name");
            }
            return s.substring(start, at);
        }

        /** A value at {@code path}: a structure, an array, an enumeration, a string or a scalar. */
        private void value(String path) throws BadLine {
            skipSpaces();
            if (at >= s.length()) {
                throw bad("value of '" + path + "' missing");
            }
            switch (s.charAt(at)) {
                case '{' -> structure(path);
                case '[' -> array(path);
                case '(' -> enumeration(path);
                case '"' -> fields.put(path, string());
                default -> fields.put(path, scalar());
            }
        }

        private void structure(String path) throws BadLine {
            expect('{');
            skipSpaces();
            while (!peek('}')) {
                if (peek('{')) {
                    value(path);
                } else {
                    int eq = s.indexOf(" = ", at);
                    if (eq < 0) {
                        throw bad("member of '" + path + "' without ' = '");
                    }
                    String name = s.substring(at, eq);
                    at = eq + 3;
                    value(path.isEmpty() ? name : path + "." + name);
                }
                skipSpaces();
                if (!peek('}')) {
                    expect(',');
                    skipSpaces();
                }
            }
            expect('}');
        }

        private void array(String path) throws BadLine {
            expect('[');
            skipSpaces();
            int index = 0;
            while (!peek(']')) {
                if (peek('[')) {
                    int eq = s.indexOf("] = ", at);
                    if (eq < 0) {
                        throw bad("array element of '" + path + "' without '] = '");
                    }
                    at = eq + 4;
                }
                value(path + "[" + index++ + "]");
                skipSpaces();
                if (!peek(']')) {
                    expect(',');
                    skipSpaces();
                }
            }
            expect(']');
        }

        /** {@code ( "label" : container = 6 )}, {@code ( { "a", "b" } : container = 3 )} or {@code <unknown>}. */
        private void enumeration(String path) throws BadLine {
            int colon = s.indexOf(": container = ", at);
            if (colon < 0) {
                throw bad("enumeration '" + path + "' without ': container = '");
            }
            at = colon + ": container = ".length();
            fields.put(path, scalar());
            skipSpaces();
            expect(')');
        }

        private String string() throws BadLine {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (at < s.length() && s.charAt(at) != '"') {
                char c = s.charAt(at++);
                if (c == '\\' && at < s.length()) {
                    c = s.charAt(at++);
                    c = switch (c) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        default -> c;
                    };
                }
                out.append(c);
            }
            expect('"');
            return out.toString();
        }

        private String scalar() throws BadLine {
            int start = at;
            while (at < s.length() && ",}]) ".indexOf(s.charAt(at)) < 0) {
                at++;
            }
            if (start == at) {
                throw bad("empty value");
            }
            return s.substring(start, at);
        }

        private boolean peek(char c) throws BadLine {
            if (at >= s.length()) {
                throw bad("line ends inside a field list");
            }
            return s.charAt(at) == c;
        }

        private void expect(char c) throws BadLine {
            if (at >= s.length() || s.charAt(at) != c) {
                throw bad("expected '" + c + "'");
            }
            at++;
        }

        private void skipSpaces() {
            while (at < s.length() && s.charAt(at) == ' ') {
                at++;
            }
        }

        private BadLine bad(String reason) {
            return new BadLine(reason + " at column " + (at + 1));
        }
    }
}
