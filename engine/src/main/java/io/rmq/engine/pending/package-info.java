/**
 * What an application can do to a message after sending it: cancel it while it is pending, look it up, and
 * reschedule or reprioritize it ({@link io.rmq.engine.pending.PendingMessages}, obtained from
 * {@code RmqEngine.pendingMessages}). A message is its content (encoded bytes) within its slot, routed by its
 * slot basis as the producer routes it; each operation is one script on that slot.
 */
package io.rmq.engine.pending;
