package io.tracesync.streams.http;

import java.nio.charset.StandardCharsets;

/** One HTTP answer: status, content type and body. */
record Reply(int status, String contentType, byte[] body) {

    static final String JSON = "application/json";

    static Reply json(int status, String json) {
        return new Reply(status, JSON, json.getBytes(StandardCharsets.UTF_8));
    }

    static Reply text(int status, String contentType, String text) {
        return new Reply(status, contentType, text.getBytes(StandardCharsets.UTF_8));
    }
}
