package io.rmq.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Judges a {@link History} against what an at-least-once queue promises:
 * <ul>
 *   <li><b>lost</b>: a send the queue acknowledged, never delivered and not dead-lettered;</li>
 *   <li><b>duplicates</b>: a message delivered more than once (at least once allows it; the scenario explains it);</li>
 *   <li><b>dead-lettered</b> and <b>nacked</b> sends, as reported;</li>
 *   <li><b>overlaps</b> (with serial consumption per key): two deliveries of the same key's messages whose
 *       processing intervals intersect, which coordination forbids.</li>
 * </ul>
 * Deliveries of messages whose send was not acknowledged are counted apart ("in doubt"): a send whose
 * reply was lost may still have been stored. Stateless and thread-safe.
 */
public final class HistoryChecker {

    private HistoryChecker() {
    }

    /**
     * @param checkOverlaps whether to look for per-key overlaps (the run consumed with coordination)
     */
    public static Verdict check(History history, boolean checkOverlaps) {
        List<History.Send> sends = history.sends();
        List<History.Delivery> deliveries = history.deliveries();
        Set<String> dead = history.deadLetteredIds();

        Map<String, Integer> deliveryCounts = new HashMap<>();
        for (History.Delivery d : deliveries) {
            deliveryCounts.merge(d.id(), 1, Integer::sum);
        }
        Set<String> acked = new HashSet<>();
        Set<String> nacked = new HashSet<>();
        Map<String, History.Send> ackedSends = new HashMap<>();
        for (History.Send s : sends) {
            if (s.acked()) {
                acked.add(s.id());
                ackedSends.put(s.id(), s);
            } else {
                nacked.add(s.id());
            }
        }
        nacked.removeAll(acked); // a retried send that finally succeeded is acknowledged

        List<History.Send> lost = new ArrayList<>();
        for (History.Send s : ackedSends.values()) {
            if (!deliveryCounts.containsKey(s.id()) && !dead.contains(s.id())) {
                lost.add(s);
            }
        }
        lost.sort(Comparator.comparingLong(History.Send::atMicros));

        Map<String, Integer> duplicates = new TreeMap<>();
        deliveryCounts.forEach((id, n) -> {
            if (n > 1) {
                duplicates.put(id, n);
            }
        });
        int deliveredInDoubt = 0;
        for (String id : deliveryCounts.keySet()) {
            if (!acked.contains(id)) {
                deliveredInDoubt++;
            }
        }
        List<Overlap> overlaps = checkOverlaps ? overlaps(deliveries) : List.of();
        return new Verdict(acked.size(), nacked.size(), deliveries.size(), deliveryCounts.size(), lost, duplicates,
                Set.copyOf(dead), deliveredInDoubt, overlaps, checkOverlaps);
    }


    /**
     * The most deliveries of one key whose processing intervals were open at the same moment, over every key: 1 when
     * each key's messages were processed one at a time, {@code n} when a limit of {@code n} per key was kept (0
     * without deliveries). Intervals that touch (one ends in the microsecond the next starts) do not count as open
     * together.
     */
    public static int maxConcurrentPerKey(History history) {
        Map<String, List<History.Delivery>> byKey = new HashMap<>();
        for (History.Delivery d : history.deliveries()) {
            byKey.computeIfAbsent(d.key(), k -> new ArrayList<>()).add(d);
        }
        int most = 0;
        for (List<History.Delivery> list : byKey.values()) {
            // events: +1 at a start, -1 at an end; at the same instant the end comes first
            long[][] events = new long[2 * list.size()][];
            int i = 0;
            for (History.Delivery d : list) {
                events[i++] = new long[] {d.startMicros(), 1};
                events[i++] = new long[] {d.endMicros(), -1};
            }
            Arrays.sort(events, Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
            int open = 0;
            for (long[] e : events) {
                open += (int) e[1];
                most = Math.max(most, open);
            }
        }
        return most;
    }

    private static List<Overlap> overlaps(List<History.Delivery> deliveries) {
        Map<String, List<History.Delivery>> byKey = new HashMap<>();
        for (History.Delivery d : deliveries) {
            byKey.computeIfAbsent(d.key(), k -> new ArrayList<>()).add(d);
        }
        List<Overlap> found = new ArrayList<>();
        for (Map.Entry<String, List<History.Delivery>> e : byKey.entrySet()) {
            List<History.Delivery> list = e.getValue();
            list.sort(Comparator.comparingLong(History.Delivery::startMicros));
            History.Delivery longest = null; // the delivery that ends last among those started so far
            for (History.Delivery d : list) {
                // touching intervals (one ends in the microsecond the next starts) are serial
                if (longest != null && d.startMicros() < longest.endMicros()) {
                    found.add(new Overlap(e.getKey(), longest, d));
                }
                if (longest == null || d.endMicros() > longest.endMicros()) {
                    longest = d;
                }
            }
        }
        return found;
    }
}
