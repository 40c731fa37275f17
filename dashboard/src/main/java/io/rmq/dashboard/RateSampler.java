package io.rmq.dashboard;

import static io.rmq.dashboard.i18n.DashboardLogging.log;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.rmq.admin.rest.AdminSettings;
import io.rmq.engine.admin.RmqAdmin;
import io.rmq.engine.redis.RedisAccess;
import io.rmq.engine.support.UriCredentials;
import io.rmq.engine.topic.TopicDefinition;

/**
 * Reads every topic's cluster-wide counters ({@code RmqAdmin.stats(topic).counters()}) at a fixed
 * interval into a {@link RateHistory}, so that a page opened now shows the last minutes' rates. It reads
 * the Redis and key prefix the admin endpoints use, with a connection of its own, opened again when the
 * configured URI changes. A failed reading is logged once (RMQ-0973) until one succeeds (RMQ-0974).
 *
 * <p>Lifecycle: {@link #start()} starts its daemon thread {@code rmq-dashboard-sampler}; {@link #close()}
 * stops it and closes the connection. Thread-safe.
 */
final class RateSampler implements AutoCloseable {

    private final Supplier<AdminSettings> settings;
    private final Duration interval;
    private final RateHistory history;
    private final LongSupplier clock;
    private ScheduledExecutorService thread; // guarded by this
    private RmqAdmin admin; // only on the sampler thread (and close)
    private RedisAccess adminAccess;
    private volatile String failure; // the last reading's failure, null when it succeeded
    private volatile long lastSampleMillis;

    RateSampler(Supplier<AdminSettings> settings, Duration interval, Duration history, LongSupplier clock) {
        this.settings = settings;
        this.interval = interval;
        this.history = new RateHistory(history.toMillis());
        this.clock = clock;
    }

    RateHistory history() {
        return history;
    }

    /** Why the last reading failed, or {@code null}. */
    String failure() {
        return failure;
    }

    /** When the last reading succeeded (this host's clock, ms), 0 before the first. */
    long lastSampleMillis() {
        return lastSampleMillis;
    }

    synchronized void start() {
        if (thread == null) {
            thread = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "rmq-dashboard-sampler");
                t.setDaemon(true);
                return t;
            });
            thread.scheduleWithFixedDelay(this::sampleQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void sampleQuietly() {
        AdminSettings now = settings.get();
        try {
            sample(now);
            if (failure != null) {
                log.samplingRecovered(UriCredentials.mask(now.redisUri()));
            }
            failure = null;
        } catch (RuntimeException e) {
            String reason = String.valueOf(e.getMessage()).replace(now.redisUri(), UriCredentials.mask(now.redisUri()));
            if (failure == null) {
                log.samplingFailed(UriCredentials.mask(now.redisUri()), reason);
            }
            failure = reason;
        }
    }

    /** One reading of every topic, on the caller's thread. */
    void sample(AdminSettings now) {
        RmqAdmin redis = admin(now);
        Set<String> seen = new HashSet<>();
        for (TopicDefinition topic : redis.topics(now.keyPrefix())) {
            history.record(topic.name(), clock.getAsLong(), redis.stats(topic).counters());
            seen.add(topic.name());
        }
        history.retain(seen);
        lastSampleMillis = clock.getAsLong();
    }

    private RmqAdmin admin(AdminSettings now) {
        RedisAccess access;
        try {
            access = now.redisAccess();
        } catch (IllegalArgumentException malformed) {
            throw new IllegalStateException(malformed.getMessage()); // RedisAccess never shows the credentials
        }
        if (admin != null && !access.equals(adminAccess)) {
            admin.close();
            admin = null;
        }
        if (admin == null) {
            admin = RmqAdmin.connect(access);
            adminAccess = access;
        }
        return admin;
    }

    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            t = thread;
            thread = null;
        }
        if (t != null) {
            t.shutdownNow();
            try {
                t.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.stopped();
        }
        if (admin != null) {
            admin.close();
            admin = null;
        }
    }
}
