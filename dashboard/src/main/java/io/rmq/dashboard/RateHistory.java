package io.rmq.dashboard;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.rmq.engine.admin.SlotCounters;

/**
 * The readings of each topic's cluster-wide counters over the last minutes, and the rates between them:
 * {@code (later - earlier) / elapsed seconds} for each counter. A counter that went down between two
 * readings (its keys were deleted, Redis was flushed) starts again from the later reading: no negative
 * rate is shown. Thread-safe (its methods are synchronized; the sampler writes, requests read).
 */
final class RateHistory {

    /** One reading of a topic's counters, at a time of this host's clock (ms). */
    record Reading(long atMillis, SlotCounters counters) {
    }

    /** The rates between two readings, per second, in the order of {@link SlotCounters#NAMES}, at the later one's time. */
    record RatePoint(long atMillis, double[] perSecond) {
    }

    private final long keepMillis;
    private final Map<String, Deque<Reading>> topics = new TreeMap<>();

    RateHistory(long keepMillis) {
        this.keepMillis = keepMillis;
    }

    /** Adds a reading of {@code topic}, and forgets its readings older than the history. */
    synchronized void record(String topic, long atMillis, SlotCounters counters) {
        Deque<Reading> readings = topics.computeIfAbsent(topic, t -> new ArrayDeque<>());
        readings.addLast(new Reading(atMillis, counters));
        while (readings.size() > 1 && readings.peekFirst().atMillis() < atMillis - keepMillis) {
            readings.removeFirst();
        }
    }

    /** Forgets the topics that are no longer recorded in Redis. */
    synchronized void retain(Set<String> recorded) {
        topics.keySet().retainAll(recorded);
    }

    /** Each topic's rates, oldest first; a topic read once has none yet. */
    synchronized Map<String, List<RatePoint>> rates() {
        Map<String, List<RatePoint>> out = new LinkedHashMap<>();
        topics.forEach((topic, readings) -> out.put(topic, rates(readings)));
        return out;
    }

    /** Each topic's last reading. */
    synchronized Map<String, Reading> latest() {
        Map<String, Reading> out = new LinkedHashMap<>();
        topics.forEach((topic, readings) -> out.put(topic, readings.peekLast()));
        return out;
    }

    private static List<RatePoint> rates(Deque<Reading> readings) {
        List<RatePoint> points = new ArrayList<>(Math.max(0, readings.size() - 1));
        Iterator<Reading> it = readings.iterator();
        Reading previous = it.hasNext() ? it.next() : null;
        while (it.hasNext()) {
            Reading next = it.next();
            long elapsed = next.atMillis() - previous.atMillis();
            if (elapsed > 0) {
                long[] before = previous.counters().values();
                long[] after = next.counters().values();
                double[] perSecond = new double[after.length];
                for (int i = 0; i < after.length; i++) {
                    long added = after[i] - before[i];
                    perSecond[i] = added < 0 ? 0 : added * 1000.0 / elapsed;
                }
                points.add(new RatePoint(next.atMillis(), perSecond));
            }
            previous = next;
        }
        return points;
    }
}
