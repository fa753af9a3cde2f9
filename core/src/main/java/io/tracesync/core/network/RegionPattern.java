package io.tracesync.core.network;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's region by its name: the first group of the pattern's first match in the name (e.g. {@code ^(rack\d+)-}
 * gives {@code rack7} for {@code rack7-node12}); a name the pattern does not match, or whose group takes no part,
 * is in the region named by the empty string.
 */
public record RegionPattern(Pattern pattern) implements Function<String, String> {

    public RegionPattern {
        Objects.requireNonNull(pattern, "pattern");
        if (pattern.matcher("").groupCount() < 1) {
            throw new IllegalArgumentException("a region pattern needs a group naming the region: " + pattern);
        }
    }

    /** @throws java.util.regex.PatternSyntaxException if the expression is not one */
    public static RegionPattern of(String regex) {
        return new RegionPattern(Pattern.compile(regex));
    }

    @Override
    public String apply(String node) {
        Matcher m = pattern.matcher(node);
        return m.find() && m.group(1) != null ? m.group(1) : "";
    }

    /**
     * The same answers, each node's found once (a match costs a microsecond; summaries come by the hundred thousand
     * a second): for any number of threads, holding an entry per node asked about.
     */
    public Function<String, String> memoized() {
        Map<String, String> known = new ConcurrentHashMap<>();
        return node -> known.computeIfAbsent(node, this);
    }
}
