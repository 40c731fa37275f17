package io.rmq.connector.tracing;

import java.lang.reflect.InvocationTargetException;

import io.rmq.connector.i18n.RmqLogging;
import io.rmq.engine.scripts.SendResult;
import io.rmq.engine.settlement.Delivery;
import io.rmq.engine.topic.TopicDefinition;

/**
 * How the connector traces its channels' messages, in the OpenTelemetry messaging conventions: a {@code send} span
 * per message written and a {@code process} span per message delivered, joined through the trace context each
 * message carries in Redis (see {@code docs/tracing.md}). Free of OpenTelemetry types: the one implementation that
 * uses the API ({@code OpenTelemetryTracing}) is loaded only when the API is on the class path and an OpenTelemetry
 * with a tracer is found ({@link #discover()}); otherwise {@link #OFF}. Implementations are thread-safe.
 */
public interface RmqTracing {

    /** No tracing: no span, no context stored. */
    RmqTracing OFF = new RmqTracing() {
        @Override
        public boolean active() {
            return false;
        }

        @Override
        public SendSpan send(String channel, TopicDefinition topic) {
            return null;
        }

        @Override
        public ProcessSpan process(String channel, Delivery delivery, int maxLinks) {
            return null;
        }
    };

    /** Whether spans are made at all; {@code false} for {@link #OFF}. */
    boolean active();

    /** Starts the send span of one message written to {@code topic} by {@code channel}; {@code null} when inactive. */
    SendSpan send(String channel, TopicDefinition topic);

    /**
     * Starts the process span of one delivery, linked to the sends it stands for (at most {@code maxLinks}) and to its
     * previous attempt; {@code null} when inactive.
     */
    ProcessSpan process(String channel, Delivery delivery, int maxLinks);

    /** The span of one send, from the write's start to Redis's answer. */
    interface SendSpan {

        /** The W3C traceparent to store with the message, or {@code null} when the span is not recordable. */
        String traceparent();

        /** Redis stored or merged the message. */
        void sent(SendResult result);

        /** The send failed (nothing written, or not known to be). */
        void failed(Throwable failure);
    }

    /** The span of one delivery, from its hand-over to its settlement. */
    interface ProcessSpan {

        /** The W3C traceparent of this span, recorded with the message when it is rolled back. */
        String traceparent();

        /** Settled: {@code outcome} is {@code ack}, or the failure strategy applied ({@code retry}, ...). */
        void settled(String outcome, Throwable failure);
    }

    /**
     * The tracing of the running application: through the CDI bean {@code io.opentelemetry.api.OpenTelemetry} when the
     * container has one, else through {@code GlobalOpenTelemetry}; {@link #OFF} when the OpenTelemetry API is absent or
     * its tracer provider is the no-op one. Logs which (RMQ-2390), or why it failed (RMQ-2391).
     */
    static RmqTracing discover() {
        ClassLoader loader = RmqTracing.class.getClassLoader();
        try {
            Class.forName("io.opentelemetry.api.OpenTelemetry", false, loader);
        } catch (ClassNotFoundException | LinkageError absent) {
            return OFF;
        }
        try {
            Object tracing = Class.forName("io.rmq.connector.tracing.opentelemetry.OpenTelemetryTracing", true, loader)
                    .getMethod("create").invoke(null);
            return tracing == null ? OFF : (RmqTracing) tracing;
        } catch (InvocationTargetException e) {
            RmqLogging.log.tracingBindingFailed(e.getCause());
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            RmqLogging.log.tracingBindingFailed(e);
        }
        return OFF;
    }
}
