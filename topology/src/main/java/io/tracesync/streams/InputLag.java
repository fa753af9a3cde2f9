package io.tracesync.streams;

import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;

/**
 * How far an application is behind on its trace topics ({@link ApplicationGroup#lag}): they are written without
 * transactions, so a committed offset reaches the latest one exactly when every record is processed.
 */
public final class InputLag {

    private final Admin admin;
    private final ApplicationGroup group;
    private final Topics.Input inputs;

    public InputLag(Admin admin, Settings settings) {
        this.admin = admin;
        this.group = ApplicationGroup.of(admin, settings);
        this.inputs = new Topics(settings).traces;
    }

    /** The trace topics now: those the application would read. */
    public List<String> topics() throws ExecutionException, InterruptedException {
        return admin.listTopics().names().get().stream().filter(inputs::includes).sorted().toList();
    }

    /** Records of the trace topics not yet processed. */
    public long records() throws ExecutionException, InterruptedException {
        return group.lag(topics());
    }
}
