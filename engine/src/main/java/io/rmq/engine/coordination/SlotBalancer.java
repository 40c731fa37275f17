package io.rmq.engine.coordination;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Computes the leader's slot assignment: every slot gets exactly one live worker, the counts differ
 * by at most one, and as few slots as possible change hands (each move pauses a slot while its
 * in-flight messages finish). Workers are taken instance by instance in turn, so slots spread over
 * processes before one process gets a second share, and a topic with fewer slots than workers is
 * not piled onto the first process that registered. A pure function; thread-safe.
 */
final class SlotBalancer {

    private SlotBalancer() {
    }

    /**
     * @param previous   the current assignment, or {@code null} when there is none
     * @param live       the live workers (duplicates of one id count once)
     * @param generation the generation of the new assignment: the epoch of every slot that moves
     */
    static SlotAssignment balance(SlotAssignment previous, Collection<WorkerInfo> live, int slotAmount,
            long generation, String leader, Instant now) {
        List<String> order = interleave(live);
        String[] owners = new String[slotAmount];
        long[] epochs = new long[slotAmount];
        // a topic that grew keeps its old slots' owners; the new slots are unowned so far
        boolean comparable = previous != null && previous.slotAmount() <= slotAmount;
        String[] before = comparable ? Arrays.copyOf(previous.owners(), slotAmount) : new String[slotAmount];
        long[] beforeEpochs = comparable ? Arrays.copyOf(previous.epochs(), slotAmount) : new long[slotAmount];

        if (!order.isEmpty()) {
            Map<String, Deque<Integer>> holdings = new LinkedHashMap<>();
            order.forEach(w -> holdings.put(w, new ArrayDeque<>()));
            for (int s = 0; s < slotAmount; s++) {
                Deque<Integer> held = before[s] == null ? null : holdings.get(before[s]);
                if (held != null) {
                    held.addLast(s);
                    owners[s] = before[s];
                }
            }
            Map<String, Integer> capacity = capacities(order, holdings, slotAmount);
            holdings.forEach((worker, held) -> {
                while (held.size() > capacity.get(worker)) {
                    owners[held.removeLast()] = null;
                }
            });
            int next = 0;
            for (int s = 0; s < slotAmount; s++) {
                if (owners[s] != null) {
                    continue;
                }
                while (holdings.get(order.get(next)).size() >= capacity.get(order.get(next))) {
                    next = (next + 1) % order.size();
                }
                String worker = order.get(next);
                owners[s] = worker;
                holdings.get(worker).addLast(s);
                next = (next + 1) % order.size();
            }
        }
        for (int s = 0; s < slotAmount; s++) {
            if (owners[s] == null) {
                epochs[s] = 0;
            } else {
                epochs[s] = owners[s].equals(before[s]) ? beforeEpochs[s] : generation;
            }
        }
        return new SlotAssignment(generation, leader, now, owners, epochs);
    }

    /**
     * {@code slotAmount / workers} each, and one more for the first {@code slotAmount % workers}
     * workers, preferring those that already hold the most so that fewer slots move.
     */
    private static Map<String, Integer> capacities(List<String> order, Map<String, Deque<Integer>> holdings,
            int slotAmount) {
        int base = slotAmount / order.size();
        int extra = slotAmount % order.size();
        List<String> byHoldings = new ArrayList<>(order);
        Map<String, Integer> rank = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            rank.put(order.get(i), i);
        }
        byHoldings.sort(Comparator.comparingInt((String w) -> -holdings.get(w).size()).thenComparing(rank::get));
        Map<String, Integer> capacity = new HashMap<>();
        for (int i = 0; i < byHoldings.size(); i++) {
            capacity.put(byHoldings.get(i), base + (i < extra ? 1 : 0));
        }
        return capacity;
    }

    /** Worker ids, one instance after another in turn: a1, b1, c1, a2, b2, a3, ... */
    static List<String> interleave(Collection<WorkerInfo> live) {
        Map<String, TreeMap<String, WorkerInfo>> byInstance = new TreeMap<>();
        for (WorkerInfo w : live) {
            Objects.requireNonNull(w, "worker");
            byInstance.computeIfAbsent(w.instance(), i -> new TreeMap<>()).putIfAbsent(w.id(), w);
        }
        Set<String> seen = new HashSet<>();
        List<Deque<String>> queues = new ArrayList<>();
        byInstance.values().forEach(workers -> queues.add(new ArrayDeque<>(workers.keySet())));
        List<String> order = new ArrayList<>();
        boolean any = true;
        while (any) {
            any = false;
            for (Deque<String> q : queues) {
                String id = q.pollFirst();
                if (id != null) {
                    any = true;
                    if (seen.add(id)) {
                        order.add(id);
                    }
                }
            }
        }
        return order;
    }
}
