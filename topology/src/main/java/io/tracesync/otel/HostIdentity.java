package io.tracesync.otel;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Which resource attribute names a span's host: the first of {@code keys} the resource has, non-empty. */
public record HostIdentity(List<String> keys) {

    public static final HostIdentity DEFAULT = new HostIdentity(List.of("host.id", "host.name",
            "service.instance.id"));

    public HostIdentity {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("no host attribute");
        }
        keys = List.copyOf(keys);
    }

    public Optional<String> of(Map<String, String> resourceAttributes) {
        return keys.stream().map(resourceAttributes::get).filter(v -> v != null && !v.isEmpty()).findFirst();
    }
}
