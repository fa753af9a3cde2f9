package io.tracesync.faults;

import io.tracesync.environment.LocalKafka;
import io.tracesync.faults.FaultRun.Outcome;
import io.tracesync.faults.FaultRun.Plan;
import io.tracesync.testkit.InstanceProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Does a {@link Fault} to a fault run's instances or broker at a seeded moment, brings back what it struck, and
 * takes the time from the fault (for the broker: its return) until the next factor is committed.
 */
final class FaultInjector {

    private final List<InstanceProcess> instances;
    private final SettledApplication application;
    private final LocalKafka broker;
    private final PacedTraffic traffic;
    private final FactorWatch watch;
    private final Random random;
    private final Plan plan;

    /** @param broker the broker, when this process started it (the broker fault needs it), else null */
    FaultInjector(List<InstanceProcess> instances, SettledApplication application, LocalKafka broker,
            PacedTraffic traffic, FactorWatch watch, Random random, Plan plan) {
        this.instances = instances;
        this.application = application;
        this.broker = broker;
        this.traffic = traffic;
        this.watch = watch;
        this.random = random;
        this.plan = plan;
    }

    /** Round {@code round}'s fault, struck {@code replicatedMs} after the application was last seen whole. */
    Outcome inflict(int round, Fault fault, long replicatedMs) throws Exception {
        InstanceProcess any = instances.get(random.nextInt(instances.size()));
        long at = System.currentTimeMillis();
        String target;
        List<InstanceProcess> restarted = new ArrayList<>();
        switch (fault) {
            case KILL -> {
                any.kill();
                restarted.add(any);
                target = "instance " + any.name();
            }
            case KILL_NETWORK_OWNER -> {
                InstanceProcess owner = application.awaitNetworkOwner(plan.timeout());
                at = System.currentTimeMillis();
                owner.kill();
                restarted.add(owner);
                target = "instance " + owner.name() + " (network)";
            }
            case KILL_TWO -> {
                InstanceProcess other = instances.get((instances.indexOf(any) + 1
                        + random.nextInt(instances.size() - 1)) % instances.size());
                any.kill();
                other.kill();
                restarted.addAll(List.of(any, other));
                target = "instances " + any.name() + " and " + other.name();
            }
            case WIPE_STATE -> {
                any.kill();
                any.wipeState();
                restarted.add(any);
                target = "instance " + any.name() + " (state wiped)";
            }
            case PAUSE -> {
                any.pause();
                Thread.sleep(plan.sessionTimeout().toMillis() * 3 / 2 + 1000);
                any.markLog();
                any.resume();
                target = "instance " + any.name() + " for " + (System.currentTimeMillis() - at) + " ms";
            }
            case BROKER_CRASH -> {
                if (broker == null) {
                    throw new IllegalStateException("the broker fault needs a broker this run started");
                }
                traffic.pause();
                broker.crash(plan.brokerDown());
                at = System.currentTimeMillis();
                traffic.resume();
                target = "broker, down " + plan.brokerDown().toMillis() + " ms";
            }
            default -> throw new IllegalStateException("unknown fault " + fault);
        }
        for (InstanceProcess i : restarted) {
            i.start();
        }
        long first;
        try {
            first = watch.firstAfter(at, plan.timeout());
        } catch (IllegalStateException e) {
            throw new IllegalStateException("round " + round + " (" + fault.label() + ", " + target + "): "
                    + e.getMessage() + "; the instances:\n" + application.diagnosis() + application.heldBack(), e);
        }
        for (InstanceProcess i : restarted) {
            i.awaitRunning(plan.timeout());
        }
        if (fault == Fault.PAUSE) {
            any.awaitRunning(plan.timeout());
        }
        return new Outcome(round, fault, target, at, first - at, replicatedMs);
    }
}
