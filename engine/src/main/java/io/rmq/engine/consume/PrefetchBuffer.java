package io.rmq.engine.consume;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

import io.rmq.engine.settlement.Delivery;

/**
 * The messages a consumer popped and has not delivered yet, in pop order, and, in serial mode, the
 * message each slot has in the listener's hands: a slot's next message is not handed over before
 * the previous one is committed or rolled back, whatever thread the application processes it on,
 * so the messages of a slot are processed one after another.
 *
 * <p>Confined to the consumer's loop thread.
 */
final class PrefetchBuffer {

    private final boolean serial;
    private final ArrayDeque<Delivery> ready = new ArrayDeque<>();
    /** Serial mode: the delivered, unfinished message of each slot, or null. */
    private Delivery[] inProcess;

    PrefetchBuffer(int slotAmount, boolean serial) {
        this.serial = serial;
        this.inProcess = serial ? new Delivery[slotAmount] : null;
    }

    /** The topic grew to {@code slotAmount} slots. */
    void grow(int slotAmount) {
        if (serial && slotAmount > inProcess.length) {
            inProcess = Arrays.copyOf(inProcess, slotAmount);
        }
    }

    int size() {
        return ready.size();
    }

    boolean isEmpty() {
        return ready.isEmpty();
    }

    void addAll(List<Delivery> deliveries) {
        ready.addAll(deliveries);
    }

    /**
     * Removes and returns the next message that may be handed over now: the oldest one, or in
     * serial mode the oldest one whose slot has none in process; {@code null} when there is none.
     * The prefetch is at most a batch or so, so the scan stays short.
     */
    Delivery poll() {
        if (!serial) {
            return ready.poll();
        }
        for (Iterator<Delivery> it = ready.iterator(); it.hasNext();) {
            Delivery d = it.next();
            if (inProcess[d.slot()] == null) {
                it.remove();
                return d;
            }
        }
        return null;
    }

    /** The listener got {@code d}: in serial mode its slot waits until {@code d} is finished. */
    void delivered(Delivery d) {
        if (serial) {
            inProcess[d.slot()] = d;
        }
    }

    /** {@code d} was committed or rolled back; returns whether that lets its slot's next message go. */
    boolean finished(Delivery d) {
        if (serial && inProcess[d.slot()] == d) {
            inProcess[d.slot()] = null;
            return true;
        }
        return false;
    }

    /** Takes out the undelivered messages of one slot. */
    List<Delivery> removeSlot(int slot) {
        List<Delivery> out = new ArrayList<>();
        for (Iterator<Delivery> it = ready.iterator(); it.hasNext();) {
            Delivery d = it.next();
            if (d.slot() == slot) {
                it.remove();
                out.add(d);
            }
        }
        return out;
    }

    /** Takes out every undelivered message. */
    List<Delivery> removeAll() {
        List<Delivery> out = new ArrayList<>(ready);
        ready.clear();
        return out;
    }
}
